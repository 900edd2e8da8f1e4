/* libpq, opened at its first use (see ../CLibPQ/shim.h). Each function
   SeatMap calls is defined here with libpq's own prototype and forwards to
   the library's; the process links no libpq at all. */
#include "../CLibPQ/shim.h"
#include "include/lazy.h"

#define SEATMAP_PQ_FUNCTIONS(X) \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
                                 const char *const *paramValues, const int *paramLengths, const int *paramFormats, \
                                 int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn))

#define SEATMAP_PQ_PROCEDURES(X) \
    X(PQfinish, (PGconn *conn), (conn)) \
    X(PQclear, (PGresult *res), (res)) \
    X(PQfreemem, (void *ptr), (ptr))

static struct seatmap_lazy libpq = { .soname = "libpq.so.5" };
static pthread_once_t libpq_once = PTHREAD_ONCE_INIT;

#define POINTER(ret, name, params, args) static ret (*p_##name) params;
#define PROCEDURE_POINTER(name, params, args) static void (*p_##name) params;
SEATMAP_PQ_FUNCTIONS(POINTER)
SEATMAP_PQ_PROCEDURES(PROCEDURE_POINTER)

static void libpq_open(void) {
    if (!seatmap_lazy_open(&libpq)) return;
#define FIND(ret, name, params, args) if (!(p_##name = (ret (*) params)seatmap_lazy_symbol(&libpq, #name))) return;
#define FIND_PROCEDURE(name, params, args) if (!(p_##name = (void (*) params)seatmap_lazy_symbol(&libpq, #name))) return;
    SEATMAP_PQ_FUNCTIONS(FIND)
    SEATMAP_PQ_PROCEDURES(FIND_PROCEDURE)
    libpq.ready = 1;
}

const char *seatmap_libpq_load(void) {
    pthread_once(&libpq_once, libpq_open);
    return libpq.ready ? NULL : libpq.error;
}

/* Each call opens libpq first. Without it, PQconnectdb answers NULL (the
   caller asks seatmap_libpq_load why); the others need a connection or a
   result, which only an opened libpq hands out, and answer 0 all the same
   rather than jump to nowhere. */
#define FORWARD(ret, name, params, args) \
    ret name params { return seatmap_libpq_load() ? (ret)0 : p_##name args; }
#define FORWARD_PROCEDURE(name, params, args) \
    void name params { if (!seatmap_libpq_load()) p_##name args; }
SEATMAP_PQ_FUNCTIONS(FORWARD)
SEATMAP_PQ_PROCEDURES(FORWARD_PROCEDURE)
