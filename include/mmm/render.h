/**
 * mmm/render.h: pictures of an evaluated program (Graphviz, in-process).
 *
 * Kernel level: one node per kernel (a repeat drawn once, marked ×k) with
 * its measures, the critical kernel paths highlighted, nodes filled by a
 * measure on a colour scale with a legend, and a title with the program
 * name, the parameter values, the totals and the bounds.
 * Block level: each launch of each kernel is a cluster of its thread
 * blocks; refused above max_nodes so that the layout stays fast.
 *
 * DOT output is the graph before layout, with the measures as node, edge
 * and graph attributes (W, S, O, blocks, repeat, ...) for networkx, Gephi
 * or SimGrid.  At block level the DOT lists every edge of the thread-block
 * DAG (the pictures draw one edge per pair of launches instead).
 *
 *   mmm_render_options o = MMM_RENDER_OPTIONS_INIT;
 *   o.format = MMM_RENDER_PNG;
 *   if (mmm_render_file("dag.png", inst, &metrics, &o, &err) < 0) ...
 *
 * Graphviz is not thread-safe: render from one thread at a time.
 */
#ifndef MMM_RENDER_H
#define MMM_RENDER_H

#include <stddef.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/metrics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mmm_render_format {
    MMM_RENDER_SVG = 0,
    MMM_RENDER_PNG = 1,
    MMM_RENDER_PDF = 2,
    MMM_RENDER_DOT = 3
} mmm_render_format;

typedef enum mmm_render_level {
    MMM_LEVEL_KERNEL = 0, /**< one node per kernel */
    MMM_LEVEL_BLOCK = 1   /**< one node per thread block */
} mmm_render_level;

/** The measure that fills the nodes. */
typedef enum mmm_render_color {
    MMM_COLOR_OVERHEAD = 0, /**< O(K); at block level O(B) */
    MMM_COLOR_WORK = 1,     /**< W(K); W(B) */
    MMM_COLOR_SPAN = 2,     /**< S(K); S(B) */
    MMM_COLOR_COST = 3,     /**< max S(B)+O(B) of the kernel; S(B)+O(B) */
    MMM_COLOR_NONE = 4      /**< no fill, no legend */
} mmm_render_color;

#define MMM_RENDER_MAX_NODES_DEFAULT 2000

typedef struct mmm_render_options {
    unsigned int version; /**< MMM_RENDER_OPTIONS_VERSION (the INIT macro, mmm_render_options_init) */
    mmm_render_format format;
    mmm_render_level level;
    mmm_render_color color;
    size_t max_nodes;   /**< refuse to draw more nodes; 0 = 2000 */
    double dpi;         /**< PNG resolution; 0 = 144 */
} mmm_render_options;

/** The defaults (a NULL options pointer means the same). */
#define MMM_RENDER_OPTIONS_VERSION 1
#define MMM_RENDER_OPTIONS_INIT \
    {.version = MMM_RENDER_OPTIONS_VERSION, .format = MMM_RENDER_SVG, .level = MMM_LEVEL_KERNEL, \
     .color = MMM_COLOR_OVERHEAD, .max_nodes = 0, .dpi = 0.0}
/** Set *opt to the defaults (MMM_RENDER_OPTIONS_INIT). */
MMM_API void mmm_render_options_init(mmm_render_options *opt);

/** 1 when the drawing functions (this header, plot.h, gantt.h, report.h,
 *  sweep_plot.h) can draw: always in libmmm-draw.  The mmm binary loads
 *  them from a plugin on first use; there 0 says why it cannot, in a
 *  sentence in *reason (may be NULL). */
MMM_API int mmm_draw_available(const char **reason);

/** "svg", "png", "pdf", "dot" (case-insensitive).  MMM_EINVAL otherwise. */
MMM_API int mmm_render_format_parse(mmm_render_format *out, const char *name);
/** The format from a file name's extension (.svg .png .pdf .dot .gv).
 *  MMM_EINVAL when the extension is missing or unknown. */
MMM_API int mmm_render_format_from_path(mmm_render_format *out, const char *path);
/** "kernel" or "block". */
MMM_API int mmm_render_level_parse(mmm_render_level *out, const char *name);
/** "overhead", "work", "span", "cost" or "none". */
MMM_API int mmm_render_color_parse(mmm_render_color *out, const char *name);
MMM_API const char *mmm_render_format_name(mmm_render_format f);

/**
 * Render into memory.  *out (NUL-terminated after *len_out bytes, so an SVG
 * or DOT can be used as a string) is owned by the caller: release it with
 * free().  m must come from mmm_metrics_compute on inst (with the paths
 * and K).  Errors: MMM_ELIMIT (too many nodes for the level, or too many
 * block edges for a block-level DOT), MMM_EIO (Graphviz failed, with its
 * message), MMM_ENOMEM.
 */
MMM_API int mmm_render_memory(char **out, size_t *len_out, const mmm_instance *inst,
                              const mmm_metrics *m, const mmm_render_options *opt,
                              mmm_error *err);

/** Render into path, atomically: on any error an existing file at path is
 *  left as it was. */
MMM_API int mmm_render_file(const char *path, const mmm_instance *inst,
                            const mmm_metrics *m, const mmm_render_options *opt,
                            mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
