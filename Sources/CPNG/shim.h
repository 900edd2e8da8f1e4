#ifndef SEATMAP_CPNG_SHIM_H
#define SEATMAP_CPNG_SHIM_H
/*
 * libpng reports errors by longjmp, which must not cross Swift frames, so the
 * whole encode runs here in C: Swift hands over Cairo's ARGB32 pixels and
 * gets back a malloc'ed PNG (free it with free()) or a negative status.
 */
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

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

/*
 * One row of Cairo's premultiplied native-endian ARGB32 to non-premultiplied
 * R, G, B, A bytes (what a PNG holds). Shared by the encoder and by Swift
 * code that compares renders with decoded PNGs, so both agree to the bit.
 */
static inline void seatmap_argb_to_rgba(const uint32_t *src, unsigned char *dst, int width) {
    for (int x = 0; x < width; x++) {
        uint32_t p = src[x];
        unsigned a = p >> 24, r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
        if (a != 0 && a != 255) {
            r = (r * 255 + a / 2) / a;
            g = (g * 255 + a / 2) / a;
            b = (b * 255 + a / 2) / a;
        }
        dst[0] = (unsigned char)r; dst[1] = (unsigned char)g; dst[2] = (unsigned char)b; dst[3] = (unsigned char)a;
        dst += 4;
    }
}

/*
 * Encodes premultiplied native-endian ARGB32 pixels (Cairo's format) as an
 * 8-bit RGBA PNG. level: zlib level 0-9; filters: 0 for no filtering (fast),
 * 1 for libpng's adaptive choice among all filters. No timestamps or other
 * varying chunks are written, so the same pixels give the same bytes.
 * Returns 0 and sets *out / *out_size, or -1 on any libpng error.
 */
static inline int seatmap_png_encode(const unsigned char *pixels, int width, int height, int stride,
                                     int level, int filters,
                                     unsigned char **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_write_struct(&png, NULL); return -1; }
    seatmap_png_buffer buf = { NULL, 0, 0 };
    unsigned char *row = (unsigned char *)malloc((size_t)width * 4 + 1);
    if (!row) { png_destroy_write_struct(&png, &info); return -1; }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buf.data);
        free(row);
        return -1;
    }
    png_set_write_fn(png, &buf, seatmap_png_write_data, seatmap_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_filter(png, 0, filters ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        seatmap_argb_to_rgba((const uint32_t *)(pixels + (size_t)y * (size_t)stride), row, width);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    *out = buf.data;
    *out_size = buf.size;
    return 0;
}

/*
 * Decodes any PNG into 8-bit non-premultiplied RGBA (bytes R, G, B, A per
 * pixel, rows packed) with libpng's simplified API, which handles its own
 * errors. Returns 0 and a malloc'ed buffer (free it with free()), or -1 with
 * libpng's message copied into message.
 */
static inline int seatmap_png_decode(const unsigned char *data, size_t size, int *width, int *height,
                                     unsigned char **out, char *message, size_t message_size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *out = NULL;
    if (!png_image_begin_read_from_memory(&image, data, size)) {
        strncpy(message, image.message, message_size - 1);
        message[message_size - 1] = 0;
        return -1;
    }
    image.format = PNG_FORMAT_RGBA;
    size_t bytes = PNG_IMAGE_SIZE(image);
    unsigned char *buffer = (unsigned char *)malloc(bytes ? bytes : 1);
    if (!buffer) {
        png_image_free(&image);
        strncpy(message, "out of memory", message_size - 1);
        return -1;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        strncpy(message, image.message, message_size - 1);
        message[message_size - 1] = 0;
        free(buffer);
        return -1;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    *out = buffer;
    return 0;
}
#endif
