/* libmicrohttpd, opened at its first use (see ../CMicroHTTPD/shim.h): each
   function SeatMap calls is defined here with the library's prototype and
   forwards to the library's own; the process links no libmicrohttpd. */
#include <stdarg.h>
#include "../CMicroHTTPD/shim.h"
#include "include/lazy.h"

#define SEATMAP_MHD_FUNCTIONS(X) \
    X(const char *, MHD_get_version, (void), (), NULL) \
    X(int, MHD_get_connection_values_n, (struct MHD_Connection *connection, enum MHD_ValueKind kind, \
                                         MHD_KeyValueIteratorN iterator, void *iterator_cls), \
      (connection, kind, iterator, iterator_cls), 0) \
    X(MHD_socket, MHD_quiesce_daemon, (struct MHD_Daemon *daemon), (daemon), MHD_INVALID_SOCKET) \
    X(enum MHD_Result, MHD_queue_response, (struct MHD_Connection *connection, unsigned int status_code, \
                                            struct MHD_Response *response), \
      (connection, status_code, response), MHD_NO) \
    X(struct MHD_Response *, MHD_create_response_from_buffer, (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), \
      (size, buffer, mode), NULL) \
    X(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *response, const char *header, const char *content), \
      (response, header, content), MHD_NO)

#define SEATMAP_MHD_PROCEDURES(X) \
    X(MHD_destroy_response, (struct MHD_Response *response), (response)) \
    X(MHD_suspend_connection, (struct MHD_Connection *connection), (connection)) \
    X(MHD_resume_connection, (struct MHD_Connection *connection), (connection)) \
    X(MHD_stop_daemon, (struct MHD_Daemon *daemon), (daemon))

static struct seatmap_lazy lazy_lib = { .soname = "libmicrohttpd.so.12" };
static pthread_once_t once = PTHREAD_ONCE_INIT;
#define lazy_load seatmap_libmicrohttpd_load

SEATMAP_MHD_FUNCTIONS(SEATMAP_LAZY_POINTER)
SEATMAP_MHD_PROCEDURES(SEATMAP_LAZY_PROCEDURE_POINTER)
/* The variadic four: the daemon starts through MHD_start_daemon_va. */
static struct MHD_Daemon *(*p_MHD_start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                                   MHD_AccessHandlerCallback, void *, va_list);
static enum MHD_Result (*p_MHD_set_connection_option)(struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...);
static const union MHD_DaemonInfo *(*p_MHD_get_daemon_info)(struct MHD_Daemon *, enum MHD_DaemonInfoType, ...);
static const union MHD_ConnectionInfo *(*p_MHD_get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);

static void open_library(void) {
    if (!seatmap_lazy_open(&lazy_lib)) return;
#define FIND_AS(name) if (!(p_##name = (__typeof__(p_##name))seatmap_lazy_symbol(&lazy_lib, #name))) return;
    SEATMAP_MHD_FUNCTIONS(SEATMAP_LAZY_FIND)
    SEATMAP_MHD_PROCEDURES(SEATMAP_LAZY_FIND_PROCEDURE)
    FIND_AS(MHD_start_daemon_va)
    FIND_AS(MHD_set_connection_option)
    FIND_AS(MHD_get_daemon_info)
    FIND_AS(MHD_get_connection_info)
    lazy_lib.ready = 1;
}

const char *seatmap_libmicrohttpd_load(void) { return seatmap_lazy_load(&lazy_lib, &once, open_library); }

/* Without the library, starting a daemon answers NULL (the caller asks
   seatmap_libmicrohttpd_load why) and MHD_get_version NULL; the others
   need a daemon, connection or response, which only an opened library
   hands out. */
SEATMAP_MHD_FUNCTIONS(SEATMAP_LAZY_FORWARD)
SEATMAP_MHD_PROCEDURES(SEATMAP_LAZY_FORWARD_PROCEDURE)

SEATMAP_LAZY_HIDDEN struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...) {
    if (seatmap_libmicrohttpd_load()) return NULL;
    va_list options;
    va_start(options, dh_cls);
    struct MHD_Daemon *daemon = p_MHD_start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, options);
    va_end(options);
    return daemon;
}

/* The one connection option there is, MHD_CONNECTION_OPTION_TIMEOUT, takes
   one unsigned int; SeatMap sets no other (another is refused). */
SEATMAP_LAZY_HIDDEN enum MHD_Result MHD_set_connection_option(struct MHD_Connection *connection, enum MHD_CONNECTION_OPTION option, ...) {
    if (seatmap_libmicrohttpd_load() || option != MHD_CONNECTION_OPTION_TIMEOUT) return MHD_NO;
    va_list arguments;
    va_start(arguments, option);
    unsigned int seconds = va_arg(arguments, unsigned int);
    va_end(arguments);
    return p_MHD_set_connection_option(connection, option, seconds);
}

/* The daemon's and a connection's facts SeatMap asks for (the bound port,
   the socket) take no further argument. */
SEATMAP_LAZY_HIDDEN const union MHD_DaemonInfo *MHD_get_daemon_info(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...) {
    return lazy_load() ? NULL : p_MHD_get_daemon_info(daemon, info_type);
}
SEATMAP_LAZY_HIDDEN const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *connection,
                                                        enum MHD_ConnectionInfoType info_type, ...) {
    return seatmap_libmicrohttpd_load() ? NULL : p_MHD_get_connection_info(connection, info_type);
}
