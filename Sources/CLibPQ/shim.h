#ifndef SEATMAP_CLIBPQ_SHIM_H
#define SEATMAP_CLIBPQ_SHIM_H
#include <libpq-fe.h>
/* PG_DIAG_SQLSTATE is a character macro: the field code as an int. */
static inline int seatmap_pg_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }
#endif
