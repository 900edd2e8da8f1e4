#ifndef SEATMAP_CLIBPQ_SHIM_H
#define SEATMAP_CLIBPQ_SHIM_H
/* Debian keeps libpq's headers in /usr/include/postgresql; others in
   /usr/include. The module links libpq (module.modulemap). */
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
/* PG_DIAG_SQLSTATE is a character macro: the field code as an int. */
static inline int seatmap_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
#endif
