/* Fontconfig's answers to Pango, worked out once a process.

   Pango keeps a font map per thread, and each map asks fontconfig again for
   every text size and language it meets: a match (the first font) and a
   sort (the fallbacks), each on a thread of its own. Two threads drawing
   the same sizes (a batch's two workers, a large image's two drawing
   threads, the server's requests) so work out the same answers twice.

   This file defines FcFontSetMatch and FcFontSetSort in the process, so
   Pango's calls come here (the executable's symbols come first in the
   dynamic linker's search). Each answer is worked out once by fontconfig's
   own function and handed out as a copy to every later call with the same
   question: the same configuration, the same fonts to choose among (the
   same pattern objects, in the same order) and an equal pattern. A call
   that finds its question being worked out by another thread waits for
   that answer instead of working it out again. Fontconfig's answers depend
   on nothing else, so every answer is the one fontconfig would give: the
   same fonts, the same pixels.

   Kept answers hold a reference to their configuration and to every font
   they were chosen among, so no later object can take one of their
   addresses. At most `capacity` answers are kept (a few megabytes): past
   that, the oldest not in use is dropped for a new one. Calls this file
   does not keep (several font sets, a coverage asked for, no
   configuration) go straight to fontconfig. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "font_answers.h"

typedef FcFontSet *(*sort_function)(FcConfig *, FcFontSet **, int, FcPattern *, FcBool, FcCharSet **, FcResult *);
typedef FcPattern *(*match_function)(FcConfig *, FcFontSet **, int, FcPattern *, FcResult *);

static sort_function fontconfig_sort;
static match_function fontconfig_match;
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void find_fontconfig(void) {
    /* The next definitions after this file's own: libfontconfig's. */
    sort_function sort = (sort_function)dlsym(RTLD_NEXT, "FcFontSetSort");
    match_function match = (match_function)dlsym(RTLD_NEXT, "FcFontSetMatch");
    fontconfig_sort = sort == FcFontSetSort ? NULL : sort;
    fontconfig_match = match == FcFontSetMatch ? NULL : match;
}

FcFontSet *seatmap_font_answers_sort_uncached(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern,
                                              FcBool trim, FcCharSet **csp, FcResult *result) {
    pthread_once(&found, find_fontconfig);
    if (fontconfig_sort) return fontconfig_sort(config, sets, nsets, pattern, trim, csp, result);
    if (result) *result = FcResultNoMatch;
    return NULL;
}

FcPattern *seatmap_font_answers_match_uncached(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern,
                                               FcResult *result) {
    pthread_once(&found, find_fontconfig);
    if (fontconfig_match) return fontconfig_match(config, sets, nsets, pattern, result);
    if (result) *result = FcResultNoMatch;
    return NULL;
}

enum { buckets = 1024, capacity = 2048, most_choices = 8 };

/* The fonts a question chooses among: a configuration's fonts as Pango
   filters them, the same for every font map of that configuration. Kept
   once each (at most `most_choices`), never dropped. */
struct choice {
    struct choice *next;
    FcConfig *config;     /* referenced */
    int nfont;
    FcPattern **fonts;    /* each referenced */
};

struct answer {
    struct answer *next;                 /* in its bucket */
    struct answer *older, *newer;        /* in the order kept */
    FcChar32 hash;
    int sorting;          /* FcFontSetSort's answer, else FcFontSetMatch's */
    FcBool trim;
    const struct choice *choice;
    FcPattern *pattern;   /* a copy of the question's pattern */
    int ready;            /* 0 while the first caller works it out */
    int users;            /* callers between finding it and copying it */
    long hits;            /* calls answered with it after the first */
    FcResult result;
    FcPattern *match;
    FcFontSet *sorted;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t answered = PTHREAD_COND_INITIALIZER;
static struct answer *table[buckets];
static struct answer *oldest, *newest;
static struct choice *choices;
static int kept, choices_kept;
static long computed, reused;

void seatmap_font_answers_counts(long *computed_out, long *reused_out) {
    pthread_mutex_lock(&lock);
    if (computed_out) *computed_out = computed;
    if (reused_out) *reused_out = reused;
    pthread_mutex_unlock(&lock);
}

void seatmap_font_answers_for_size(double pixelsize, int *kept_out, long *hits_out) {
    int n = 0;
    long h = 0;
    pthread_mutex_lock(&lock);
    for (const struct answer *a = oldest; a; a = a->newer) {
        double size = 0;
        if (FcPatternGetDouble(a->pattern, FC_PIXEL_SIZE, 0, &size) != FcResultMatch || size != pixelsize) continue;
        n++;
        h += a->hits;
    }
    pthread_mutex_unlock(&lock);
    if (kept_out) *kept_out = n;
    if (hits_out) *hits_out = h;
}

int seatmap_font_answers_capacity(void) { return capacity; }

/* The kept list of these fonts, kept now if new; NULL when there are
   already `most_choices` or memory runs out. Called with the lock held. */
static const struct choice *choice_for(FcConfig *config, const FcFontSet *set) {
    for (const struct choice *c = choices; c; c = c->next) {
        if (c->config == config && c->nfont == set->nfont &&
            memcmp(c->fonts, set->fonts, sizeof(FcPattern *) * (size_t)set->nfont) == 0)
            return c;
    }
    if (choices_kept >= most_choices) return NULL;
    struct choice *c = calloc(1, sizeof *c);
    FcPattern **fonts = set->nfont > 0 ? malloc(sizeof(FcPattern *) * (size_t)set->nfont) : NULL;
    if (!c || (set->nfont > 0 && !fonts)) {
        free(c);
        free(fonts);
        return NULL;
    }
    for (int i = 0; i < set->nfont; i++) {
        fonts[i] = set->fonts[i];
        FcPatternReference(fonts[i]);
    }
    FcConfigReference(config);
    *c = (struct choice){.next = choices, .config = config, .nfont = set->nfont, .fonts = fonts};
    choices = c;
    choices_kept++;
    return c;
}

static FcChar32 question_hash(int sorting, FcBool trim, const struct choice *choice, FcPattern *pattern) {
    FcChar32 h = FcPatternHash(pattern);
    h = h * 31u + (FcChar32)sorting * 2u + (FcChar32)(trim != 0);
    return h * 31u + (FcChar32)((size_t)choice >> 4);
}

/* Drops the oldest answers no caller is using until there is room for one
   more; 0 when all are in use. Called with the lock held. */
static int make_room(void) {
    for (struct answer *a = oldest; a && kept >= capacity;) {
        struct answer *next = a->newer;
        if (a->ready && a->users == 0) {
            struct answer **link = &table[a->hash % buckets];
            while (*link != a) link = &(*link)->next;
            *link = a->next;
            if (a->older) a->older->newer = a->newer; else oldest = a->newer;
            if (a->newer) a->newer->older = a->older; else newest = a->older;
            FcPatternDestroy(a->pattern);
            if (a->match) FcPatternDestroy(a->match);
            if (a->sorted) FcFontSetDestroy(a->sorted);
            free(a);
            kept--;
        }
        a = next;
    }
    return kept < capacity;
}

/* The kept answer to a question, waited for when another thread is working
   it out; or a new entry the caller must fill (`*mine` set); or NULL when
   the question cannot be kept. Either way the caller holds the entry until
   it calls `done`. Called with the lock held. */
static struct answer *find_or_claim(int sorting, FcBool trim, FcConfig *config, FcFontSet *set, FcPattern *pattern,
                                    int *mine) {
    const struct choice *choice = choice_for(config, set);
    if (!choice) return NULL;
    FcChar32 hash = question_hash(sorting, trim, choice, pattern);
    struct answer **slot = &table[hash % buckets];
    for (struct answer *a = *slot; a; a = a->next) {
        if (a->hash != hash || a->sorting != sorting || (a->trim != 0) != (trim != 0) || a->choice != choice ||
            !FcPatternEqual(a->pattern, pattern))
            continue;
        a->users++;
        while (!a->ready) pthread_cond_wait(&answered, &lock);
        a->hits++;
        reused++;
        *mine = 0;
        return a;
    }
    if (!make_room()) return NULL;
    struct answer *a = calloc(1, sizeof *a);
    FcPattern *copy = FcPatternDuplicate(pattern);
    if (!a || !copy) {
        free(a);
        if (copy) FcPatternDestroy(copy);
        return NULL;
    }
    *a = (struct answer){.next = *slot, .older = newest, .hash = hash, .sorting = sorting, .trim = trim,
                         .choice = choice, .pattern = copy, .users = 1};
    *slot = a;
    if (newest) newest->newer = a; else oldest = a;
    newest = a;
    kept++;
    *mine = 1;
    return a;
}

static void publish(struct answer *a, FcResult result, FcPattern *match, FcFontSet *sorted) {
    pthread_mutex_lock(&lock);
    a->result = result;
    a->match = match;
    a->sorted = sorted;
    a->ready = 1;
    computed++;
    pthread_cond_broadcast(&answered);
    pthread_mutex_unlock(&lock);
}

static void done(struct answer *a) {
    pthread_mutex_lock(&lock);
    a->users--;
    pthread_mutex_unlock(&lock);
}

/* A copy of a kept sort (the caller destroys it, as fontconfig's own):
   the same patterns, each referenced once more. NULL when memory runs out. */
static FcFontSet *copy_of(const FcFontSet *sorted) {
    FcFontSet *copy = FcFontSetCreate();
    if (!copy) return NULL;
    for (int i = 0; i < sorted->nfont; i++) {
        FcPatternReference(sorted->fonts[i]);
        if (!FcFontSetAdd(copy, sorted->fonts[i])) {
            FcPatternDestroy(sorted->fonts[i]);
            FcFontSetDestroy(copy);
            return NULL;
        }
    }
    return copy;
}

FcFontSet *FcFontSetSort(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern, FcBool trim,
                         FcCharSet **csp, FcResult *result) {
    if (!config || !sets || nsets != 1 || !sets[0] || !pattern || csp)
        return seatmap_font_answers_sort_uncached(config, sets, nsets, pattern, trim, csp, result);
    int mine = 0;
    pthread_mutex_lock(&lock);
    struct answer *a = find_or_claim(1, trim, config, sets[0], pattern, &mine);
    pthread_mutex_unlock(&lock);
    if (!a) return seatmap_font_answers_sort_uncached(config, sets, nsets, pattern, trim, csp, result);
    if (mine) {
        FcResult r = FcResultNoMatch;
        FcFontSet *sorted = seatmap_font_answers_sort_uncached(config, sets, nsets, pattern, trim, NULL, &r);
        publish(a, r, NULL, sorted);
    }
    /* Kept: the answer itself; every caller gets a copy. */
    FcResult r = a->result;
    FcFontSet *out = a->sorted ? copy_of(a->sorted) : NULL;
    int lost = a->sorted && !out;
    done(a);
    if (lost) return seatmap_font_answers_sort_uncached(config, sets, nsets, pattern, trim, csp, result);
    if (result) *result = r;
    return out;
}

FcPattern *FcFontSetMatch(FcConfig *config, FcFontSet **sets, int nsets, FcPattern *pattern, FcResult *result) {
    if (!config || !sets || nsets != 1 || !sets[0] || !pattern)
        return seatmap_font_answers_match_uncached(config, sets, nsets, pattern, result);
    int mine = 0;
    pthread_mutex_lock(&lock);
    struct answer *a = find_or_claim(0, FcFalse, config, sets[0], pattern, &mine);
    pthread_mutex_unlock(&lock);
    if (!a) return seatmap_font_answers_match_uncached(config, sets, nsets, pattern, result);
    if (mine) {
        FcResult r = FcResultNoMatch;
        FcPattern *match = seatmap_font_answers_match_uncached(config, sets, nsets, pattern, &r);
        publish(a, r, match, NULL);
    }
    FcResult r = a->result;
    FcPattern *out = a->match ? FcPatternDuplicate(a->match) : NULL;
    int lost = a->match && !out;
    done(a);
    if (lost) return seatmap_font_answers_match_uncached(config, sets, nsets, pattern, result);
    if (result) *result = r;
    return out;
}
