#ifndef SEATMAP_CMICROHTTPD_SHIM_H
#define SEATMAP_CMICROHTTPD_SHIM_H
/* libmicrohttpd (Debian libmicrohttpd-dev) for `seatmap serve`. Swift cannot
   call C variadic functions, so the daemon is started here with SeatMap's
   fixed set of options. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/* The module links no libmicrohttpd: CLazyLibs opens it at its first use,
   so only `seatmap serve` (and --version) loads it. NULL once open; else
   why it cannot be. */
const char *seatmap_libmicrohttpd_load(void);

/* Percent-decoding for the path and query (MHD_OPTION_UNESCAPE_CALLBACK):
   a %XX escape becomes its byte; a '%' not followed by two hex digits
   becomes byte 1, a control character the service refuses with the
   parameter's name (libmicrohttpd's own decoder keeps it as text, so a bad
   escape could not be told from an escaped '%'). A decoded NUL becomes
   byte 1 too, so the path (a C string) is never cut short by one. */
static inline int seatmap_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
static inline size_t seatmap_mhd_unescape(void *cls, struct MHD_Connection *connection, char *s) {
    (void)cls; (void)connection;
    char *r = s, *w = s;
    while (*r) {
        if (*r == '%') {
            int hi = seatmap_hex(r[1]), lo = hi < 0 ? -1 : seatmap_hex(r[2]);
            if (hi >= 0 && lo >= 0) { int b = hi * 16 + lo; *w++ = (char)(b == 0 ? 1 : b); r += 3; } else { *w++ = 1; r++; }
        } else {
            *w++ = *r++;
        }
    }
    *w = 0;
    return (size_t)(w - s);
}

/* Starts an HTTP/1.1 daemon listening on `host` (an IPv4 or IPv6 literal) at
   `port` (0: any free port): internal polling on `io_threads` threads (epoll
   where available), connections suspended while their work runs elsewhere,
   `timeout` seconds of inactivity before a new connection is closed (see
   seatmap_mhd_set_timeout), at most
   `connections` at once and `memory` bytes per connection for its request
   line and headers, at most `per_address` connections from one client
   address. NULL when the address is not a literal or the daemon cannot
   start (the port taken, say). */
static inline struct MHD_Daemon *seatmap_mhd_start(const char *host, uint16_t port, unsigned io_threads, unsigned timeout,
                                                   unsigned connections, unsigned per_address, size_t memory,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *addr;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        addr = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        addr = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        return NULL;
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, addr,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)(io_threads < 1 ? 1 : io_threads),
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)timeout,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned int)connections,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)per_address,
                            MHD_OPTION_UNESCAPE_CALLBACK, seatmap_mhd_unescape, NULL,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)memory,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_END);
}

/* Sets one connection's inactivity timeout in seconds (the daemon's
   timeout is the short one for connections still sending their first
   request header; a connection whose header is in gets the longer one). */
static inline void seatmap_mhd_set_timeout(struct MHD_Connection *connection, unsigned seconds) {
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned int)seconds);
}

/* MHD_Result and the value kinds as Swift sees them. */
static const enum MHD_Result seatmap_mhd_yes = MHD_YES;
static const enum MHD_Result seatmap_mhd_no = MHD_NO;

/* A connection's query arguments / request headers, one call each, with
   their lengths (a decoded NUL stays in the value). */
static inline int seatmap_mhd_query(struct MHD_Connection *connection, MHD_KeyValueIteratorN iterator, void *cls) {
    return MHD_get_connection_values_n(connection, MHD_GET_ARGUMENT_KIND, iterator, cls);
}
static inline int seatmap_mhd_headers(struct MHD_Connection *connection, MHD_KeyValueIteratorN iterator, void *cls) {
    return MHD_get_connection_values_n(connection, MHD_HEADER_KIND, iterator, cls);
}

/* A connection's socket (-1 when libmicrohttpd does not say). */
static inline int seatmap_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? (int)info->connect_fd : -1;
}

/* The port the daemon listens on (the one picked when 0 was asked for). */
static inline uint16_t seatmap_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* Queues a response of `length` bytes (copied) with `count` headers given as
   name, value pairs. */
static inline enum MHD_Result seatmap_mhd_respond(struct MHD_Connection *connection, unsigned int status,
                                                  const void *body, size_t length,
                                                  const char *const *headers, size_t count) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    for (size_t i = 0; i < count; i++) {
        if (MHD_add_response_header(response, headers[2 * i], headers[2 * i + 1]) != MHD_YES) {
            MHD_destroy_response(response);
            return MHD_NO;
        }
    }
    enum MHD_Result result = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return result;
}

#endif
