#ifndef SEATMAP_TEXT_WARM_UP_H
#define SEATMAP_TEXT_WARM_UP_H
/* Fontconfig's configuration and Pango's font map types, loaded on a thread
   of their own (see SeatMapRender's TextWarmUp). */

/* Starts the warm-up once a process (later calls do nothing). */
void seatmap_text_warm_up_begin(void);

/* 1 when a warm-up began (the process is a render), else 0. */
int seatmap_text_warm_up_began(void);

/* Waits for the warm-up, at most `seconds` (without limit when negative,
   not a number or beyond a year). Returns at once when none began. */
void seatmap_text_warm_up_wait(double seconds);

#endif
