/**
 * mmm/sweep_plot.h: the figure of a parameter sweep (`mmm optimize --plot`
 * and the sweeps of `mmm report`).
 *
 * One swept parameter: W, S and O each in its own panel (its own y axis),
 * then the Graham–Brent bound (when p is known) and the corollary bound.
 * Two: one curve of O and of the bound per sampled value of the second
 * parameter (at most 10, each its own colour), the curve through the best
 * point in black.  Vertical marks
 * at the best point, the baseline and the bounds' minimizers.
 *
 *   mmm_sweep_plot *sp;
 *   mmm_sweep_resolve(&plan, &n, inst, &spec, &err);
 *   mmm_sweep_plot_new(&sp, prog, &plan, plan.axes[0].count, &err);
 *   mmm_sweep_run(&res, inst, &spec, fn, payload, &err);
 *       (fn calls mmm_sweep_plot_add(sp, pt) for every point)
 *   mmm_sweep_plot_write(sp, &res, inst, &spec, "sweep.svg", &err);
 *   mmm_sweep_plot_free(sp);
 */
#ifndef MMM_SWEEP_PLOT_H
#define MMM_SWEEP_PLOT_H

#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/optimize.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mmm_sweep_plot mmm_sweep_plot;

/**
 * An empty figure for the sweep whose axes plan resolved (mmm_sweep_resolve;
 * borrowed, like prog, until mmm_sweep_plot_free), with about npoints
 * values of the first parameter (for the decimation of the curves).
 * 0, MMM_EINVAL (no axis; more than two axes, or a list of tuples: the
 * figure draws one parameter or the grid of two) or MMM_ENOMEM.
 */
MMM_API int mmm_sweep_plot_new(mmm_sweep_plot **out, const mmm_program *prog,
                               const mmm_sweep_result *plan, uint64_t npoints,
                               mmm_error *err);

/** Add a point (from the mmm_sweep_run callback).  0 or MMM_ENOMEM. */
MMM_API int mmm_sweep_plot_add(mmm_sweep_plot *sp, const mmm_sweep_point *pt);

/**
 * Draw the figure of the finished sweep res into path (.svg, .png or .pdf,
 * any case), atomically, as mmm_plot_write.  With two parameters, when the
 * best point's value of the second was not among the curves, the first is
 * swept again at that value (mmm_sweep_run on inst with spec), so inst is
 * re-evaluated.  Call once.
 */
MMM_API int mmm_sweep_plot_write(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                                 mmm_instance *inst, const mmm_sweep_spec *spec,
                                 const char *path, mmm_error *err);

MMM_API void mmm_sweep_plot_free(mmm_sweep_plot *sp);

#ifdef __cplusplus
}
#endif
#endif
