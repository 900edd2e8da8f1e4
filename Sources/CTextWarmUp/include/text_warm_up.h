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

/* A thread's processor set, as the kernel keeps it (cpu_set_t's size). */
typedef struct { unsigned long bits[16]; } seatmap_cpu_mask;

/* Keeps the calling thread on the `n`-th processor (from 0) of those it may
   run on, and every thread it starts from now on (they inherit it), such
   as Pango's font-matching threads: while the caller waits for one, it
   runs on the processor the wait leaves idle. Writes the set the thread
   had to `previous`. Returns 0, or -1 (nothing changed) when there is no
   such processor or the kernel refuses. */
int seatmap_thread_pin(int n, seatmap_cpu_mask *previous);

/* Gives the calling thread back the set seatmap_thread_pin wrote (nothing
   when it wrote none: an empty set). */
void seatmap_thread_unpin(const seatmap_cpu_mask *previous);

/* How many processors the calling thread may run on, and the first of
   them in `first` (-1 when the kernel does not say). */
int seatmap_thread_cpus(int *first);
#endif
