/* libpng's encode and decode behind plain C calls (see png_helpers.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "png_helpers.h"

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
} seatmap_png_buffer;

static void seatmap_png_write_data(png_structp png, png_bytep bytes, png_size_t length) {
    seatmap_png_buffer *buf = (seatmap_png_buffer *)png_get_io_ptr(png);
    if (buf->size + length > buf->capacity) {
        size_t cap = buf->capacity ? buf->capacity : 65536;
        while (cap < buf->size + length) cap *= 2;
        unsigned char *grown = (unsigned char *)realloc(buf->data, cap);
        if (!grown) png_error(png, "out of memory");
        buf->data = grown;
        buf->capacity = cap;
    }
    memcpy(buf->data + buf->size, bytes, length);
    buf->size += length;
}

static void seatmap_png_flush(png_structp png) { (void)png; }

int seatmap_png_encode(const unsigned char *rgba, int width, int height,
                                     int level, int filters,
                                     unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); return -1; }
    seatmap_png_buffer buf = { NULL, 0, 0 };
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buf.data);
        return -1;
    }
    png_set_write_fn(png, &buf, seatmap_png_write_data, seatmap_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_filter(png, 0, filters ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rgba + (size_t)y * (size_t)width * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = buf.data;
    *out_size = buf.size;
    return 0;
}


struct seatmap_png_reader {
    const unsigned char *data;
    size_t size;
    size_t pos;
    char *message;
    size_t message_size;
};

static void seatmap_png_read_data(png_structp png, png_bytep out, png_size_t length) {
    struct seatmap_png_reader *r = (struct seatmap_png_reader *)png_get_io_ptr(png);
    if (r->size - r->pos < length) png_error(png, "the PNG data ends too early");
    memcpy(out, r->data + r->pos, length);
    r->pos += length;
}

static void seatmap_png_read_error(png_structp png, png_const_charp text) {
    struct seatmap_png_reader *r = (struct seatmap_png_reader *)png_get_error_ptr(png);
    strncpy(r->message, text, r->message_size - 1);
    r->message[r->message_size - 1] = 0;
    png_longjmp(png, 1);
}

static void seatmap_png_read_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

int seatmap_png_decode(const unsigned char *data, size_t size, int *width, int *height,
                                     unsigned char **out, char *message, size_t message_size,
                                     unsigned max_side, unsigned long long max_pixels) {
    struct seatmap_png_reader reader = {data, size, 0, message, message_size};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, seatmap_png_read_error, seatmap_png_read_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    unsigned char *volatile buffer = NULL;
    png_bytep *volatile rows = NULL;
    *out = NULL;
    message[0] = 0;
    if (!png || !info) {
        png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
        strncpy(message, "out of memory", message_size - 1);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(buffer);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    png_set_read_fn(png, &reader, seatmap_png_read_data);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w > max_side || h > max_side || (unsigned long long)w * h > max_pixels) {
        snprintf(message, message_size, "the image is %u×%u px, over the limit of %u px a side or %llu pixels",
                 (unsigned)w, (unsigned)h, max_side, max_pixels);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
    int trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (trns) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !trns) png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unsupported PNG layout");
    buffer = (unsigned char *)malloc((size_t)w * h * 4 + 1);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * (h ? h : 1));
    if (!buffer || !rows) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) rows[y] = buffer + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *width = (int)w;
    *height = (int)h;
    *out = buffer;
    return 0;
}
