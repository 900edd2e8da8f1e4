/* The text warm-up: fontconfig's configuration (its files parsed, its font
   caches read) and Pango's font map types loaded on a thread of their own.
   Started by seatmap_text_warm_up_begin alone, which the seatmap command
   calls first thing for a render (no constructor: a program linking the
   library starts nothing it did not ask for). Nothing is drawn and nothing a render reads is
   changed: the font map made here is dropped. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <time.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include "text_warm_up.h"

enum { NOT_STARTED, RUNNING, DONE };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t finished = PTHREAD_COND_INITIALIZER;
static int state = NOT_STARTED;

/* The processors the process may run on, given back to the warm-up
   thread once it runs. */
static cpu_set_t allowed;

static void *warm_up(void *placed) {
    if (placed) pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
    FcInit();
    PangoFontMap *map = pango_cairo_font_map_new();
    if (map) g_object_unref(map);
    pthread_mutex_lock(&lock);
    state = DONE;
    pthread_cond_broadcast(&finished);
    pthread_mutex_unlock(&lock);
    return NULL;
}

void seatmap_text_warm_up_begin(void) {
    pthread_mutex_lock(&lock);
    if (state == NOT_STARTED) {
        pthread_attr_t attributes;
        pthread_t thread;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        /* Started on another processor than the caller's: a new thread is
           otherwise often queued behind its creator for a time slice
           (measured: 2-4 ms of a 40 ms render) while the other processor
           idles. It may run anywhere again once it runs. */
        int here = sched_getcpu();
        int placed = 0;
        if (here >= 0 && sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_ISSET(here, &allowed) && CPU_COUNT(&allowed) > 1) {
            cpu_set_t others = allowed;
            CPU_CLR(here, &others);
            placed = pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0;
        }
        /* Without a thread there is nothing to wait for: the first text
           then loads fontconfig itself. */
        state = pthread_create(&thread, &attributes, warm_up, placed ? &allowed : NULL) == 0 ? RUNNING : DONE;
        pthread_attr_destroy(&attributes);
    }
    pthread_mutex_unlock(&lock);
}

int seatmap_text_warm_up_began(void) {
    pthread_mutex_lock(&lock);
    int began = state != NOT_STARTED;
    pthread_mutex_unlock(&lock);
    return began;
}

void seatmap_text_warm_up_wait(double seconds) {
    pthread_mutex_lock(&lock);
    /* Negative, not a number or beyond a year: no limit. */
    if (!(seconds >= 0 && seconds < 3.2e7)) {
        while (state == RUNNING) pthread_cond_wait(&finished, &lock);
    } else {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        long whole = (long)seconds;
        deadline.tv_sec += (time_t)whole;
        deadline.tv_nsec += (long)((seconds - (double)whole) * 1e9);
        if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec += 1; deadline.tv_nsec -= 1000000000L; }
        /* Woken early (or spuriously): wait again for what is left; any
           other answer (the deadline passed, an error) ends the wait. */
        while (state == RUNNING && pthread_cond_timedwait(&finished, &lock, &deadline) == 0) {}
    }
    pthread_mutex_unlock(&lock);
}
