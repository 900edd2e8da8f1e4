#ifndef SEATMAP_CCAIRO_SHIM_H
#define SEATMAP_CCAIRO_SHIM_H
/* Cairo, fontconfig and Pango (pangocairo) in one module: Pango's headers
   include Cairo's, and one module keeps their types one set of types. */
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>

/* Macros Swift does not import. */
static inline int seatmap_pango_scale(void) { return PANGO_SCALE; }
static inline unsigned int seatmap_pango_unknown_flag(void) { return PANGO_GLYPH_UNKNOWN_FLAG; }
static inline unsigned int seatmap_pango_glyph_empty(void) { return PANGO_GLYPH_EMPTY; }
#endif
