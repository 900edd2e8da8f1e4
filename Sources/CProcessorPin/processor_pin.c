#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include "processor_pin.h"

_Static_assert(sizeof(seatmap_cpu_mask) == sizeof(cpu_set_t), "seatmap_cpu_mask is cpu_set_t's size");

int seatmap_thread_pin(int n, seatmap_cpu_mask *previous) {
    cpu_set_t mine, one;
    if (n < 0 || pthread_getaffinity_np(pthread_self(), sizeof mine, &mine) != 0) return -1;
    for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &mine) || seen++ != n) continue;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) return -1;
        memcpy(previous, &mine, sizeof mine);
        return 0;
    }
    return -1;
}

void seatmap_thread_unpin(const seatmap_cpu_mask *previous) {
    cpu_set_t mask;
    memcpy(&mask, previous, sizeof mask);
    /* No set written (the pin failed): nothing to give back. */
    if (CPU_COUNT(&mask) == 0) return;
    pthread_setaffinity_np(pthread_self(), sizeof mask, &mask);
}

int seatmap_thread_cpus(int *first) {
    cpu_set_t mine;
    *first = -1;
    if (pthread_getaffinity_np(pthread_self(), sizeof mine, &mine) != 0) return 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &mine)) { *first = cpu; break; }
    }
    return CPU_COUNT(&mine);
}
