#ifndef SEATMAP_CSQLITE_SHIM_H
#define SEATMAP_CSQLITE_SHIM_H
#include <sqlite3.h>
/* SQLITE_TRANSIENT is a cast macro Swift cannot import: bind copies text. */
static inline int seatmap_sqlite_bind_text(sqlite3_stmt *s, int i, const char *text, int length) {
    return sqlite3_bind_text(s, i, text, length, SQLITE_TRANSIENT);
}
#endif
