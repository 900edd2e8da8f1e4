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
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   size_t (*unescape)(void *, struct MHD_Connection *, char *)) {
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
                            MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
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
static const enum MHD_ValueKind seatmap_mhd_headers = MHD_HEADER_KIND, seatmap_mhd_query = MHD_GET_ARGUMENT_KIND;
static const enum MHD_ResponseMemoryMode seatmap_mhd_copy = MHD_RESPMEM_MUST_COPY;

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

#endif
