#include "png_strips.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* x86-64 gets AVX2 paths, chosen at run time where the processor has it:
   the same bytes as the plain C beside them (EncoderTests, DeflateTests). */
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define SEATMAP_X86 1
#include <immintrin.h>
static int simd_allowed = 1;
int seatmap_strips_has_simd(void) { return __builtin_cpu_supports("avx2"); }
void seatmap_strips_allow_simd(int allowed) { __atomic_store_n(&simd_allowed, allowed, __ATOMIC_RELAXED); }
#else
int seatmap_strips_has_simd(void) { return 0; }
void seatmap_strips_allow_simd(int allowed) { (void)allowed; }
#endif
/* Whether the AVX2 paths run: the processor has it and tests allow it. */
static int has_avx2(void) {
#ifdef SEATMAP_X86
    return __atomic_load_n(&simd_allowed, __ATOMIC_RELAXED) && seatmap_strips_has_simd();
#else
    return 0;
#endif
}

int seatmap_strips_opaque(const unsigned char *pixels, int width, int height, int stride) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(pixels + (size_t)y * (size_t)stride);
        uint32_t all = 0xFF000000u;
        for (int x = 0; x < width; x++) all &= row[x];
        if ((all & 0xFF000000u) != 0xFF000000u) return 0;
    }
    return 1;
}

#ifdef SEATMAP_X86
/* Opaque pixels to R, G, B bytes, four at a time: a byte shuffle, stored
   16 bytes wide while the row has room for the 4 bytes written past them. */
__attribute__((target("avx2"))) static int rgb_avx2(const uint32_t *src, unsigned char *dst, int width) {
    const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    int x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(const void *)(src + x));
        _mm_storeu_si128((__m128i *)(void *)(dst + 3 * x), _mm_shuffle_epi8(p, order));
    }
    return x;
}
#endif

/* One image row as PNG bytes (RGB or un-premultiplied RGBA). */
static void convert(const uint32_t *src, unsigned char *dst, int width, int channels, int avx2) {
    if (channels == 3) {
        int start = 0;
#ifdef SEATMAP_X86
        if (avx2) start = rgb_avx2(src, dst, width);
#else
        (void)avx2;
#endif
        dst += 3 * start;
        for (int x = start; x < width; x++) {
            uint32_t p = src[x];
            dst[0] = (unsigned char)(p >> 16); dst[1] = (unsigned char)(p >> 8); dst[2] = (unsigned char)p;
            dst += 3;
        }
        return;
    }
    seatmap_strips_argb_to_rgba(src, dst, width);
}

void seatmap_strips_argb_to_rgba(const uint32_t *src, unsigned char *dst, int width) {
    for (int x = 0; x < width; x++) {
        uint32_t p = src[x];
        unsigned a = p >> 24, r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
        if (a != 0 && a != 255) {
            r = (r * 255 + a / 2) / a;
            g = (g * 255 + a / 2) / a;
            b = (b * 255 + a / 2) / a;
        }
        dst[0] = (unsigned char)r; dst[1] = (unsigned char)g; dst[2] = (unsigned char)b; dst[3] = (unsigned char)a;
        dst += 4;
    }
}

static unsigned paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (unsigned)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* The sum of a filtered row's bytes taken as signed (libpng's measure). */
static unsigned long cost(const unsigned char *f, size_t n) {
    unsigned long s = 0;
    for (size_t i = 0; i < n; i++) s += f[i] < 128 ? f[i] : 256 - f[i];
    return s;
}

static void apply(int type, const unsigned char *cur, const unsigned char *prev, size_t n, int bpp, unsigned char *out) {
    for (size_t i = 0; i < n; i++) {
        unsigned a = i >= (size_t)bpp ? cur[i - bpp] : 0, b = prev ? prev[i] : 0, c = (prev && i >= (size_t)bpp) ? prev[i - bpp] : 0;
        unsigned v;
        switch (type) {
        case 1: v = cur[i] - a; break;
        case 2: v = cur[i] - b; break;
        case 3: v = cur[i] - ((a + b) >> 1); break;
        case 4: v = cur[i] - paeth((int)a, (int)b, (int)c); break;
        default: v = cur[i]; break;
        }
        out[i] = (unsigned char)v;
    }
}

/* A filtered byte's magnitude taken as signed (libpng's measure). */
static inline int mag(unsigned char v) { signed char c = (signed char)v; return c < 0 ? -c : c; }

#ifdef SEATMAP_X86
/* The two sums of sub_or_up from byte `bpp` on, 32 bytes a step: the
   differences' magnitudes (|-128| is 128 read unsigned) summed by
   _mm256_sad_epu8. Returns how far it got. */
__attribute__((target("avx2"))) static size_t sums_avx2(const unsigned char *cur, const unsigned char *prev, size_t n, size_t bpp,
                                                     long *cs, long *cu) {
    const __m256i zero = _mm256_setzero_si256();
    __m256i s = zero, u = zero;
    size_t i = bpp;
    for (; i + 32 <= n; i += 32) {
        __m256i c = _mm256_loadu_si256((const __m256i *)(const void *)(cur + i));
        __m256i left = _mm256_loadu_si256((const __m256i *)(const void *)(cur + i - bpp));
        __m256i up = _mm256_loadu_si256((const __m256i *)(const void *)(prev + i));
        s = _mm256_add_epi64(s, _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(c, left)), zero));
        u = _mm256_add_epi64(u, _mm256_sad_epu8(_mm256_abs_epi8(_mm256_sub_epi8(c, up)), zero));
    }
    long long a[4], b[4];
    _mm256_storeu_si256((__m256i *)(void *)a, s);
    _mm256_storeu_si256((__m256i *)(void *)b, u);
    *cs += (long)(a[0] + a[1] + a[2] + a[3]);
    *cu += (long)(b[0] + b[1] + b[2] + b[3]);
    return i;
}
#endif

/* Sub or Up for one converted row, whichever sums smaller (Up on a tie).
   Plain loops over bytes with int sums, which the compiler vectorises (and
   AVX2's where the processor has it). */
static int sub_or_up(const unsigned char *cur, const unsigned char *prev, size_t n, size_t bpp, int avx2) {
    long cs = 0, cu = 0;
    for (size_t i = 0; i < bpp; i++) { cs += mag(cur[i]); cu += mag((unsigned char)(cur[i] - prev[i])); }
    size_t from = bpp;
#ifdef SEATMAP_X86
    if (avx2) from = sums_avx2(cur, prev, n, bpp, &cs, &cu);
#else
    (void)avx2;
#endif
    const size_t block = 4096;
    for (size_t start = from; start < n; start += block) {
        size_t end = start + block < n ? start + block : n;
        int bs = 0, bu = 0;
        for (size_t i = start; i < end; i++) {
            bs += mag((unsigned char)(cur[i] - cur[i - bpp]));
            bu += mag((unsigned char)(cur[i] - prev[i]));
        }
        cs += bs; cu += bu;
    }
    return cs < cu ? 1 : 2;
}

void seatmap_strips_filter(const unsigned char *pixels, int width, int stride, int y0, int y1, int channels, int effort,
                           unsigned char *out) {
    size_t n = (size_t)width * (size_t)channels;
    unsigned char *rows = malloc(7 * n);
    if (!rows) return;
    unsigned char *prev = rows, *cur = rows + n, *trial = rows + 2 * n;
    const size_t bpp = (size_t)channels;
    const int avx2 = has_avx2();
    int havePrev = y0 > 0;
    if (havePrev) convert((const uint32_t *)(pixels + (size_t)(y0 - 1) * (size_t)stride), prev, width, channels, avx2);
    for (int y = y0; y < y1; y++) {
        const unsigned char *src = pixels + (size_t)y * (size_t)stride;
        unsigned char *dst = out + (size_t)(y - y0) * (n + 1);
        unsigned char *d = dst + 1;
        /* A row equal to the one above (seat maps repeat rows): Up makes it
           zeros, which both cheaper efforts would choose anyway (its sum is
           0), so it is neither converted nor measured. */
        if (havePrev && effort <= 1 && memcmp(src, src - stride, (size_t)width * 4) == 0) {
            dst[0] = 2;
            memset(d, 0, n);
            continue;
        }
        convert((const uint32_t *)src, cur, width, channels, avx2);
        int type;
        if (!havePrev) {
            type = 1;  /* the first row has none above */
        } else if (effort == 0) {
            type = 2;
        } else if (effort == 1) {
            type = sub_or_up(cur, prev, n, bpp, avx2);
        } else {
            /* libpng's heuristic over all five filters. */
            type = 0;
            unsigned long bestCost = (unsigned long)-1;
            for (int t = 0; t < 5; t++) {
                apply(t, cur, prev, n, channels, trial + (size_t)t * n);
                unsigned long c = cost(trial + (size_t)t * n, n);
                if (c < bestCost) { bestCost = c; type = t; }
            }
            dst[0] = (unsigned char)type;
            memcpy(d, trial + (size_t)type * n, n);
            unsigned char *t = prev; prev = cur; cur = t;
            continue;
        }
        dst[0] = (unsigned char)type;
        if (type == 1) {
            for (size_t i = 0; i < bpp; i++) d[i] = cur[i];
            for (size_t i = bpp; i < n; i++) d[i] = (unsigned char)(cur[i] - cur[i - bpp]);
        } else {
            for (size_t i = 0; i < n; i++) d[i] = (unsigned char)(cur[i] - prev[i]);
        }
        unsigned char *t = prev; prev = cur; cur = t;
        havePrev = 1;
    }
    free(rows);
}

/* One raw deflate of `in` with zlib's `level` and `strategy`. */
static int deflate_once(const unsigned char *in, size_t len, int level, int strategy, int last, unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) return -1;
    size_t cap = deflateBound(&z, (uLong)len) + 16;
    unsigned char *buf = malloc(cap);
    if (!buf) { deflateEnd(&z); return -1; }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = buf;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    int ok = last ? rc == Z_STREAM_END : (rc == Z_OK && z.avail_in == 0);
    size_t produced = cap - z.avail_out;
    deflateEnd(&z);
    if (!ok) { free(buf); return -1; }
    *out = buf;
    *out_size = produced;
    return 0;
}

int seatmap_strips_deflate(const unsigned char *in, size_t len, int level, int last, unsigned char **out, size_t *out_size) {
    if (level < 1 || level > 9) return -1;
    return deflate_once(in, len, level, Z_DEFAULT_STRATEGY, last, out, out_size);
}

/* zlib's checksums, for the stream trailer and the chunks. */
uint32_t seatmap_strips_adler32(uint32_t adler, const unsigned char *data, size_t len) { return (uint32_t)adler32_z(adler, data, len); }
uint32_t seatmap_strips_adler32_combine(uint32_t a, uint32_t b, size_t len_b) { return (uint32_t)adler32_combine(a, b, (z_off_t)len_b); }
uint32_t seatmap_strips_crc32(uint32_t crc, const unsigned char *data, size_t len) { return (uint32_t)crc32_z(crc, data, len); }
