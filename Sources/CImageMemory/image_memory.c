/* Image memory on 2 MB boundaries (see image_memory.h). The mapping keeps a
   page in front of the pixels that records where the mapping starts and
   how long it is, so the surface's destroy callback can unmap it all. */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include "image_memory.h"

enum { HUGE = 2 << 20 };

struct mapping {
    void *start;
    size_t length;
};

static const cairo_user_data_key_t key;

static void release(void *pixels) {
    const struct mapping *m = (const struct mapping *)((uint8_t *)pixels - sizeof(struct mapping));
    munmap(m->start, m->length);
}

cairo_surface_t *seatmap_huge_image_surface_create(int width, int height) {
#ifdef MADV_HUGEPAGE
    if (width <= 0 || height <= 0) return NULL;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
    if (stride <= 0) return NULL;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || page > HUGE || (size_t)page < sizeof(struct mapping)) return NULL;
    size_t bytes = (size_t)stride * (size_t)height;
    if (bytes < HUGE || bytes > SIZE_MAX / 2) return NULL;
    /* The pixels, rounded up to whole 2 MB pages (a last part page would
       be faulted in 4 KB at a time), after one page for the record; mapped
       with room to move the pixels to a 2 MB boundary. */
    size_t body = (bytes + HUGE - 1) / HUGE * HUGE;
    size_t asked = (size_t)page + body + HUGE;
    uint8_t *base = mmap(NULL, asked, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    uintptr_t aligned = ((uintptr_t)base + (size_t)page + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    uint8_t *pixels = (uint8_t *)aligned, *front = pixels - page, *end = pixels + body;
    /* Give back what lies before the record's page and after the pixels. */
    if (front > base) munmap(base, (size_t)(front - base));
    if (base + asked > end) munmap(end, (size_t)(base + asked - end));
    madvise(pixels, body, MADV_HUGEPAGE);
    struct mapping *m = (struct mapping *)(pixels - sizeof(struct mapping));
    m->start = front;
    m->length = (size_t)page + body;
    cairo_surface_t *surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS
        || cairo_surface_set_user_data(surface, &key, pixels, release) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(surface);
        munmap(front, (size_t)page + body);
        return NULL;
    }
    return surface;
#else
    (void)width;
    (void)height;
    return NULL;
#endif
}
