#ifndef SEATMAP_PNG_HELPERS_H
#define SEATMAP_PNG_HELPERS_H
/*
 * libpng reports errors by longjmp, which must not cross Swift frames, so the
 * whole encode runs here in C: Swift hands over Cairo's ARGB32 pixels and
 * gets back a malloc'ed PNG (free it with free()) or a negative status.
 */
#include <png.h>
#include <stddef.h>

/*
 * Encodes packed 8-bit RGBA rows (width × 4 bytes each) as an RGBA PNG
 * through libpng. level: zlib level 0-9; filters: 0 for no filtering,
 * 1 for libpng's adaptive choice among all filters. No timestamps or other
 * varying chunks are written, so the same pixels give the same bytes.
 * Returns 0 and sets *out / *out_size, or -1 on any libpng error.
 */
int seatmap_png_encode(const unsigned char *rgba, int width, int height,
                                     int level, int filters,
                                     unsigned char **out, size_t *out_size);

/*
 * Decodes any PNG (palette, grey, 16-bit, interlaced, with or without
 * transparency) into 8-bit non-premultiplied RGBA (bytes R, G, B, A per
 * pixel, rows packed) with libpng's reference transforms: palettes and low
 * grey depths expanded, tRNS to alpha, 16 bits scaled to 8 with rounding,
 * grey to RGB, an opaque alpha added, no gamma or colour conversion. An
 * image wider or taller than max_side or with more than max_pixels pixels is
 * refused before any pixel is allocated. Returns 0 and a malloc'ed buffer
 * (free it with free()), or -1 with a message. libpng's longjmp error
 * handling stays inside this function.
 */
int seatmap_png_decode(const unsigned char *data, size_t size, int *width, int *height,
                                     unsigned char **out, char *message, size_t message_size,
                                     unsigned max_side, unsigned long long max_pixels);
#endif
