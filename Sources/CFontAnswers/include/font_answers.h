#ifndef SEATMAP_FONT_ANSWERS_H
#define SEATMAP_FONT_ANSWERS_H
/* Fontconfig's answers to Pango, shared by every thread's font map (see
   font_answers.c). */
#include <fontconfig/fontconfig.h>

/* How many kept answers are to questions at this pixel size, and how many
   calls they answered after the first (tests: a size no other test uses). */
void seatmap_font_answers_for_size(double pixelsize, int *kept, long *hits);

/* How many answers are kept at most (the least recently used not in use is dropped for
   a new one past that). */
int seatmap_font_answers_capacity(void);

/* fontconfig's own FcFontSetSort and FcFontSetMatch, never answered from
   the kept ones (tests compare the two). */
FcFontSet *seatmap_font_answers_sort_uncached(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern,
                                              FcBool trim, FcCharSet **csp, FcResult *result);
FcPattern *seatmap_font_answers_match_uncached(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern,
                                               FcResult *result);
#endif
