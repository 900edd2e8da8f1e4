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

/* Opens the library once per process, `open` finding its symbols; NULL
   once it is open, else why it cannot be. */
static inline const char *seatmap_lazy_load(struct seatmap_lazy *lib, pthread_once_t *once, void (*open)(void)) {
    pthread_once(once, open);
    return lib->ready ? NULL : lib->error;
}

/* Each library's file lists its functions as X(ret, name, params, args,
   fallback) and its procedures as X(name, params, args), names its struct
   seatmap_lazy `lazy_lib` and its loading call `lazy_load`, and expands
   these: a pointer for each, found when the library opens, and the
   function itself, which opens the library first and answers `fallback`
   without it (a failure: NULL, CONNECTION_BAD, never jumping to nowhere).
   The functions are hidden: SeatMap's calls reach them, while the library's
   own calls to its functions stay inside the library. */
#define SEATMAP_LAZY_HIDDEN __attribute__((visibility("hidden")))
#define SEATMAP_LAZY_POINTER(ret, name, params, args, fallback) static ret (*p_##name) params;
#define SEATMAP_LAZY_PROCEDURE_POINTER(name, params, args) static void (*p_##name) params;
#define SEATMAP_LAZY_FIND(ret, name, params, args, fallback) \
    if (!(p_##name = (ret (*) params)seatmap_lazy_symbol(&lazy_lib, #name))) return;
#define SEATMAP_LAZY_FIND_PROCEDURE(name, params, args) \
    if (!(p_##name = (void (*) params)seatmap_lazy_symbol(&lazy_lib, #name))) return;
/* `open_library` for a library whose functions and procedures are all in
   its two lists: opens it and finds each. */
#define SEATMAP_LAZY_OPENER(FUNCTIONS, PROCEDURES) \
    static void open_library(void) { \
        if (!seatmap_lazy_open(&lazy_lib)) return; \
        FUNCTIONS(SEATMAP_LAZY_FIND) \
        PROCEDURES(SEATMAP_LAZY_FIND_PROCEDURE) \
        lazy_lib.ready = 1; \
    }
#define SEATMAP_LAZY_FORWARD(ret, name, params, args, fallback) \
    SEATMAP_LAZY_HIDDEN ret name params { return lazy_load() ? (fallback) : p_##name args; }
#define SEATMAP_LAZY_FORWARD_PROCEDURE(name, params, args) \
    SEATMAP_LAZY_HIDDEN void name params { if (!lazy_load()) p_##name args; }
#endif
