/**
 * mmm/optimize.h: parameter sweeps, and the MMM recipe for choosing a
 * program parameter (Haque, Moreno Maza, Xie 2014):
 *
 *   pick s in a range S minimizing the parallelism overhead O(s) while the
 *   work W(s) and the span S(s) stay within a constant factor, then check
 *   with the Graham–Brent bound that the running-time estimate at that s is
 *   no worse than at a baseline s0.
 *
 * A sweep runs over one parameter, or over the grid of several (and lists
 * of tuples of parameters).  Each point is one mmm_instance_eval (with the
 * sweep values as overrides) and one mmm_metrics_compute on the same
 * instance: O(kernels + classes) per point, nothing is reloaded or
 * expanded.  A point that violates a constraint or a range, makes a count
 * non-integer (MMM_EINFEASIBLE), has no value (MMM_EDOMAIN) or overflows
 * (MMM_EOVERFLOW) is recorded as infeasible with its reason; the sweep
 * goes on.  So is a point one of whose launches exceeds a launch limit the
 * machine gives (mmm_time_check_launches: threads and shared memory per
 * block, threads, shared memory and registers per SM), whatever the
 * objective: every objective sweeps the same feasible points.
 *
 * Points are handed to a callback one at a time (nothing is stored per
 * point), so sweeps of millions of values run in constant memory; the
 * summary (best point, baseline, ratios, ranges, checks) is accumulated as
 * the sweep goes.
 *
 * Ties.  Two objective values within a relative 1e-12 of each other are
 * equal (the costs are doubles; this absorbs rounding in sums that are
 * equal in exact arithmetic).  Among equal values the smaller parameter
 * value wins (for several parameters: the smaller first one, then the
 * smaller second one, ...), whatever the order of the sweep.
 *
 *   mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
 *   mmm_sweep_result res;
 *   spec.naxes = 1;
 *   spec.axes[0].slot = mmm_program_find_param(prog, "s");
 *   if (mmm_sweep_run(&res, inst, &spec, NULL, NULL, &err) < 0) ...
 *   ... res.best.params[0], res.ratio_O, res.graham_brent_not_worse ...
 */
#ifndef MMM_OPTIMIZE_H
#define MMM_OPTIMIZE_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/expr.h"
#include "mmm/metrics.h"
#include "mmm/timemodel.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What the sweep minimizes. */
typedef enum mmm_objective {
    MMM_OBJECTIVE_OVERHEAD = 0,  /**< O, as in the slides (the default) */
    MMM_OBJECTIVE_BOUND = 1,     /**< Graham–Brent (N/p + L)·C; needs p */
    MMM_OBJECTIVE_COROLLARY = 2, /**< (N/K + L)·C, independent of p */
    MMM_OBJECTIVE_TIME = 3       /**< the time model's predicted seconds
                                      (mmm/timemodel.h; a double) */
} mmm_objective;

/** "overhead", "bound" or "corollary". */
MMM_API const char *mmm_objective_name(mmm_objective o);
/** Parse one of those names; MMM_EINVAL otherwise. */
MMM_API int mmm_objective_parse(mmm_objective *out, const char *name);

/** The most parameters one sweep varies (its axes). */
#define MMM_SWEEP_MAX_AXES 16
/** Default cap on the number of points of a sweep. */
#define MMM_SWEEP_DEFAULT_MAX_POINTS 100000000u

/**
 * One swept parameter.  Either an explicit list (values != NULL, nvalues >
 * 0, swept in that order) or a range from, from+step, ... up to to
 * (inclusive; down to it when step < 0).  A range end that is not given
 * defaults to the parameter's declared min (from) or max (to), evaluated
 * at the other parameters' values (defaults and fixed overrides); the step
 * defaults to 1.  When from, to and step are exact rationals the points are
 * exact; otherwise they are doubles from + i·step.  A geometric range
 * (geometric = 1) multiplies instead: from, from·step, from·step², ... as
 * long as the values do not pass to (step > 0 and not 1; from not 0).
 *
 * An axis with tied = 1 does not add a dimension: it moves with the axis
 * before it (a list of tuples, `--param bx,by --values 8x8,16x16`): both
 * are lists of the same length, and the sweep takes value i of one with
 * value i of the other.
 */
typedef struct mmm_sweep_axis {
    int slot;                  /**< mmm_program_find_param() */
    const mmm_value *values;   /**< explicit list, or NULL for a range */
    size_t nvalues;
    int has_from, has_to, has_step;
    mmm_value from, to, step;
    int geometric;             /**< step is a factor */
    int tied;                  /**< moves with the axis before it */
} mmm_sweep_axis;

/** What to sweep and how to judge it. */
typedef struct mmm_sweep_spec {
    unsigned int version; /**< MMM_SWEEP_SPEC_VERSION (the INIT macro, mmm_sweep_spec_init) */
    size_t naxes;                            /**< 1 .. MMM_SWEEP_MAX_AXES */
    mmm_sweep_axis axes[MMM_SWEEP_MAX_AXES]; /**< the grid of the axes,
                                                  axis 0 the outer loop */
    mmm_objective objective;
    const mmm_override *fixed;  /**< other overrides (-D); an override of a
                                     swept parameter is ignored */
    size_t nfixed;
    int has_p;                  /**< -p: sets p (the parameter "p" when the
                                     program declares it and does not sweep
                                     it, else mmm_instance_set_p) */
    int64_t p;
    int has_baseline;           /**< baseline[] given; else the first
                                     feasible point of the sweep */
    mmm_value baseline[MMM_SWEEP_MAX_AXES];
    uint64_t max_points;        /**< 0: MMM_SWEEP_DEFAULT_MAX_POINTS */
    int launch;                 /**< objective time: 0 the parameter
                                     'graph' (default stream), 1 stream,
                                     2 graph */
    /** (version 2) Called after each point that mmm_write_sweep writes,
     *  with "sweeping", the points done and their total, then once with
     *  NULL when the sweep ends; NULL: none. */
    mmm_progress_fn progress;
    void *progress_payload;
} mmm_sweep_spec;

#define MMM_SWEEP_SPEC_VERSION 2
/** No axis yet, every other field the default. */
#define MMM_SWEEP_SPEC_INIT {.version = MMM_SWEEP_SPEC_VERSION, .naxes = 0}
/** Set *spec to MMM_SWEEP_SPEC_INIT. */
MMM_API void mmm_sweep_spec_init(mmm_sweep_spec *spec);

/** A swept parameter as `mmm optimize` takes it: --param NAME, then
 *  --from A --to B --step K or --values LIST; NULL where not given.  The
 *  values are constant expressions (2^10, 1/2, 1e6), LIST a comma list
 *  of them (commas inside parentheses, as in min(a,b), do not split).  A
 *  step "*K" is a factor (a geometric range: A, A·K, A·K², ...).  NAME may
 *  be a comma list of parameters, "bx,by": a list of tuples, whose LIST
 *  gives each point as its values joined by 'x', "8x8,16x16,32x8" (tied
 *  axes, one per name). */
typedef struct mmm_sweep_axis_text {
    const char *name;
    const char *from, *to, *step, *values;
} mmm_sweep_axis_text;

/**
 * Fill spec->naxes, spec->axes and the baseline from texts, for program
 * prog (a text naming k parameters makes k tied axes); the other fields of spec (fixed, has_p, p, objective, ...) are
 * read (set them first) and kept.  axes[0 .. naxes): each a parameter of
 * prog or of its machine (else MMM_EINPUT at prog's file, which says how
 * to look at p when the name is p); a fixed override of a swept
 * parameter adds "FILE: note: -D NAME ignored: NAME is swept" (-p for
 * spec->has_p's override, the last one) to notes (may be NULL).
 * baseline: "V,V" in axis order or "NAME=V,NAME=V", NULL for none.
 * A value that is not a constant expression, a zero step, a baseline
 * that does not give one value per axis, the bound objective without p:
 * MMM_EINVAL (no file; the message names the option: "--from '2^': ...");
 * a value of 512 characters or more: MMM_ELIMIT.  The --values lists
 * are allocated: release them with mmm_sweep_spec_dispose, except on
 * failure, which releases them.
 */
MMM_API int mmm_sweep_spec_parse(mmm_sweep_spec *spec, const mmm_program *prog,
                                 const mmm_sweep_axis_text *axes, size_t naxes,
                                 const char *baseline, mmm_notes *notes,
                                 mmm_error *err);
/** Free the value lists of a spec filled by mmm_sweep_spec_parse (only
 *  such a spec: a caller's own lists are the caller's). */
MMM_API void mmm_sweep_spec_dispose(mmm_sweep_spec *spec);

/** A swept axis as resolved (ends and count known). */
typedef struct mmm_sweep_range {
    int slot;
    const mmm_value *values;   /**< the explicit list, or NULL */
    uint64_t count;            /**< number of values */
    mmm_value from, to, step;  /**< a range (to is the last value reached);
                                    for a list from/to are its first/last */
    int geometric;             /**< step is a factor */
    int tied;                  /**< moves with the axis before it */
} mmm_sweep_range;

/** Why a point is infeasible: its program, one of the machine's launch
 *  limits (the values of mmm_time_excess), or the time model. */
enum {
    MMM_SWEEP_WHY_PROGRAM = 0, /**< a constraint, a parameter's range, a
                                    count that is not an integer, a value
                                    that has none or overflows */
    /* 1 .. MMM_TIME_NEXCESS - 1: the mmm_time_excess of a launch limit */
    MMM_SWEEP_WHY_TIME = MMM_TIME_NEXCESS, /**< the time model refuses it
                                                otherwise (objective time) */
    MMM_SWEEP_NWHY
};

/** One point of a sweep (about 500 bytes; the callback gets it by
 *  reference, valid during the call only). */
typedef struct mmm_sweep_point {
    uint64_t index;                          /**< position in sweep order */
    mmm_value params[MMM_SWEEP_MAX_AXES];    /**< one per axis */
    int status;       /**< 0: feasible; else MMM_EINFEASIBLE, MMM_EDOMAIN
                           or MMM_EOVERFLOW and the measures are zero */
    int why;          /**< infeasible: MMM_SWEEP_WHY_* */
    double W, S, O, C;
    int64_t N, L, K;
    int has_p;
    int64_t p;
    double graham_brent;  /**< when has_p */
    double corollary;
    double objective;     /**< the value minimized */
    double seconds;       /**< objective time: predicted seconds, else 0 */
} mmm_sweep_point;

/**
 * Called for every point in sweep order.  why is NULL for a feasible point,
 * else the reason (message, file, line).  Return 0 to go on, or a negative
 * mmm_status to stop the sweep (mmm_sweep_run returns it).
 */
typedef int (*mmm_sweep_fn)(const mmm_sweep_point *pt, const mmm_error *why,
                            void *payload);

/** The summary of a sweep.  The point records are valid when has_best. */
typedef struct mmm_sweep_result {
    size_t naxes;
    mmm_sweep_range axes[MMM_SWEEP_MAX_AXES];
    uint64_t npoints;       /**< points evaluated */
    uint64_t nfeasible;
    int has_best;           /**< some point is feasible */
    mmm_sweep_point best;   /**< minimizes the objective */
    mmm_sweep_point baseline;
    int baseline_in_sweep;  /**< the baseline is one of the sweep's points */
    /* Minimizers of each criterion (ties as above). */
    mmm_sweep_point min_overhead;
    mmm_sweep_point min_bound;      /**< when has_p */
    mmm_sweep_point min_corollary;
    /* Baseline over best: > 1 means the best point is smaller.  NaN
     * (undefined) where the best point's value is 0 (O with U = 0). */
    double ratio_W, ratio_S, ratio_O, ratio_graham_brent, ratio_corollary;
    /* Extremes of W and S over the feasible points, and max/min. */
    double W_min, W_max, S_min, S_max, W_factor, S_factor;
    int has_p;              /**< every feasible point knows p */
    /* The slides' check: bound at best <= bound at baseline. */
    int graham_brent_not_worse;   /**< meaningful when has_p */
    int corollary_not_worse;
    mmm_error first_infeasible;   /**< reason of the first infeasible point
                                       (code 0 when none) */
    mmm_value first_infeasible_params[MMM_SWEEP_MAX_AXES];
    uint64_t infeasible_by[MMM_SWEEP_NWHY]; /**< infeasible points by
                                                 MMM_SWEEP_WHY_* */
    int limits_given;   /**< launch limits the machine gives (of
                             mmm_time_limits_get's five), enforced for
                             every objective; 0: none enforced (the time
                             objective still enforces its machine's) */
} mmm_sweep_result;

/**
 * Resolve the axes (default ranges from the parameter's min/max), then
 * evaluate every point, calling fn (may be NULL) for each, and fill out.
 * inst is the instance of the program (it is re-evaluated; afterwards it
 * holds the last point).  Errors: MMM_EINVAL (bad spec: unknown slot, zero
 * step, a range end missing and the parameter declares no min/max, an
 * empty range, too many points, the bound objective without p, two axes on
 * one parameter, a tied axis that is not a list of its head's length),
 * MMM_EINPUT (a launch limit of the machine out of range), MMM_EINFEASIBLE (an explicit baseline is infeasible: the
 * message says why), ENOMEM, a fatal evaluation error, or the callback's
 * code.  No feasible point is not an error: has_best is 0.
 */
MMM_API int mmm_sweep_run(mmm_sweep_result *out, mmm_instance *inst,
                          const mmm_sweep_spec *spec, mmm_sweep_fn fn, void *payload,
                          mmm_error *err);

/**
 * Only resolve the axes of spec (the ranges, their counts) into out->naxes
 * and out->axes, and the number of points into *npoints (may be NULL):
 * what mmm_sweep_run will sweep, for callers that size their output first.
 * Same errors as mmm_sweep_run before it evaluates points.
 */
MMM_API int mmm_sweep_resolve(mmm_sweep_result *out, uint64_t *npoints,
                              mmm_instance *inst, const mmm_sweep_spec *spec,
                              mmm_error *err);

/**
 * Evaluate inst at one point of the sweep (params[i] for axis i, with the
 * spec's fixed overrides and p) and compute its metrics with flags
 * (MMM_METRICS_*).  For the full analysis of the best point and the
 * baseline.  out must be disposed with mmm_metrics_dispose.
 */
MMM_API int mmm_sweep_eval(mmm_metrics *out, mmm_instance *inst,
                           const mmm_sweep_spec *spec, const mmm_value *params,
                           unsigned flags, mmm_error *err);

/** The i-th value (0-based) of a resolved axis. */
MMM_API mmm_value mmm_sweep_range_value(const mmm_sweep_range *r, uint64_t i);

/**
 * The swept parameters of pt, "NAME = V" joined by ", " in axis order
 * ("l = 128, s = 4"), names from prog and axes from res (resolved), into
 * buf (truncated to size).  Returns buf.
 */
MMM_API char *mmm_sweep_point_format(char *buf, size_t size,
                                     const mmm_program *prog,
                                     const mmm_sweep_result *res,
                                     const mmm_sweep_point *pt);

/** 1 when a and b differ in the value of some swept parameter of res. */
MMM_API int mmm_sweep_points_differ(const mmm_sweep_result *res,
                                    const mmm_sweep_point *a,
                                    const mmm_sweep_point *b);

#ifdef __cplusplus
}
#endif
#endif
