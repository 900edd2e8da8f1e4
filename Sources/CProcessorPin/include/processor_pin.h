#ifndef SEATMAP_PROCESSOR_PIN_H
#define SEATMAP_PROCESSOR_PIN_H
/* The seatmap command's processor pins (`render --out-dir`): the kernel's
   affinity calls, whose cpu_set_t macros Swift cannot call. Not part of
   any library product. */

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
