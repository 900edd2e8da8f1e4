/* Fontconfig's answers to Pango, shared by every thread's font map.

   Pango keeps a font map per thread, and each map asks fontconfig again for
   every text size and language it meets: a match (the first font) and a
   sort (the fallbacks), each on a thread of its own. Two threads drawing
   the same sizes (a batch's two workers, a large image's two drawing
   threads, the server's requests) so work out the same answers twice.

   This file defines FcFontSetMatch and FcFontSetSort for the whole process
   that links it (an executable's own symbols come before its libraries'
   in the dynamic linker's search, and Swift executables on Linux export
   them), so Pango's calls, and any other caller's, come here. Each
   question is worked out once by fontconfig's own function and handed out
   as a copy to every later call with the same question: the same
   configuration, the same fonts to choose among (the same pattern objects,
   in the same order), the same trim, and a pattern with the very same
   objects, values, value types and bindings (stricter than
   FcPatternEqual, which ignores bindings and compares strings without
   case). FcFontSetMatch and FcFontSetSort read nothing else in fontconfig
   2.14, so the answer is the one fontconfig would give. A call that finds
   its question being worked out by another thread waits for that answer
   instead of working it out again.

   Kept answers hold a reference to their configuration and to every font
   they were chosen among, so no later object can take one of their
   addresses (at most `most_choices` configurations' fonts are kept, for
   the process's life). At most `capacity` answers are kept (a few
   megabytes); past that, the least recently used one that no caller holds
   is dropped. A call goes straight to fontconfig when it cannot be kept:
   several font sets, a coverage asked for, no configuration, a pattern
   holding a FreeType face or an untyped pointer, every kept answer in use,
   memory run out. A failed answer (none) is not kept: each caller then asks
   fontconfig itself, as it would have. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "font_answers.h"

typedef FcFontSet *(*sort_function)(FcConfig *, FcFontSet **, int, FcPattern *, FcBool, FcCharSet **, FcResult *);
typedef FcPattern *(*match_function)(FcConfig *, FcFontSet **, int, FcPattern *, FcResult *);

static sort_function fontconfig_sort;
static match_function fontconfig_match;
static pthread_once_t found = PTHREAD_ONCE_INIT;

static void find_fontconfig(void) {
    /* The next definitions after this file's own: libfontconfig's when
       this file comes first, as in an executable. Else (this file in a
       library loaded after fontconfig) fontconfig's own, by name. */
    sort_function sort = (sort_function)dlsym(RTLD_NEXT, "FcFontSetSort");
    match_function match = (match_function)dlsym(RTLD_NEXT, "FcFontSetMatch");
    void *library = (sort && match) ? NULL : dlopen("libfontconfig.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (library) {
        if (!sort) sort = (sort_function)dlsym(library, "FcFontSetSort");
        if (!match) match = (match_function)dlsym(library, "FcFontSetMatch");
    }
    fontconfig_sort = sort == FcFontSetSort ? NULL : sort;
    fontconfig_match = match == FcFontSetMatch ? NULL : match;
    if (!fontconfig_sort || !fontconfig_match) {
        /* No answer at all would leave Pango waiting for ever. */
        static const char message[] = "seatmap: fontconfig's FcFontSetSort and FcFontSetMatch were not found in the process\n";
        (void)!write(2, message, sizeof message - 1);
        abort();
    }
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
    int failed;           /* worked out as none: dropped, callers ask fontconfig */
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

static FcChar32 mix(FcChar32 h, uint64_t v) {
    h ^= (FcChar32)v + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h ^ ((FcChar32)(v >> 32) + 0x9e3779b9u + (h << 6) + (h >> 2));
}

static uint64_t bits(double d) {
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static FcChar32 text_hash(const FcChar8 *t) {
    FcChar32 h = 2166136261u;
    for (; t && *t; t++) h = (h ^ *t) * 16777619u;
    return h;
}

/* A hash of a pattern's objects, values, value types and bindings (a
   double by its bits, a string by its bytes); 0 in `*keepable` when a
   value is a pointer this file cannot compare (a FreeType face, an untyped
   pointer) or of a type it does not know. Needs no lock. */
static FcChar32 pattern_hash(const FcPattern *p, int *keepable) {
    FcChar32 h = (FcChar32)FcPatternObjectCount(p);
    FcPatternIter it;
    *keepable = 1;
    FcPatternIterStart(p, &it);
    if (!FcPatternIterIsValid(p, &it)) return h;
    do {
        h = mix(h, text_hash((const FcChar8 *)FcPatternIterGetObject(p, &it)));
        int n = FcPatternIterValueCount(p, &it);
        for (int id = 0; id < n; id++) {
            FcValue v;
            FcValueBinding b;
            if (FcPatternIterGetValue(p, &it, id, &v, &b) != FcResultMatch) { *keepable = 0; return h; }
            h = mix(h, (uint64_t)v.type * 4u + (uint64_t)b);
            switch (v.type) {
            case FcTypeString: h = mix(h, text_hash(v.u.s)); break;
            case FcTypeDouble: h = mix(h, bits(v.u.d)); break;
            case FcTypeInteger: h = mix(h, (uint64_t)(int64_t)v.u.i); break;
            case FcTypeBool: h = mix(h, (uint64_t)v.u.b); break;
            case FcTypeMatrix: h = mix(mix(h, bits(v.u.m->xx) ^ bits(v.u.m->xy)), bits(v.u.m->yx) ^ bits(v.u.m->yy)); break;
            case FcTypeCharSet: h = mix(h, FcCharSetCount(v.u.c)); break;
            case FcTypeLangSet: break;
            case FcTypeRange: {
                double begin = 0, end = 0;
                FcRangeGetDouble(v.u.r, &begin, &end);
                h = mix(mix(h, bits(begin)), bits(end));
                break;
            }
            default: *keepable = 0; return h;  /* FcTypeFTFace, FcTypeVoid, FcTypeUnknown */
            }
        }
    } while (FcPatternIterNext(p, &it));
    return h;
}

static int same_value(const FcValue *a, const FcValue *b) {
    if (a->type != b->type) return 0;
    switch (a->type) {
    case FcTypeString: return strcmp((const char *)a->u.s, (const char *)b->u.s) == 0;
    case FcTypeDouble: return bits(a->u.d) == bits(b->u.d);
    case FcTypeInteger: return a->u.i == b->u.i;
    case FcTypeBool: return a->u.b == b->u.b;
    case FcTypeMatrix:
        return bits(a->u.m->xx) == bits(b->u.m->xx) && bits(a->u.m->xy) == bits(b->u.m->xy) &&
               bits(a->u.m->yx) == bits(b->u.m->yx) && bits(a->u.m->yy) == bits(b->u.m->yy);
    case FcTypeCharSet: return FcCharSetEqual(a->u.c, b->u.c);
    case FcTypeLangSet: return FcLangSetEqual(a->u.l, b->u.l);
    case FcTypeRange: {
        double ab = 0, ae = 0, bb = 0, be = 0;
        FcRangeGetDouble(a->u.r, &ab, &ae);
        FcRangeGetDouble(b->u.r, &bb, &be);
        return bits(ab) == bits(bb) && bits(ae) == bits(be);
    }
    default: return 0;
    }
}

/* The very same objects, each with the same values in the same order, of
   the same types and bindings. */
static int same_pattern(const FcPattern *a, const FcPattern *b) {
    if (FcPatternObjectCount(a) != FcPatternObjectCount(b)) return 0;
    FcPatternIter ia, ib;
    FcPatternIterStart(a, &ia);
    if (!FcPatternIterIsValid(a, &ia)) return 1;
    do {
        const char *object = FcPatternIterGetObject(a, &ia);
        if (!FcPatternFindIter(b, &ib, object)) return 0;
        int n = FcPatternIterValueCount(a, &ia);
        if (n != FcPatternIterValueCount(b, &ib)) return 0;
        for (int id = 0; id < n; id++) {
            FcValue va, vb;
            FcValueBinding ba, bb;
            if (FcPatternIterGetValue(a, &ia, id, &va, &ba) != FcResultMatch ||
                FcPatternIterGetValue(b, &ib, id, &vb, &bb) != FcResultMatch || ba != bb || !same_value(&va, &vb))
                return 0;
        }
    } while (FcPatternIterNext(a, &ia));
    return 1;
}

static void unlink_answer(struct answer *a) {
    struct answer **link = &table[a->hash % buckets];
    while (*link != a) link = &(*link)->next;
    *link = a->next;
    if (a->older) a->older->newer = a->newer; else oldest = a->newer;
    if (a->newer) a->newer->older = a->older; else newest = a->older;
    a->next = a->older = a->newer = NULL;
    kept--;
}

static void free_answer(struct answer *a) {
    FcPatternDestroy(a->pattern);
    if (a->match) FcPatternDestroy(a->match);
    if (a->sorted) FcFontSetDestroy(a->sorted);
    free(a);
}

/* Drops the least recently used answers no caller holds until there is
   room for one more; 0 when all are held. Called with the lock held. */
static int make_room(void) {
    for (struct answer *a = oldest; a && kept >= capacity;) {
        struct answer *next = a->newer;
        if (a->ready && a->users == 0) {
            unlink_answer(a);
            free_answer(a);
        }
        a = next;
    }
    return kept < capacity;
}

/* The kept answer to a question, waited for when another thread is working
   it out; or a new entry the caller must fill (`*mine` set); or NULL when
   the question cannot be kept or its answer failed. Either way the caller
   holds the entry until it calls `done`. `hash`: the pattern's. Called
   with the lock held. */
static struct answer *find_or_claim(int sorting, FcBool trim, FcConfig *config, FcFontSet *set, FcPattern *pattern,
                                    FcChar32 hash, int *mine) {
    const struct choice *choice = choice_for(config, set);
    if (!choice) return NULL;
    hash = mix(mix(hash, (uint64_t)sorting * 2u + (uint64_t)(trim != 0)), (uint64_t)(size_t)choice);
    struct answer **slot = &table[hash % buckets];
    for (struct answer *a = *slot; a; a = a->next) {
        if (a->hash != hash || a->sorting != sorting || (a->trim != 0) != (trim != 0) || a->choice != choice ||
            !same_pattern(a->pattern, pattern))
            continue;
        a->users++;
        if (a != newest) {  /* the most recently used */
            if (a->older) a->older->newer = a->newer; else oldest = a->newer;
            a->newer->older = a->older;
            a->older = newest;
            a->newer = NULL;
            newest->newer = a;
            newest = a;
        }
        while (!a->ready) pthread_cond_wait(&answered, &lock);
        if (a->failed) {
            if (--a->users == 0) free_answer(a);
            return NULL;
        }
        a->hits++;
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

/* The first caller's answer, for every caller waiting for it. None is not
   kept: the entry is dropped, and the waiting callers ask fontconfig. */
static void publish(struct answer *a, FcResult result, FcPattern *match, FcFontSet *sorted) {
    pthread_mutex_lock(&lock);
    a->result = result;
    a->match = match;
    a->sorted = sorted;
    a->ready = 1;
    if (!match && !sorted) {
        a->failed = 1;
        unlink_answer(a);
    }
    pthread_cond_broadcast(&answered);
    pthread_mutex_unlock(&lock);
}

static void done(struct answer *a) {
    pthread_mutex_lock(&lock);
    if (--a->users == 0 && a->failed) free_answer(a);
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
    int keepable = 0;
    FcChar32 hash = 0;
    if (config && sets && nsets == 1 && sets[0] && pattern && !csp) hash = pattern_hash(pattern, &keepable);
    if (!keepable) return seatmap_font_answers_sort_uncached(config, sets, nsets, pattern, trim, csp, result);
    int mine = 0;
    pthread_mutex_lock(&lock);
    struct answer *a = find_or_claim(1, trim, config, sets[0], pattern, hash, &mine);
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
    int keepable = 0;
    FcChar32 hash = 0;
    if (config && sets && nsets == 1 && sets[0] && pattern) hash = pattern_hash(pattern, &keepable);
    if (!keepable) return seatmap_font_answers_match_uncached(config, sets, nsets, pattern, result);
    int mine = 0;
    pthread_mutex_lock(&lock);
    struct answer *a = find_or_claim(0, FcFalse, config, sets[0], pattern, hash, &mine);
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
