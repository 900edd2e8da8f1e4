#ifndef SEATMAP_IMAGE_MEMORY_H
#define SEATMAP_IMAGE_MEMORY_H
#include <stddef.h>
#include <cairo.h>

/* An ARGB32 image surface whose pixels lie on 2 MB boundaries in memory
   of their own, zeroed as a new image's are, which the kernel is asked to
   back with 2 MB pages when it is first written (MADV_HUGEPAGE): a
   7-megapixel render then takes a handful of page faults instead of
   thousands. The memory is released with the surface (its last
   reference). NULL when the image is under 2 MB, or the memory cannot be
   had; the caller then makes the image as Cairo does. */
cairo_surface_t *seatmap_huge_image_surface_create(int width, int height);

/* `bytes` of zeroed memory of its own on a 2 MB boundary, in whole 2 MB
   pages advised for huge pages (memory reused for one tile after another:
   a 1 MB frame is one page fault instead of 256). `mapped` gets what
   seatmap_huge_free must be given back. NULL when it cannot be had. */
void *seatmap_huge_alloc(size_t bytes, size_t *mapped);

/* The pixels of such a surface and the whole 2 MB pages they lie on, in
   `length`; NULL for any other surface. */
void *seatmap_huge_image_pixels(cairo_surface_t *surface, size_t *length);

/* Has the kernel back those pages with memory now, zeroed, as their first
   writes would, the last page first (Linux MADV_POPULATE_WRITE: the
   contents do not change, so another thread may draw meanwhile). Returns
   0, or -1 when the kernel does not do it or memory is short: the writes
   then fault the pages in as before. */
int seatmap_huge_populate(void *pixels, size_t length);

/* Gives back what seatmap_huge_alloc gave (`mapped` as it said). */
void seatmap_huge_free(void *memory, size_t mapped);

/* An image surface (`format`, as cairo_image_surface_create makes one)
   whose pixels are cleared here, written before Cairo first reads them.
   Cairo's own surface takes its memory from calloc, which leaves fresh
   pages untouched; Cairo's first read of such a page (a fill blending
   into a mask) maps the kernel's shared zero page, and its first write
   then copies it: a second page fault, which while another thread of the
   process runs interrupts that thread's processor to drop the old
   mapping. Falls back to cairo_image_surface_create when the memory
   cannot be had; the memory is released with the surface. */
cairo_surface_t *seatmap_cleared_image_surface_create(cairo_format_t format, int width, int height);

#endif
