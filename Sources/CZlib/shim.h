#ifndef SEATMAP_CZLIB_SHIM_H
#define SEATMAP_CZLIB_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <zlib.h>

/* zlib for the HTTP service's Content-Encoding: gzip. */

/* The largest gzip stream `length` bytes can take (deflateBound plus the
   gzip header and trailer). */
static inline size_t seatmap_gzip_bound(size_t length) {
    return (size_t)compressBound((uLong)length) + 32;
}

/* Writes `length` bytes as one gzip stream (level 6, fixed header: no file
   name, no time, so the same bytes always give the same stream) into
   `out` of `capacity` bytes; the stream's length, or 0 on failure. */
static inline size_t seatmap_gzip(const uint8_t *in, size_t length, uint8_t *out, size_t capacity) {
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)length;
    z.next_out = out;
    z.avail_out = (uInt)capacity;
    int r = deflate(&z, Z_FINISH);
    size_t written = capacity - z.avail_out;
    deflateEnd(&z);
    return r == Z_STREAM_END ? written : 0;
}
#endif
