/* libpq, opened at its first use (see ../CLibPQ/shim.h). Each function
   SeatMap calls is defined here with libpq's own prototype and forwards to
   the library's; the process links no libpq at all. */
#include "../CLibPQ/shim.h"
#include "include/lazy.h"

#define SEATMAP_PQ_FUNCTIONS(X) \
    X(PGconn *, PQconnectdb, (const char *conninfo), (conninfo), NULL) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn), CONNECTION_BAD) \
    X(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn), PQTRANS_UNKNOWN) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn), NULL) \
    X(int, PQsocket, (const PGconn *conn), (conn), -1) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query), NULL) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
                                 const char *const *paramValues, const int *paramLengths, const int *paramFormats, \
                                 int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat), NULL) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res), PGRES_FATAL_ERROR) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res), NULL) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode), NULL) \
    X(int, PQntuples, (const PGresult *res), (res), 0) \
    X(int, PQnfields, (const PGresult *res), (res), 0) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num), NULL) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num), 1) \
    X(int, PQconsumeInput, (PGconn *conn), (conn), 0) \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn), NULL) \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn), 0) \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn), 0) \
    X(int, PQpipelineSync, (PGconn *conn), (conn), 0) \
    X(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, \
                               const char *const *paramValues, const int *paramLengths, const int *paramFormats, \
                               int resultFormat), \
      (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat), 0) \
    X(int, PQsendPrepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), \
      (conn, stmtName, query, nParams, paramTypes), 0) \
    X(int, PQsendQueryPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, \
                                 const int *paramLengths, const int *paramFormats, int resultFormat), \
      (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat), 0) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn), NULL)

#define SEATMAP_PQ_PROCEDURES(X) \
    X(PQfinish, (PGconn *conn), (conn)) \
    X(PQclear, (PGresult *res), (res)) \
    X(PQfreemem, (void *ptr), (ptr))

static struct seatmap_lazy lazy_lib = { .soname = "libpq.so.5" };
static pthread_once_t once = PTHREAD_ONCE_INIT;
#define lazy_load seatmap_libpq_load

SEATMAP_PQ_FUNCTIONS(SEATMAP_LAZY_POINTER)
SEATMAP_PQ_PROCEDURES(SEATMAP_LAZY_PROCEDURE_POINTER)

SEATMAP_LAZY_OPENER(SEATMAP_PQ_FUNCTIONS, SEATMAP_PQ_PROCEDURES)

const char *seatmap_libpq_load(void) { return seatmap_lazy_load(&lazy_lib, &once, open_library); }

/* Without libpq, PQconnectdb answers NULL (the caller asks
   seatmap_libpq_load why); the others need a connection or a result,
   which only an opened libpq hands out. */
SEATMAP_PQ_FUNCTIONS(SEATMAP_LAZY_FORWARD)
SEATMAP_PQ_PROCEDURES(SEATMAP_LAZY_FORWARD_PROCEDURE)
