/* The benchmark's C reference as a whole process: what a plain C program
   with Cairo does for a hall's seats, from reading them to the PNG file, so
   that seatmap-bench can time it against the whole `seatmap render` process
   on the same hall.

   Usage: seatmap-cairo-reference SEATS.txt OUT.png
   SEATS.txt: a first line "width height background radius" (background as
   RRGGBB in hex, radius in pixels), then one line "x y w h RRGGBB" a seat. */
#include "cairo_reference.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: seatmap-cairo-reference SEATS.txt OUT.png\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    char line[256];
    int width = 0, height = 0;
    unsigned background = 0;
    double radius = 0;
    if (!fgets(line, sizeof line, in) || sscanf(line, "%6d %6d %6x %9lf", &width, &height, &background, &radius) != 4 ||
        width < 1 || height < 1 || width > 32767 || height > 32767 || radius < 0) {
        fprintf(stderr, "%s: line 1: expected \"width height background radius\" (1 to 32767 px a side)\n", argv[1]);
        fclose(in);
        return 1;
    }
    size_t capacity = 1024, n = 0;
    int *rects = malloc(sizeof(int) * 4 * capacity);
    unsigned *colours = malloc(sizeof(unsigned) * capacity);
    long number = 1;
    int failed = !rects || !colours;
    while (!failed && fgets(line, sizeof line, in)) {
        number++;
        int x, y, w, h;
        unsigned colour;
        if (sscanf(line, "%6d %6d %6d %6d %6x", &x, &y, &w, &h, &colour) != 5 || w < 0 || h < 0) {
            fprintf(stderr, "%s: line %ld: expected \"x y w h RRGGBB\"\n", argv[1], number);
            failed = 1;
            break;
        }
        if (n == capacity) {
            capacity *= 2;
            int *moreRects = realloc(rects, sizeof(int) * 4 * capacity);
            if (moreRects) rects = moreRects;
            unsigned *moreColours = moreRects ? realloc(colours, sizeof(unsigned) * capacity) : NULL;
            if (moreColours) colours = moreColours;
            if (!moreRects || !moreColours) { fprintf(stderr, "out of memory\n"); failed = 1; break; }
        }
        rects[4 * n] = x; rects[4 * n + 1] = y; rects[4 * n + 2] = w; rects[4 * n + 3] = h;
        colours[n++] = colour;
    }
    if (ferror(in)) { perror(argv[1]); failed = 1; }
    fclose(in);
    if (failed || n > 0x7fffffff) {
        free(rects);
        free(colours);
        return 1;
    }
    int status = seatmap_reference_render(width, height, background, rects, colours, (int)n, radius, argv[2]);
    free(rects);
    free(colours);
    if (status != 0) {
        fprintf(stderr, "Cairo could not draw or write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
