#ifndef SEATMAP_CCAIRO_SHIM_H
#define SEATMAP_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>
#endif
