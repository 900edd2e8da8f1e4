#ifndef SEATMAP_FONT_ANSWERS_H
#define SEATMAP_FONT_ANSWERS_H
/* Fontconfig's answers to Pango, worked out once a process (see
   font_answers.c). */
#include <fontconfig/fontconfig.h>

/* How many matches and sorts were worked out by fontconfig (`computed`)
   and how many were answered from what an earlier call worked out
   (`reused`), since the process began. Either pointer may be NULL. */
void seatmap_font_answers_counts(long *computed, long *reused);

/* How many kept answers are to questions at this pixel size, and how many
   calls they answered after the first (tests: a size no other test uses). */
void seatmap_font_answers_for_size(double pixelsize, int *kept, long *hits);

/* How many answers are kept at most (the oldest not in use is dropped for
   a new one past that). */
int seatmap_font_answers_capacity(void);

/* fontconfig's own FcFontSetSort and FcFontSetMatch, never answered from
   the kept ones (tests compare the two). */
FcFontSet *seatmap_font_answers_sort_uncached(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern,
                                              FcBool trim, FcCharSet **csp, FcResult *result);
FcPattern *seatmap_font_answers_match_uncached(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern,
                                               FcResult *result);
#endif
