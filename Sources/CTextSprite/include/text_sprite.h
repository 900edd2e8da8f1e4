#ifndef SEATMAP_TEXT_SPRITE_H
#define SEATMAP_TEXT_SPRITE_H
#include <stdint.h>
#include <pango/pangocairo.h>

/* A text's coverage as Cairo composites it onto an image: 8 bits a pixel,
   `width` × `height` (row after row, no padding), its top-left corner at
   (`x`, `y`) from the whole device pixel the text's origin lies in. An
   empty sprite (0 × 0) draws nothing. */
typedef struct {
    uint8_t *coverage;
    int width, height;
    int x, y;
} seatmap_text_sprite;

/* Works out the coverage of `layout` drawn by pango_cairo_show_layout with
   its origin at (fx / 256, fy / 256) px into a device pixel (0 <= fx, fy
   < 256: Cairo keeps a current point in 1/256 px), on a surface with no
   scale and a whole-pixel translation, in an opaque colour.

   Cairo composites a text's glyphs one after another, each through its
   own coverage at a whole pixel (or, when their boxes overlap, through
   their coverages added up): where no pixel is covered by two glyphs,
   both come to compositing the sum of the coverages once. So each glyph is
   drawn alone, where Pango's renderer places it, and the sprite is
   their sum, made only when
   - no pixel is covered by two glyphs,
   - every glyph has a coverage (no colour glyph: the text drawn in black
     has no colour in it, and drawn in white it is white wherever it
     covers, which a colour glyph of black pixels is not),
   - the sum is, byte for byte, Cairo's own drawing of the whole layout
     there (which checks the glyphs' places), and that drawing has a clear
     pixel all round (nothing lies beyond the surface it was drawn on),
   - and the surface's side is at most `max_side` px.
   Returns 1 with `out` filled (free it with seatmap_text_sprite_free),
   0 when any of that fails (Cairo must draw the text), -1 when memory or
   Cairo failed. */
int seatmap_text_sprite_make(PangoLayout *layout, int fx, int fy, int max_side, seatmap_text_sprite *out);

void seatmap_text_sprite_free(seatmap_text_sprite *sprite);

#endif
