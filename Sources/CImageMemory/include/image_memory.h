#ifndef SEATMAP_IMAGE_MEMORY_H
#define SEATMAP_IMAGE_MEMORY_H
#include <cairo.h>

/* An ARGB32 image surface whose pixels lie on 2 MB boundaries in memory
   of their own, zeroed as a new image's are, which the kernel is asked to
   back with 2 MB pages when it is first written (MADV_HUGEPAGE): a
   7-megapixel render then takes a handful of page faults instead of
   thousands. The memory is released with the surface (its last
   reference). NULL when the image is under 2 MB, or the memory cannot be
   had; the caller then makes the image as Cairo does. */
cairo_surface_t *seatmap_huge_image_surface_create(int width, int height);

#endif
