/* Text sprites (see text_sprite.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "text_sprite.h"
#include "image_memory.h"

enum { MADE = 1, REFUSED = 0, FAILED = -1 };

/* An A8 or ARGB32 scratch surface with a context drawing in opaque black. */
typedef struct {
    cairo_surface_t *surface;
    cairo_t *cr;
} scratch;

/* `cleared`: its memory written before Cairo first reads it (see
   image_memory.h); otherwise the caller clears it before each use. */
static int scratch_open(scratch *s, cairo_format_t format, int width, int height, int cleared) {
    s->surface = cleared ? seatmap_cleared_image_surface_create(format, width, height) : cairo_image_surface_create(format, width, height);
    s->cr = cairo_create(s->surface);
    if (cairo_status(s->cr) != CAIRO_STATUS_SUCCESS) return 0;
    cairo_set_source_rgba(s->cr, 0, 0, 0, 1);
    return 1;
}

static void scratch_close(scratch *s) {
    if (s->cr) cairo_destroy(s->cr);
    if (s->surface) cairo_surface_destroy(s->surface);
}

/* Draws each glyph of the layout alone (as pangocairo's renderer places
   them) and adds its coverage to `sum`; REFUSED when a pixel is covered
   twice or a glyph cannot be drawn alone. */
static int add_glyphs(PangoLayout *layout, double ox, double oy, scratch *alone, uint8_t *sum, int width, int height) {
    uint8_t *pixels = cairo_image_surface_get_data(alone->surface);
    int stride = cairo_image_surface_get_stride(alone->surface);
    if (!pixels) return FAILED;
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    if (!iter) return FAILED;
    int result = MADE;
    do {
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(iter);
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(iter, NULL, &logical);
        int baseline = pango_layout_iter_get_baseline(iter);
        int x_off = 0;
        for (GSList *l = line ? line->runs : NULL; l && result == MADE; l = l->next) {
            PangoGlyphItem *run = l->data;
            if (run->y_offset != 0 || run->start_x_offset != 0 || run->end_x_offset != 0) { result = REFUSED; break; }
            cairo_scaled_font_t *font = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(run->item->analysis.font));
            if (!font || cairo_scaled_font_status(font) != CAIRO_STATUS_SUCCESS) { result = REFUSED; break; }
            /* As the renderer does: the run's start from the current point,
               then each glyph from the run's start. */
            double base_x = ox + (double)(logical.x + x_off) / PANGO_SCALE;
            double base_y = oy + (double)baseline / PANGO_SCALE;
            int x_position = 0;
            PangoGlyphString *glyphs = run->glyphs;
            for (int i = 0; i < glyphs->num_glyphs && result == MADE; i++) {
                PangoGlyphInfo *g = &glyphs->glyphs[i];
                if (g->glyph != PANGO_GLYPH_EMPTY) {
                    if (g->glyph & PANGO_GLYPH_UNKNOWN_FLAG) { result = REFUSED; break; }
                    cairo_glyph_t one;
                    one.index = g->glyph;
                    one.x = base_x + (double)(x_position + g->geometry.x_offset) / PANGO_SCALE;
                    one.y = g->geometry.y_offset == 0 ? base_y : base_y + (double)g->geometry.y_offset / PANGO_SCALE;
                    cairo_surface_flush(alone->surface);
                    memset(pixels, 0, (size_t)stride * (size_t)height);
                    cairo_surface_mark_dirty(alone->surface);
                    cairo_set_scaled_font(alone->cr, font);
                    cairo_show_glyphs(alone->cr, &one, 1);
                    cairo_surface_flush(alone->surface);
                    if (cairo_status(alone->cr) != CAIRO_STATUS_SUCCESS) { result = FAILED; break; }
                    for (int y = 0; y < height && result == MADE; y++) {
                        const uint8_t *row = pixels + (size_t)y * (size_t)stride;
                        uint8_t *to = sum + (size_t)y * (size_t)width;
                        for (int x = 0; x < width; x++) {
                            if (!row[x]) continue;
                            if (to[x]) { result = REFUSED; break; }
                            to[x] = row[x];
                        }
                    }
                }
                x_position += g->geometry.width;
            }
            x_off += pango_glyph_string_get_width(glyphs);
        }
    } while (result == MADE && pango_layout_iter_next_line(iter));
    pango_layout_iter_free(iter);
    return result;
}

/* The glyphs of a layout (a line's runs, every line). */
static int glyph_count(PangoLayout *layout) {
    int n = 0;
    for (GSList *lines = pango_layout_get_lines_readonly(layout); lines; lines = lines->next) {
        PangoLayoutLine *line = lines->data;
        for (GSList *l = line ? line->runs : NULL; l; l = l->next) {
            PangoGlyphItem *run = l->data;
            if (run && run->glyphs) n += run->glyphs->num_glyphs;
        }
    }
    return n;
}

int seatmap_text_sprite_make(PangoLayout *layout, int fx, int fy, int max_side, seatmap_text_sprite *out) {
    memset(out, 0, sizeof *out);
    if (!layout || fx < 0 || fx > 255 || fy < 0 || fy > 255 || max_side <= 0) return REFUSED;
    PangoRectangle ink;
    pango_layout_get_extents(layout, &ink, NULL);
    double ox = fx / 256.0, oy = fy / 256.0;
    /* The ink's box, and room round it: a glyph's image may reach a
       little past its ink extents. */
    double ink_x = ink.x / (double)PANGO_SCALE, ink_y = ink.y / (double)PANGO_SCALE;
    double ink_w = ink.width / (double)PANGO_SCALE, ink_h = ink.height / (double)PANGO_SCALE;
    if (!isfinite(ink_x) || !isfinite(ink_y) || ink_w < 0 || ink_h < 0 || ink_w > max_side || ink_h > max_side) return REFUSED;
    int pad = 4 + (int)ceil((ink_w > ink_h ? ink_w : ink_h) / 4);
    int x0 = (int)floor(ox + ink_x) - pad, y0 = (int)floor(oy + ink_y) - pad;
    int width = (int)ceil(ox + ink_x + ink_w) + pad - x0, height = (int)ceil(oy + ink_y + ink_h) + pad - y0;
    if (width > max_side || height > max_side) return REFUSED;
    /* The origin on the scratch surfaces: the same fraction of a pixel. */
    double sx = ox - x0, sy = oy - y0;

    int result = FAILED;
    scratch whole = {0}, alone = {0};
    uint8_t *sum = calloc((size_t)width * (size_t)height, 1);
    if (!sum) goto done;
    if (!scratch_open(&whole, CAIRO_FORMAT_ARGB32, width, height, 1)) goto done;
    /* Cairo's own drawing of the whole layout there. */
    cairo_move_to(whole.cr, sx, sy);
    pango_cairo_show_layout(whole.cr, layout);
    cairo_surface_flush(whole.surface);
    if (cairo_status(whole.cr) != CAIRO_STATUS_SUCCESS) goto done;
    const uint8_t *drawn = cairo_image_surface_get_data(whole.surface);
    int stride = cairo_image_surface_get_stride(whole.surface);
    if (!drawn) goto done;
    if (glyph_count(layout) <= 1) {
        /* One glyph: nothing to share a pixel with; its coverage is the
           drawing's (which the colour check below still reads). */
        for (int y = 0; y < height; y++) {
            const uint32_t *row = (const uint32_t *)(drawn + (size_t)y * (size_t)stride);
            for (int x = 0; x < width; x++) sum[(size_t)y * (size_t)width + x] = (uint8_t)(row[x] >> 24);
        }
        result = MADE;
    } else {
        /* Cleared before each glyph (add_glyphs): Cairo never reads unwritten memory. */
        result = scratch_open(&alone, CAIRO_FORMAT_A8, width, height, 0) ? add_glyphs(layout, sx, sy, &alone, sum, width, height) : FAILED;
    }
    if (result != MADE) goto done;
    int left = width, right = -1, top = height, bottom = -1;
    for (int y = 0; y < height && result == MADE; y++) {
        const uint32_t *row = (const uint32_t *)(drawn + (size_t)y * (size_t)stride);
        const uint8_t *mine = sum + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            uint32_t pixel = row[x];
            uint8_t alpha = (uint8_t)(pixel >> 24);
            /* Black has no colour: anything else is a colour glyph. */
            if ((pixel & 0x00ffffffu) != 0 || alpha != mine[x]) { result = REFUSED; break; }
            if (!alpha) continue;
            if (x == 0 || y == 0 || x == width - 1 || y == height - 1) { result = REFUSED; break; }
            if (x < left) left = x;
            if (x > right) right = x;
            if (y < top) top = y;
            if (y > bottom) bottom = y;
        }
    }
    if (result != MADE) goto done;
    /* Drawn again in white: a glyph of colour pixels ignores the colour
       it is drawn in (even one whose pixels are all black), a glyph of
       coverage alone comes out white wherever it covers. */
    cairo_save(whole.cr);
    cairo_set_operator(whole.cr, CAIRO_OPERATOR_CLEAR);
    cairo_paint(whole.cr);
    cairo_restore(whole.cr);
    cairo_set_source_rgba(whole.cr, 1, 1, 1, 1);
    cairo_move_to(whole.cr, sx, sy);
    pango_cairo_show_layout(whole.cr, layout);
    cairo_surface_flush(whole.surface);
    if (cairo_status(whole.cr) != CAIRO_STATUS_SUCCESS) { result = FAILED; goto done; }
    for (int y = 0; y < height && result == MADE; y++) {
        const uint32_t *row = (const uint32_t *)(drawn + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++) {
            uint32_t pixel = row[x], alpha = pixel >> 24;
            if (pixel != (alpha << 24 | alpha << 16 | alpha << 8 | alpha) || alpha != sum[(size_t)y * (size_t)width + x]) { result = REFUSED; break; }
        }
    }
    if (result != MADE) goto done;
    if (right < 0) {
        out->x = out->y = 0;
        goto done;  /* nothing inked: an empty sprite */
    }
    out->width = right - left + 1;
    out->height = bottom - top + 1;
    out->x = x0 + left;
    out->y = y0 + top;
    out->coverage = malloc((size_t)out->width * (size_t)out->height);
    if (!out->coverage) { memset(out, 0, sizeof *out); result = FAILED; goto done; }
    for (int y = 0; y < out->height; y++)
        memcpy(out->coverage + (size_t)y * (size_t)out->width, sum + (size_t)(top + y) * (size_t)width + left, (size_t)out->width);
done:
    scratch_close(&whole);
    scratch_close(&alone);
    free(sum);
    return result;
}

void seatmap_text_sprite_free(seatmap_text_sprite *sprite) {
    if (!sprite) return;
    free(sprite->coverage);
    sprite->coverage = NULL;
    sprite->width = sprite->height = 0;
}
