/* CPangoHeaders compiles nothing of its own: it is the include path of
   Pango's headers (see include/module.modulemap). */
int seatmap_pango_headers_unused;
