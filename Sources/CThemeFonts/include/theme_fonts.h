#ifndef SEATMAP_THEME_FONTS_H
#define SEATMAP_THEME_FONTS_H

/* A Pango font map (a PangoFontMap *) that offers only the faces of a
   theme's font families, for the calling thread.

   Pango's default font map asks fontconfig to sort every installed font
   for each new size of text, and starts two threads to do it; with a few
   hundred fonts installed that is milliseconds a size. This map's
   fontconfig configuration holds only the faces whose family is one of
   `families` (taken from the system configuration's own font list: no
   font file is read), so the same sort is over a dozen faces.

   It draws what the default map draws for any text its faces cover: the
   families must each be installed under that name; the system
   configuration must keep them first, in order, when it substitutes a
   request for them in `language`; and what it edits into a face that a
   drawing reads (antialiasing, emboldening, a matrix, variations,
   features, vertical layout, size) must be what this map's faces get.
   Otherwise, or when fontconfig cannot be read, it returns NULL and the
   caller uses the default map. Text with a character none of the faces
   has must be shaped on the default map (its own fallback fonts).

   The map belongs to the calling thread (Pango font maps are not shared
   between threads) and is released when the thread ends; the caller takes
   no reference. */
void *seatmap_theme_font_map(const char *const *families, int count, const char *language);

#endif
