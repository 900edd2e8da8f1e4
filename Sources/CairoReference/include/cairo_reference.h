#ifndef SEATMAP_CAIRO_REFERENCE_H
#define SEATMAP_CAIRO_REFERENCE_H
/* The benchmark's reference: what a plain C program does with Cairo to draw
   the same seats (rounded rects in their colours on a background) and write
   them with Cairo's own PNG writer. seatmap-bench times it in the same run as
   SeatMap's full render. */

/* rects: n × (x, y, w, h) in pixels; colours: n × 0xRRGGBB; background 0xRRGGBB.
   Draws on a width × height ARGB32 image surface and writes `path` with
   cairo_surface_write_to_png. Returns 0, or -1 when Cairo reports an error. */
int seatmap_reference_render(int width, int height, unsigned background, const int *rects, const unsigned *colours, int n,
                             double radius, const char *path);
#endif
