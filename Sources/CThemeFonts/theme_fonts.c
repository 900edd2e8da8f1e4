/* See theme_fonts.h. */
#include "theme_fonts.h"
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Fontconfig compares family names without case and blanks. */
static int same_family(const char *a, const char *b) {
    for (;;) {
        while (*a == ' ') a++;
        while (*b == ' ') b++;
        unsigned char x = (unsigned char)*a, y = (unsigned char)*b;
        if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
        if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
        if (x != y) return 0;
        if (!x) return 1;
        a++;
        b++;
    }
}

static char *make_key(const char *const *families, int count, const char *language) {
    size_t len = strlen(language) + 2;
    for (int i = 0; i < count; i++) len += strlen(families[i]) + 1;
    char *key = malloc(len);
    if (!key) return NULL;
    strcpy(key, language);
    for (int i = 0; i < count; i++) {
        strcat(key, "\n");
        strcat(key, families[i]);
    }
    return key;
}

/* A request as Pango makes one for the families (regular, upright). */
static FcPattern *request(FcConfig *config, const char *const *families, int count, const char *language) {
    FcPattern *p = FcPatternCreate();
    if (!p) return NULL;
    for (int i = 0; i < count; i++) FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)families[i]);
    FcPatternAddDouble(p, FC_WEIGHT, FC_WEIGHT_REGULAR);
    FcPatternAddInteger(p, FC_SLANT, FC_SLANT_ROMAN);
    FcPatternAddInteger(p, FC_WIDTH, FC_WIDTH_NORMAL);
    FcPatternAddDouble(p, FC_PIXEL_SIZE, 16);
    FcPatternAddString(p, FC_LANG, (const FcChar8 *)language);
    FcConfigSubstitute(config, p, FcMatchPattern);
    FcDefaultSubstitute(p);
    return p;
}

static int get_bool(FcPattern *p, const char *object, int absent) {
    FcBool b;
    return FcPatternGetBool(p, object, 0, &b) == FcResultMatch ? (b != 0) : absent;
}

static int same_string(FcPattern *a, FcPattern *b, const char *object) {
    for (int i = 0;; i++) {
        FcChar8 *x = NULL, *y = NULL;
        FcResult rx = FcPatternGetString(a, object, i, &x), ry = FcPatternGetString(b, object, i, &y);
        if (rx != FcResultMatch || ry != FcResultMatch) return rx == ry || (rx != FcResultMatch && ry != FcResultMatch);
        if (strcmp((const char *)x, (const char *)y) != 0) return 0;
    }
}

/* What Cairo and Pango read from a prepared face, the same on both. */
static int same_drawing(FcPattern *a, FcPattern *b) {
    if (get_bool(a, FC_ANTIALIAS, 1) != get_bool(b, FC_ANTIALIAS, 1)) return 0;
    if (get_bool(a, FC_EMBOLDEN, 0) != get_bool(b, FC_EMBOLDEN, 0)) return 0;
    if (get_bool(a, FC_VERTICAL_LAYOUT, 0) != get_bool(b, FC_VERTICAL_LAYOUT, 0)) return 0;
    FcMatrix identity, *ma = &identity, *mb = &identity;
    FcMatrixInit(&identity);
    FcPatternGetMatrix(a, FC_MATRIX, 0, &ma);
    FcPatternGetMatrix(b, FC_MATRIX, 0, &mb);
    if (!FcMatrixEqual(ma, mb)) return 0;
    double sa = 0, sb = 0;
    if (FcPatternGetDouble(a, FC_PIXEL_SIZE, 0, &sa) != FcPatternGetDouble(b, FC_PIXEL_SIZE, 0, &sb) || sa != sb) return 0;
    return same_string(a, b, FC_FONT_VARIATIONS) && same_string(a, b, FC_FONT_FEATURES);
}

/* A configuration with only the families' faces, or NULL (see the header). */
static FcConfig *build(const char *const *families, int count, const char *language) {
    if (count < 1 || !FcInit()) return NULL;
    FcConfig *system = FcConfigGetCurrent();
    FcFontSet *installed = FcConfigGetFonts(system, FcSetSystem);
    if (!installed) return NULL;
    FcConfig *config = FcConfigCreate();
    if (!config) return NULL;
    /* The application font set is made empty by adding a folder that is
       not there; the faces go into it. */
    FcConfigAppFontAddDir(config, (const FcChar8 *)"/nonexistent/seatmap-theme-fonts");
    FcFontSet *faces = FcConfigGetFonts(config, FcSetApplication);
    int ok = faces != NULL;
    for (int f = 0; ok && f < count; f++) {
        int found = 0;
        for (int i = 0; i < installed->nfont; i++) {
            FcPattern *face = installed->fonts[i];
            FcChar8 *name;
            int match = 0;
            for (int k = 0; !match && FcPatternGetString(face, FC_FAMILY, k, &name) == FcResultMatch; k++)
                match = same_family((const char *)name, families[f]);
            if (!match) continue;
            found = 1;
            /* A face named by two of the families is added once, for the first. */
            int earlier = 0;
            for (int g = 0; !earlier && g < f; g++)
                for (int k = 0; !earlier && FcPatternGetString(face, FC_FAMILY, k, &name) == FcResultMatch; k++)
                    earlier = same_family((const char *)name, families[g]);
            if (earlier) continue;
            FcPatternReference(face);
            if (!FcFontSetAdd(faces, face)) {
                FcPatternDestroy(face);
                ok = 0;
                break;
            }
        }
        ok = ok && found;
    }
    /* The system keeps the families first and in order... */
    FcPattern *asked = ok ? request(system, families, count, language) : NULL;
    FcPattern *plain = ok ? request(config, families, count, language) : NULL;
    ok = asked && plain;
    for (int f = 0; ok && f < count; f++) {
        FcChar8 *name;
        ok = FcPatternGetString(asked, FC_FAMILY, f, &name) == FcResultMatch && strcmp((const char *)name, families[f]) == 0;
    }
    /* ...asks for nothing fontconfig ranks above the family... */
    static const char *const above[] = {FC_FILE, FC_FONTFORMAT, FC_SCALABLE, FC_COLOR, FC_FOUNDRY, FC_CHARSET};
    for (size_t k = 0; ok && k < sizeof above / sizeof above[0]; k++) {
        FcValue v;
        ok = FcPatternGet(asked, above[k], 0, &v) != FcResultMatch;
    }
    /* ...and prepares each face for drawing as this configuration does. */
    for (int i = 0; ok && i < faces->nfont; i++) {
        FcPattern *a = FcFontRenderPrepare(system, asked, faces->fonts[i]);
        FcPattern *b = FcFontRenderPrepare(config, plain, faces->fonts[i]);
        ok = a && b && same_drawing(a, b);
        if (a) FcPatternDestroy(a);
        if (b) FcPatternDestroy(b);
    }
    if (asked) FcPatternDestroy(asked);
    if (plain) FcPatternDestroy(plain);
    if (!ok) {
        FcConfigDestroy(config);
        return NULL;
    }
    return config;
}

/* Configurations, one per family list and language, for the process. */
struct entry {
    char *key;
    FcConfig *config; /* NULL: refused */
    struct entry *next;
};
static struct entry *configs;
static pthread_mutex_t configs_lock = PTHREAD_MUTEX_INITIALIZER;

/* Each thread's font maps, one per key. */
struct map {
    char *key;
    PangoFontMap *map;
    struct map *next;
};
static pthread_key_t maps_key;
static pthread_once_t maps_once = PTHREAD_ONCE_INIT;

static void release_maps(void *list) {
    struct map *m = list;
    while (m) {
        struct map *next = m->next;
        g_object_unref(m->map);
        free(m->key);
        free(m);
        m = next;
    }
}

static void make_maps_key(void) { pthread_key_create(&maps_key, release_maps); }

void *seatmap_theme_font_map(const char *const *families, int count, const char *language) {
    char *key = make_key(families, count, language);
    if (!key) return NULL;
    pthread_once(&maps_once, make_maps_key);
    struct map *list = pthread_getspecific(maps_key);
    for (struct map *m = list; m; m = m->next)
        if (strcmp(m->key, key) == 0) {
            free(key);
            return m->map;
        }
    pthread_mutex_lock(&configs_lock);
    struct entry *e = configs;
    while (e && strcmp(e->key, key) != 0) e = e->next;
    if (!e && (e = calloc(1, sizeof *e)) && (e->key = strdup(key))) {
        e->config = build(families, count, language);
        e->next = configs;
        configs = e;
    }
    FcConfig *config = e && e->key ? e->config : NULL;
    pthread_mutex_unlock(&configs_lock);
    PangoFontMap *map = config ? pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) : NULL;
    struct map *m = map ? malloc(sizeof *m) : NULL;
    if (!m) {
        if (map) g_object_unref(map);
        free(key);
        return NULL;
    }
    pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
    m->key = key;
    m->map = map;
    m->next = list;
    pthread_setspecific(maps_key, m);
    return map;
}
