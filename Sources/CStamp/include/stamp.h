#ifndef SEATMAP_STAMP_H
#define SEATMAP_STAMP_H
#include <stdint.h>

/* Composites an opaque colour through a coverage mask (8 bits a pixel) onto
   premultiplied ARGB32 pixels, with the arithmetic Cairo's image backend
   uses when it fills a path in an opaque colour: full coverage writes the
   colour, partial coverage blends the colour and the pixel channel by
   channel, rounded as Cairo rounds. So a mask made once by filling a path
   into an A8 surface, stamped at a whole-pixel origin, gives the bytes that
   filling the same path there would. The caller keeps the mask inside the
   image. `spans` comes from `seatmap_stamp_spans` for the same mask.
   Only the pixels within the window [wx0, wx1) × [wy0, wy1) are written
   (each pixel is composited on its own: those written are as the whole
   stamp writes them). */
void seatmap_stamp_opaque(uint8_t *pixels, int stride, const uint8_t *mask, int mask_width, int mask_height, int mask_stride,
                          const int32_t *spans, int x, int y, uint32_t colour, int wx0, int wy0, int wx1, int wy1);

/* A mask's rows as spans, four numbers a row: the first and past-the-last
   pixel with any coverage, and within them the longest run of full
   coverage, which a stamp writes without reading the mask. */
void seatmap_stamp_spans(const uint8_t *mask, int mask_width, int mask_height, int mask_stride, int32_t *spans);

/* Writes an opaque colour over every pixel of a whole-pixel rect, as Cairo
   writes it when it fills such a rect (full coverage everywhere). */
void seatmap_fill_rect(uint8_t *pixels, int stride, int x, int y, int width, int height, uint32_t colour);

#endif
