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
    int width, height;
    unsigned background;
    double radius;
    if (fscanf(in, "%d %d %x %lf", &width, &height, &background, &radius) != 4) {
        fprintf(stderr, "%s: line 1: expected \"width height background radius\"\n", argv[1]);
        return 1;
    }
    int capacity = 1024, n = 0;
    int *rects = malloc(sizeof(int) * 4 * (size_t)capacity);
    unsigned *colours = malloc(sizeof(unsigned) * (size_t)capacity);
    int x, y, w, h;
    unsigned colour;
    while (rects && colours && fscanf(in, "%d %d %d %d %x", &x, &y, &w, &h, &colour) == 5) {
        if (n == capacity) {
            capacity *= 2;
            rects = realloc(rects, sizeof(int) * 4 * (size_t)capacity);
            colours = realloc(colours, sizeof(unsigned) * (size_t)capacity);
            if (!rects || !colours) break;
        }
        rects[4 * n] = x; rects[4 * n + 1] = y; rects[4 * n + 2] = w; rects[4 * n + 3] = h;
        colours[n++] = colour;
    }
    fclose(in);
    if (!rects || !colours) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    int status = seatmap_reference_render(width, height, background, rects, colours, n, radius, argv[2]);
    free(rects);
    free(colours);
    if (status != 0) {
        fprintf(stderr, "Cairo could not draw or write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
