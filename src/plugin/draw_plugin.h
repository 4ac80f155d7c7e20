/* draw_plugin.h (internal): the contract between the mmm binary and its
 * drawing plugin, mmm-draw.so.
 *
 * The plugin holds the drawing module (viz/: Graphviz, PLplot, cairo,
 * pango) and the part of the core it needs.  The binary links the core
 * only, and the loader of this folder (draw_shim.c, a static library the
 * binary links: the drawing module as the binary sees it), which
 * dlopen()s the plugin the first time a drawing function is called, then
 * looks each public drawing function (mmm_render_*, mmm_plot_*,
 * mmm_gantt_*, mmm_report_*) up by its name.
 *
 * Where the binary looks, first hit wins:
 *   1. $MMM_DRAW_PLUGIN, the path of the file (tests, unusual layouts);
 *   2. DIR/MMM_PLUGIN_REL/mmm-draw.so, DIR being the folder of the running
 *      executable (/proc/self/exe) and MMM_PLUGIN_REL the installed
 *      relative path from BINDIR to LIBDIR/mmm (so a moved prefix works);
 *   3. DIR/mmm-draw.so, where the build tree puts it. */
#ifndef MMM__DRAW_PLUGIN_H
#define MMM__DRAW_PLUGIN_H

#include "mmm/export.h"

#define MMM_DRAW_PLUGIN_FILE "mmm-draw.so"
#define MMM_DRAW_PLUGIN_ENV "MMM_DRAW_PLUGIN"

/* The version the plugin was built as (MMM_VERSION_STRING); the binary
 * refuses a plugin of another version. */
MMM_API const char *mmm_draw_plugin_version(void);

#endif
