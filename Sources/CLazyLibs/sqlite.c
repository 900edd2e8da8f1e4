/* SQLite, opened at its first use (see ../CSQLite/shim.h): each function
   SeatMap calls is defined here with SQLite's own prototype and forwards to
   the library's; the process links no libsqlite3, so a render never loads
   it (half a millisecond of a small render's process). */
#include "../CSQLite/shim.h"
#include "include/lazy.h"

static struct seatmap_lazy lazy_lib = { .soname = "libsqlite3.so.0" };
static pthread_once_t once = PTHREAD_ONCE_INIT;
#define lazy_load seatmap_sqlite_load

#define SEATMAP_SQLITE_FUNCTIONS(X) \
    X(int, sqlite3_open_v2, (const char *filename, sqlite3 **ppDb, int flags, const char *zVfs), \
      (filename, ppDb, flags, zVfs), SQLITE_CANTOPEN) \
    X(int, sqlite3_close_v2, (sqlite3 *db), (db), SQLITE_MISUSE) \
    X(int, sqlite3_busy_timeout, (sqlite3 *db, int ms), (db, ms), SQLITE_MISUSE) \
    X(const char *, sqlite3_errmsg, (sqlite3 *db), (db), lazy_lib.error) \
    X(const char *, sqlite3_errstr, (int rc), (rc), lazy_lib.error) \
    X(int, sqlite3_exec, (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *arg, char **errmsg), \
      (db, sql, callback, arg, errmsg), SQLITE_MISUSE) \
    X(const char *, sqlite3_libversion, (void), (), NULL) \
    X(int, sqlite3_prepare_v2, (sqlite3 *db, const char *zSql, int nByte, sqlite3_stmt **ppStmt, const char **pzTail), \
      (db, zSql, nByte, ppStmt, pzTail), SQLITE_MISUSE) \
    X(int, sqlite3_step, (sqlite3_stmt *stmt), (stmt), SQLITE_MISUSE) \
    X(int, sqlite3_finalize, (sqlite3_stmt *stmt), (stmt), SQLITE_MISUSE) \
    X(int, sqlite3_reset, (sqlite3_stmt *stmt), (stmt), SQLITE_MISUSE) \
    X(int, sqlite3_clear_bindings, (sqlite3_stmt *stmt), (stmt), SQLITE_MISUSE) \
    X(int, sqlite3_column_count, (sqlite3_stmt *stmt), (stmt), 0) \
    X(int, sqlite3_column_type, (sqlite3_stmt *stmt, int iCol), (stmt, iCol), SQLITE_NULL) \
    X(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *stmt, int iCol), (stmt, iCol), NULL) \
    X(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *stmt, int iCol), (stmt, iCol), 0) \
    X(int, sqlite3_bind_int64, (sqlite3_stmt *stmt, int i, sqlite3_int64 value), (stmt, i, value), SQLITE_MISUSE) \
    X(int, sqlite3_bind_null, (sqlite3_stmt *stmt, int i), (stmt, i), SQLITE_MISUSE) \
    X(int, sqlite3_bind_text, (sqlite3_stmt *stmt, int i, const char *text, int n, void (*destructor)(void *)), \
      (stmt, i, text, n, destructor), SQLITE_MISUSE)

#define SEATMAP_SQLITE_PROCEDURES(X) \
    X(sqlite3_free, (void *p), (p))

SEATMAP_SQLITE_FUNCTIONS(SEATMAP_LAZY_POINTER)
SEATMAP_SQLITE_PROCEDURES(SEATMAP_LAZY_PROCEDURE_POINTER)

SEATMAP_LAZY_OPENER(SEATMAP_SQLITE_FUNCTIONS, SEATMAP_SQLITE_PROCEDURES)

const char *seatmap_sqlite_load(void) { return seatmap_lazy_load(&lazy_lib, &once, open_library); }

/* Without SQLite, opening answers SQLITE_CANTOPEN and the messages say
   why (the caller asks seatmap_sqlite_load first); the others need a
   connection or a statement, which only an opened SQLite hands out. */
SEATMAP_SQLITE_FUNCTIONS(SEATMAP_LAZY_FORWARD)
SEATMAP_SQLITE_PROCEDURES(SEATMAP_LAZY_FORWARD_PROCEDURE)
