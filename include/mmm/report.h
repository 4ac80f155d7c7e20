/**
 * mmm/report.h: one self-contained HTML page about an evaluated program.
 *
 * The page holds the measures and bounds, the parameters and constraints,
 * a per-kernel table, the kernel DAG as inline SVG (mmm/render.h), a sweep
 * of each parameter declared with a range (mmm/optimize.h, plotted with
 * mmm/plot.h when PLplot is built in) and, when p is known, the simulated
 * greedy schedules of every policy with the Gantt chart of the best one
 * (mmm/sim.h, mmm/gantt.h), and the speedup over p (mmm/scale.h: the
 * bounds, the fifo makespan and the speedup range for p = 1, 2, 4, ...,
 * with Cilkview's picture), and when the machine gives the time model's
 * constants (mmm/timemodel.h) the predicted seconds per kernel and the
 * roofline of the kernels (mmm/roofline.h: the picture and a table).  It
 * fetches nothing: no external script, style, font or image, and a
 * Content-Security-Policy that forbids them and allows only the page's own
 * inline script (by its SHA-256), which sorts the tables, folds those of
 * more than 50 rows and zooms the figures; without it every row and figure
 * is shown.
 *
 *   mmm_report_options o = MMM_REPORT_OPTIONS_INIT;
 *   if (mmm_report_write("report.html", inst, &metrics, &o, &err) < 0) ...
 */
#ifndef MMM_REPORT_H
#define MMM_REPORT_H

#include <stddef.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "mmm/render.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MMM_REPORT_MAX_SWEEPS 4

typedef struct mmm_report_options {
    unsigned int version; /**< MMM_REPORT_OPTIONS_VERSION (the INIT macro, mmm_report_options_init) */
    mmm_render_color color;   /**< fill of the DAG (default auto, as render's) */
    size_t max_nodes;         /**< largest DAG drawn; 0 = 2000 kernels */
    size_t max_rows;          /**< rows of the per-kernel tables; 0 = 5000
                                   (the page shows 50, "show all" the rest) */
    /** The overrides inst was evaluated with (-D), reused by the sweeps. */
    const mmm_override *overrides;
    size_t noverrides;
    /** Parameters to sweep by name; NULL = every program parameter that
     *  declares both min and max (at most MMM_REPORT_MAX_SWEEPS).  A name
     *  the program does not declare is MMM_EINPUT (at source). */
    const char *const *sweep;
    size_t nsweep;
    int no_sweep;             /**< leave the sweep section out */
    int no_simulation;        /**< leave the simulation and speedup
                                   sections out */
    const char *source;       /**< file name shown; NULL: program->file */
    mmm_progress_fn progress; /**< (version 2) each section as it is made
                                   ("drawing the DAG", "sweeping s",
                                   "simulating fifo", ...); NULL: none */
    void *progress_payload;
} mmm_report_options;

/** The defaults (a NULL options pointer means the same). */
#define MMM_REPORT_OPTIONS_VERSION 2
#define MMM_REPORT_OPTIONS_INIT \
    {.version = MMM_REPORT_OPTIONS_VERSION, .color = MMM_COLOR_AUTO, .max_nodes = 0, .max_rows = 0, \
     .overrides = NULL, .noverrides = 0, .sweep = NULL, .nsweep = 0, \
     .no_sweep = 0, .no_simulation = 0, .source = NULL, .progress = NULL, \
     .progress_payload = NULL}
/** Set *opt to the defaults (MMM_REPORT_OPTIONS_INIT). */
MMM_API void mmm_report_options_init(mmm_report_options *opt);

/**
 * Build the page into *out (NUL-terminated, *len_out bytes; release with
 * free()).  m must be the metrics of inst (with paths and K); inst is not
 * modified (sweeps run on an instance of their own).  A DAG too large to
 * draw, a sweep or a simulation that fails is reported in the page, not
 * as an error; errors are MMM_ENOMEM, MMM_EINVAL and MMM_EIO (Graphviz).
 */
MMM_API int mmm_report_html(char **out, size_t *len_out, const mmm_instance *inst,
                            const mmm_metrics *m, const mmm_report_options *opt,
                            mmm_error *err);

/** Build the page and write it to path atomically. */
MMM_API int mmm_report_write(const char *path, const mmm_instance *inst,
                             const mmm_metrics *m, const mmm_report_options *opt,
                             mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
