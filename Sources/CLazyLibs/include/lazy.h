#ifndef SEATMAP_LAZY_H
#define SEATMAP_LAZY_H
/* Opening a shared library at its first use, once per process. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* What one library needs: its soname, the outcome, and the message when
   it could not be opened (the loader's own words). */
struct seatmap_lazy {
    const char *soname;
    void *handle;
    int ready;
    char error[512];
};

/* Opens the library (RTLD_LOCAL: its symbols stay out of the process's
   global scope) and reports whether it is there. */
static inline void *seatmap_lazy_open(struct seatmap_lazy *lib) {
    lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib->handle) {
        const char *why = dlerror();
        snprintf(lib->error, sizeof lib->error, "%s", why ? why : "cannot be opened");
    }
    return lib->handle;
}

/* One symbol, or NULL with the message set. */
static inline void *seatmap_lazy_symbol(struct seatmap_lazy *lib, const char *name) {
    void *symbol = dlsym(lib->handle, name);
    if (!symbol) snprintf(lib->error, sizeof lib->error, "%s has no %s", lib->soname, name);
    return symbol;
}
#endif
