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
    MMM_COLOR_NONE = 4,     /**< no fill, no legend */
    MMM_COLOR_TYPE = 5,     /**< the kind of task (mmm_kernel_type, else the id
                                 without its number), one colour each */
    MMM_COLOR_AUTO = 6      /**< (default) type when the kernels have declared
                                 types (imported task graphs), else the first
                                 of overhead, work, span, cost that varies; the
                                 legend says which */
} mmm_render_color;

/** Whether a large kernel DAG is drawn condensed: one node per kind of
 *  kernel (MMM_COLOR_TYPE's kinds) per level (longest-path depth), with
 *  its count; a chain of such nodes of one kind and count folded into one. */
typedef enum mmm_render_condense {
    MMM_CONDENSE_AUTO = 0,   /**< above MMM_RENDER_CONDENSE_ABOVE kernels, or
                                  when a level holds more than
                                  MMM_RENDER_CONDENSE_WIDE */
    MMM_CONDENSE_ALWAYS = 1,
    MMM_CONDENSE_NEVER = 2
} mmm_render_condense;
#define MMM_RENDER_CONDENSE_ABOVE 200
#define MMM_RENDER_CONDENSE_WIDE 40

/** What the kernel level shows. */
typedef enum mmm_render_view {
    MMM_VIEW_ALL = 0,      /**< every kernel (or the condensed DAG) */
    MMM_VIEW_CRITICAL = 1  /**< the kernels of the critical path, each as
                                itself, the others condensed around them */
} mmm_render_view;

/** Direction of the levels (Graphviz's rankdir). */
typedef enum mmm_render_rankdir {
    MMM_RANKDIR_TB = 0, MMM_RANKDIR_LR = 1, MMM_RANKDIR_BT = 2, MMM_RANKDIR_RL = 3
} mmm_render_rankdir;

#define MMM_RENDER_MAX_SIDE_PX 8000
#define MMM_RENDER_MAX_ASPECT 8

#define MMM_RENDER_MAX_NODES_DEFAULT 2000

typedef struct mmm_render_options {
    unsigned int version; /**< MMM_RENDER_OPTIONS_VERSION (the INIT macro, mmm_render_options_init) */
    mmm_render_format format;
    mmm_render_level level;
    mmm_render_color color;
    size_t max_nodes;   /**< refuse to draw more nodes; 0 = 2000 */
    double dpi;         /**< PNG resolution; 0 = 144 */
    /* Added in version 2 (a version 1 caller gets the defaults). */
    mmm_render_condense condense; /**< MMM_CONDENSE_AUTO */
    mmm_render_view view;         /**< MMM_VIEW_ALL */
    mmm_render_rankdir rankdir;   /**< MMM_RANKDIR_TB */
    double max_side_px;  /**< a picture larger than this many pixels on a side
                              (PNG: at its dpi; SVG: CSS pixels, 96 per inch;
                              PDF: points) is scaled down; 0 = 8000 */
    double max_aspect;   /**< a layout longer than this times its width (or
                              the reverse) is spread out to it; 0 = 8 */
    mmm_notes *notes;    /**< receives a line saying what was condensed or
                              scaled ("FILE: note: condensed 1,738 tasks into
                              9 nodes over 9 levels ..."); NULL: dropped */
} mmm_render_options;

/** The defaults (a NULL options pointer means the same). */
#define MMM_RENDER_OPTIONS_VERSION 2
#define MMM_RENDER_OPTIONS_INIT \
    {.version = MMM_RENDER_OPTIONS_VERSION, .format = MMM_RENDER_SVG, .level = MMM_LEVEL_KERNEL, \
     .color = MMM_COLOR_AUTO, .max_nodes = 0, .dpi = 0.0, .condense = MMM_CONDENSE_AUTO, \
     .view = MMM_VIEW_ALL, .rankdir = MMM_RANKDIR_TB, .max_side_px = 0.0, .max_aspect = 0.0, \
     .notes = NULL}
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
/** "overhead", "work", "span", "cost", "none", "type" or "auto". */
MMM_API int mmm_render_color_parse(mmm_render_color *out, const char *name);
/** "auto", "always" or "never". */
MMM_API int mmm_render_condense_parse(mmm_render_condense *out, const char *name);
/** "all" or "critical". */
MMM_API int mmm_render_view_parse(mmm_render_view *out, const char *name);
/** "TB", "LR", "BT" or "RL" (case-insensitive). */
MMM_API int mmm_render_rankdir_parse(mmm_render_rankdir *out, const char *name);
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
