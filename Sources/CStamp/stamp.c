#include "stamp.h"
#include <string.h>

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

void seatmap_stamp_opaque(uint8_t *pixels, int stride, const uint8_t *mask, int mask_width, int mask_height, int mask_stride,
                          int x, int y, uint32_t colour) {
    for (int row = 0; row < mask_height; row++) {
        uint32_t *out = (uint32_t *)(pixels + (size_t)(y + row) * (size_t)stride) + x;
        const uint8_t *m = mask + (size_t)row * (size_t)mask_stride;
        int i = 0;
        while (i < mask_width) {
            uint32_t c = m[i];
            if (c == 0) { i++; continue; }
            if (c == 255) {
                int end = i + 1;
                while (end < mask_width && m[end] == 255) end++;
                for (int k = i; k < end; k++) out[k] = colour;
                i = end;
                continue;
            }
            out[i] = blend(colour, c, out[i]);
            i++;
        }
    }
}
