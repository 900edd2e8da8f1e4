#include "cairo_reference.h"
#include <cairo.h>
#include <math.h>

static void set_rgb(cairo_t *cr, unsigned c) {
    cairo_set_source_rgb(cr, ((c >> 16) & 0xFF) / 255.0, ((c >> 8) & 0xFF) / 255.0, (c & 0xFF) / 255.0);
}

int seatmap_reference_render(int width, int height, unsigned background, const int *rects, const unsigned *colours, int n,
                             double radius, const char *path) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(surface);
    set_rgb(cr, background);
    cairo_paint(cr);
    for (int i = 0; i < n; i++) {
        double x = rects[4 * i], y = rects[4 * i + 1], w = rects[4 * i + 2], h = rects[4 * i + 3];
        double r = radius < w / 2 ? radius : w / 2;
        if (r > h / 2) r = h / 2;
        cairo_new_sub_path(cr);
        cairo_arc(cr, x + w - r, y + r, r, -M_PI / 2, 0);
        cairo_arc(cr, x + w - r, y + h - r, r, 0, M_PI / 2);
        cairo_arc(cr, x + r, y + h - r, r, M_PI / 2, M_PI);
        cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
        cairo_close_path(cr);
        set_rgb(cr, colours[i]);
        cairo_fill(cr);
    }
    int status = cairo_status(cr) == CAIRO_STATUS_SUCCESS ? 0 : -1;
    cairo_destroy(cr);
    if (status == 0 && cairo_surface_write_to_png(surface, path) != CAIRO_STATUS_SUCCESS) status = -1;
    cairo_surface_destroy(surface);
    return status;
}
