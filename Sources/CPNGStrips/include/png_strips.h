#ifndef SEATMAP_PNG_STRIPS_H
#define SEATMAP_PNG_STRIPS_H
#include <stddef.h>
#include <stdint.h>

/* SeatMap's PNG encoder, in pieces that Swift runs on several cores:
   a PNG's image data is one zlib stream, made here of horizontal strips
   compressed independently (each ends on a byte boundary with a sync flush,
   the last with the final block), as pigz does. The strip size is fixed by
   the image, never by the number of cores, so the bytes are the same on any
   machine. */

/* One row of Cairo's premultiplied native-endian ARGB32 to non-premultiplied
   R, G, B, A bytes (what a PNG holds): the one conversion, used by the
   encoder and by the code that compares renders with decoded PNGs. */
void seatmap_strips_argb_to_rgba(const uint32_t *src, unsigned char *dst, int width);

/* 1 when every pixel of Cairo's premultiplied ARGB32 image is opaque. */
int seatmap_strips_opaque(const unsigned char *pixels, int width, int height, int stride);

/* Filters rows [y0, y1) of the image into `out` (each row: a filter-type
   byte, then width × channels bytes), channels 3 (RGB, opaque images) or 4
   (RGBA, un-premultiplied). effort 0: Up; 1: per row Sub or Up, whichever
   sums smaller; 2: per row the smallest sum of all five filters (libpng's
   heuristic). The image's first row is filtered Sub. The row above y0 is read from the image, so strips filter
   exactly as one pass would. */
void seatmap_strips_filter(const unsigned char *pixels, int width, int stride, int y0, int y1, int channels, int effort,
                           unsigned char *out);

/* Compresses `len` bytes as raw deflate with zlib at `level` (1-9, the
   default strategy): a sync-flushed piece when `last` is 0, the final
   piece otherwise. Returns the compressed size in *out_size and a malloc'd
   buffer in *out (free it), or -1. */
int seatmap_strips_deflate(const unsigned char *in, size_t len, int level, int last, unsigned char **out, size_t *out_size);

/* 0 makes the filter take its plain C paths even where the
   processor has AVX2 (for tests comparing the two; the bytes are the same). */
void seatmap_strips_allow_simd(int allowed);
/* 1 when the processor has the AVX2 those paths need. */
int seatmap_strips_has_simd(void);
/* zlib's checksums, for the stream trailer and the chunks. */
uint32_t seatmap_strips_adler32(uint32_t adler, const unsigned char *data, size_t len);
uint32_t seatmap_strips_adler32_combine(uint32_t a, uint32_t b, size_t len_b);
uint32_t seatmap_strips_crc32(uint32_t crc, const unsigned char *data, size_t len);
#endif
