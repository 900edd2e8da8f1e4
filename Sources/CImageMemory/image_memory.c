/* Memory on 2 MB boundaries (see image_memory.h). An image's mapping keeps
   a page in front of the pixels that records where the mapping starts and
   how long it is, so the surface's destroy callback can unmap it all. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "image_memory.h"

enum { HUGE = 2 << 20 };

struct mapping {
    void *start;
    size_t length;
};

static const cairo_user_data_key_t key;

/* `front` bytes (whole pages), then `bytes` rounded up to whole 2 MB pages
   starting on a 2 MB boundary and advised for huge pages. Returns where
   the 2 MB pages start, and the mapping (from the front) in `start` and
   `length`; NULL when it cannot be had. */
static uint8_t *map_huge(size_t front, size_t bytes, void **start, size_t *length) {
#ifdef MADV_HUGEPAGE
    if (bytes == 0 || bytes > SIZE_MAX / 2 || front > HUGE) return NULL;
    /* Rounded up to whole 2 MB pages (a last part page would be faulted in
       4 KB at a time), mapped with room to move to a 2 MB boundary. */
    size_t body = (bytes + HUGE - 1) / HUGE * HUGE;
    size_t asked = front + body + HUGE;
    uint8_t *base = mmap(NULL, asked, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    uintptr_t aligned = ((uintptr_t)base + front + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    uint8_t *body_start = (uint8_t *)aligned, *first = body_start - front, *end = body_start + body;
    /* Give back what lies before the front and after the body. */
    if (first > base) munmap(base, (size_t)(first - base));
    if (base + asked > end) munmap(end, (size_t)(base + asked - end));
    madvise(body_start, body, MADV_HUGEPAGE);
    *start = first;
    *length = front + body;
    return body_start;
#else
    (void)front;
    (void)bytes;
    (void)start;
    (void)length;
    return NULL;
#endif
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void *seatmap_huge_image_pixels(cairo_surface_t *surface, size_t *length) {
    uint8_t *pixels = cairo_surface_get_user_data(surface, &key);
    if (!pixels) return NULL;
    const struct mapping *m = (const struct mapping *)(pixels - sizeof(struct mapping));
    *length = (size_t)((uint8_t *)m->start + m->length - pixels);
    return pixels;
}

int seatmap_huge_populate(void *pixels, size_t length) {
    if (!pixels || (uintptr_t)pixels % HUGE != 0 || length % HUGE != 0) return -1;
    /* The last page first: a drawing from the top meets these halfway. */
    for (uint8_t *page = (uint8_t *)pixels + length; page > (uint8_t *)pixels;) {
        page -= HUGE;
        if (madvise(page, HUGE, MADV_POPULATE_WRITE) != 0) return -1;
    }
    return 0;
}

static void release(void *pixels) {
    const struct mapping *m = (const struct mapping *)((uint8_t *)pixels - sizeof(struct mapping));
    munmap(m->start, m->length);
}

cairo_surface_t *seatmap_huge_image_surface_create(int width, int height) {
    if (width <= 0 || height <= 0) return NULL;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
    if (stride <= 0) return NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || page > HUGE || (size_t)page < sizeof(struct mapping)) return NULL;
    size_t bytes = (size_t)stride * (size_t)height;
    if (bytes < HUGE) return NULL;
    void *start;
    size_t length;
    uint8_t *pixels = map_huge((size_t)page, bytes, &start, &length);
    if (!pixels) return NULL;
    struct mapping *m = (struct mapping *)(pixels - sizeof(struct mapping));
    m->start = start;
    m->length = length;
    cairo_surface_t *surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS
        || cairo_surface_set_user_data(surface, &key, pixels, release) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        munmap(start, length);
        return NULL;
    }
    return surface;
}

void *seatmap_huge_alloc(size_t bytes, size_t *mapped) {
    void *start;
    size_t length;
    uint8_t *memory = map_huge(0, bytes, &start, &length);
    if (!memory) return NULL;
    *mapped = length;
    return memory;
}

void seatmap_huge_free(void *memory, size_t mapped) {
    if (memory) munmap(memory, mapped);
}

static const cairo_user_data_key_t cleared_key;

cairo_surface_t *seatmap_cleared_image_surface_create(cairo_format_t format, int width, int height) {
    /* Past Cairo's side limit (32767 px) Cairo refuses the size itself
       (an error surface): nothing is allocated or zeroed first. */
    int stride = cairo_format_stride_for_width(format, width);
    if (width <= 0 || height <= 0 || width > 32767 || height > 32767 || stride <= 0 || (size_t)height > SIZE_MAX / (size_t)stride) {
        return cairo_image_surface_create(format, width, height);
    }
    size_t bytes = (size_t)stride * (size_t)height;
    unsigned char *pixels = malloc(bytes);
    if (!pixels) return cairo_image_surface_create(format, width, height);
    /* Written, not merely zero: a compiler turns malloc and memset into
       calloc, which is what this avoids. */
    explicit_bzero(pixels, bytes);
    cairo_surface_t *surface = cairo_image_surface_create_for_data(pixels, format, width, height, stride);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS
        || cairo_surface_set_user_data(surface, &cleared_key, pixels, free) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        free(pixels);
        return cairo_image_surface_create(format, width, height);
    }
    return surface;
}
