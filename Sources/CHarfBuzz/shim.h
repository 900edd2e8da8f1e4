#ifndef SEATMAP_CHARFBUZZ_SHIM_H
#define SEATMAP_CHARFBUZZ_SHIM_H
/* HarfBuzz's include path, which Pango's headers need (<hb.h>). */
#include <hb.h>
#endif
