#include "stamp.h"
#include <string.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Two channels of a packed pixel (bits 0-7 and 16-23) times an 8-bit
   weight over 255, each rounded to nearest as Cairo's span filler rounds. */
static inline uint32_t two_channels_times(uint32_t packed, uint32_t weight) {
    uint32_t t = (packed & 0x00ff00ffu) * weight + 0x007f007fu;
    return ((t + ((t >> 8) & 0x00ff00ffu)) >> 8) & 0x00ff00ffu;
}

/* The sum of two such channel pairs, each saturated at 255. */
static inline uint32_t two_channels_sum(uint32_t a, uint32_t b) {
    uint32_t t = a + b;
    t |= 0x01000100u - ((t >> 8) & 0x00ff00ffu);
    return t & 0x00ff00ffu;
}

static inline uint32_t blend(uint32_t colour, uint32_t coverage, uint32_t pixel) {
    uint32_t rest = 255u - coverage;
    uint32_t blue_red = two_channels_sum(two_channels_times(colour, coverage), two_channels_times(pixel, rest));
    uint32_t green_alpha = two_channels_sum(two_channels_times(colour >> 8, coverage), two_channels_times(pixel >> 8, rest));
    return blue_red | (green_alpha << 8);
}

/* Pixels [from, to) of a row through their coverage, one by one. */
static inline void edge(uint32_t *out, const uint8_t *m, int from, int to, uint32_t colour) {
    for (int i = from; i < to; i++) {
        uint32_t c = m[i];
        if (c == 0) continue;
        out[i] = c == 255 ? colour : blend(colour, c, out[i]);
    }
}

void seatmap_stamp_spans(const uint8_t *mask, int mask_width, int mask_height, int mask_stride, int32_t *spans) {
    for (int row = 0; row < mask_height; row++) {
        const uint8_t *m = mask + (size_t)row * (size_t)mask_stride;
        int32_t *s = spans + 4 * row;
        int lo = 0, hi = mask_width;
        while (lo < hi && m[lo] == 0) lo++;
        while (hi > lo && m[hi - 1] == 0) hi--;
        /* The longest run of full coverage. */
        int best = lo, bestEnd = lo, i = lo;
        while (i < hi) {
            if (m[i] != 255) { i++; continue; }
            int end = i + 1;
            while (end < hi && m[end] == 255) end++;
            if (end - i > bestEnd - best) { best = i; bestEnd = end; }
            i = end;
        }
        s[0] = lo; s[1] = best; s[2] = bestEnd; s[3] = hi;
    }
}

/* The rows and columns of a stamp at (x, y) that lie within the window
   [wx0, wx1) × [wy0, wy1): rows [*first, *last), columns from `*left`
   (relative to the stamp) to `*right`. */
static inline void window_of(int x, int y, int width, int height, int wx0, int wy0, int wx1, int wy1,
                             int *first, int *last, int *left, int *right) {
    *first = wy0 - y > 0 ? wy0 - y : 0;
    *last = wy1 - y < height ? wy1 - y : height;
    *left = wx0 - x > 0 ? wx0 - x : 0;
    *right = wx1 - x < width ? wx1 - x : width;
    if (*left >= *right) *last = *first;  /* no column within: nothing */
}

static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Rows this far ahead of the one being written are asked for early. */
enum { ROWS_AHEAD = 16 };

/* Asks for the cache lines of columns [left, right) of a stamp's row, to
   be written. A stamp's rows lie a whole image row apart, a line or three
   each, which the processor does not fetch ahead by itself: written one
   after the other, every row waited on memory. */
static inline void fetch_row(uint8_t *pixels, int stride, int x, int y, int left, int right) {
    uint8_t *row = pixels + (size_t)y * (size_t)stride;
    const size_t from = (size_t)(x + left) * 4, last = (size_t)(x + right) * 4 - 1;
    /* Byte offsets, so that no pointer is made past the row's last pixel. */
    for (size_t b = from; b < last; b += 64) __builtin_prefetch(row + b, 1, 3);
    __builtin_prefetch(row + last, 1, 3);
}

void seatmap_stamp_opaque(uint8_t *pixels, int stride, const uint8_t *mask, int mask_width, int mask_height, int mask_stride,
                          const int32_t *spans, int x, int y, uint32_t colour, int wx0, int wy0, int wx1, int wy1) {
    int first, last, left, right;
    window_of(x, y, mask_width, mask_height, wx0, wy0, wx1, wy1, &first, &last, &left, &right);
    for (int row = first; row < last && row < first + ROWS_AHEAD; row++) fetch_row(pixels, stride, x, y + row, left, right);
    for (int row = first; row < last; row++) {
        if (row + ROWS_AHEAD < last) fetch_row(pixels, stride, x, y + row + ROWS_AHEAD, left, right);
        uint32_t *out = (uint32_t *)(pixels + (size_t)(y + row) * (size_t)stride) + x;
        const uint8_t *m = mask + (size_t)row * (size_t)mask_stride;
        /* The row's spans read into locals first: `out` and `spans` may
           alias as far as C knows (uint32_t and int32_t), so read through
           the pointer each bound would be loaded again after every store
           and the run written one pixel at a time. */
        const int32_t *s = spans + 4 * row;
        const int lo = clamp(s[0], left, right), hi = clamp(s[3], lo, right);
        const int from = clamp(s[1], lo, hi), to = clamp(s[2], from, hi);
        edge(out, m, lo, from, colour);
        for (int i = from; i < to; i++) out[i] = colour;
        edge(out, m, to, hi, colour);
    }
}


/* Fills of at least this many pixels (4 MiB) are written past the cache:
   a render's background, which stamps and the encoder read back later in
   pieces, when most of it has left the cache anyway. Its lines are then
   neither read from memory before being written nor pushed out of the cache
   the seats are drawn in. The pixels are the same either way. */
enum { NONTEMPORAL_PIXELS = 1 << 20 };

void seatmap_fill_rect(uint8_t *pixels, int stride, int x, int y, int width, int height, uint32_t colour) {
#if defined(__SSE2__)
    if ((size_t)width * (size_t)height >= NONTEMPORAL_PIXELS) {
        const __m128i v = _mm_set1_epi32((int)colour);
        for (int row = 0; row < height; row++) {
            uint32_t *out = (uint32_t *)(pixels + (size_t)(y + row) * (size_t)stride) + x;
            int i = 0;
            while (i < width && ((uintptr_t)(out + i) & 15) != 0) out[i++] = colour;
            for (; i + 4 <= width; i += 4) _mm_stream_si128((__m128i *)(out + i), v);
            for (; i < width; i++) out[i] = colour;
        }
        _mm_sfence();  /* ordered before anything read or written after */
        return;
    }
#endif
    for (int row = 0; row < height; row++) {
        uint32_t *out = (uint32_t *)(pixels + (size_t)(y + row) * (size_t)stride) + x;
        for (int i = 0; i < width; i++) out[i] = colour;
    }
}
