/**
 * mmm/scale.h: speedup over the number of SMs p (`mmm scale`), in the
 * manner of Cilkview (He, Leiserson, Leiserson, "The Cilkview Scalability
 * Analyzer", SPAA 2010), for the two-level model.
 *
 * For each p of a list, one row: the lower bound max(T1/p, critical
 * path), Graham's bound T1/p + (1 - 1/p)·critical path, the Graham–Brent
 * bound (N/p + L)·C, the corollary (N/K + L)·C (which holds only when
 * p >= K: otherwise the row has none), the makespan of a greedy schedule
 * under one or more policies (mmm/sim.h) and the speedup range
 * T1/Graham <= T1/T_p <= T1/lower bound.  T1 is the sum of the block
 * costs S(B) + O(B): the makespan on one SM.  The critical path is the
 * longest block path weighted by the same costs.
 *
 * When the program declares a parameter p, each row evaluates the program
 * again with that p (its kernels may depend on it); otherwise the program
 * is evaluated once and only the schedules and bounds change with p.
 *
 *   mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
 *   mmm_speedup s;
 *   if (mmm_speedup_compute(&s, inst, ov, nov, &o, &err) < 0) ...
 *   for (i = 0; i < s.nrows; i++) ... s.rows[i].p, s.rows[i].speedup_max ...
 *   mmm_speedup_dispose(&s);
 *
 * Measured speedups (a CSV file, mmm_speedup_measured_read_file) can be
 * given with the options: the default list of p then includes their p;
 * mmm_write_speedup_measured (mmm/output.h) and
 * mmm_speedup_plot_write_measured show them beside the bounds, in the
 * manner of Cilkscale.
 */
#ifndef MMM_SCALE_H
#define MMM_SCALE_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most rows of a sweep (a list or a range A..B longer than this is
 *  refused with MMM_ELIMIT). */
#define MMM_SPEEDUP_MAX_ROWS 100000

/** One measured speedup: a row of the file (or the median of the rows of
 *  one p). */
typedef struct mmm_speedup_point {
    int64_t p;
    double speedup;
    long line;      /**< the row's line in the file (0 for a median) */
} mmm_speedup_point;

/**
 * Measured speedups: a CSV file with a header line naming its columns,
 * then one row per run (several runs of one p allowed):
 *
 *   p          the number of SMs (an integer >= 1), required
 *   speedup    the measured speedup T1 / T(p), or
 *   seconds    the measured time (or time_s, time_ms, time_us, as in the
 *              runs file of mmm/fit.h); exactly one of these columns
 *   any other  ignored (a runs file of `mmm fit` with a p column serves)
 *
 * From times, T1 is the median of the times at p = 1 (a file of times
 * without a row of p = 1 is refused) and each row's speedup is T1 over
 * its time.  Fields are separated by commas and may be quoted ("a,b", ""
 * for a quote); blank lines are skipped; every error is FILE:LINE.
 * Limits: 64 MiB, 1,000,000 rows, 256 columns.
 */
typedef struct mmm_speedup_measured {
    const char *file;            /**< its name in messages */
    int from_seconds;            /**< 1: the file gave times */
    double t1;                   /**< from times: the median time at p = 1,
                                      in seconds; else 0 */
    size_t n;
    mmm_speedup_point *points;   /**< every row, by increasing p (rows of
                                      one p in the file's order) */
    size_t nmedians;
    mmm_speedup_point *medians;  /**< one per p, increasing: the median
                                      speedup of its rows (the mean of the
                                      middle two for an even count) */
} mmm_speedup_measured;

/** Read a file of measured speedups ("-": standard input).  MMM_EINPUT
 *  at the line of the first problem (a missing or repeated column, a
 *  field that is not a number, p < 1 or not an integer, a time or
 *  speedup <= 0, times without p = 1, no rows), MMM_ELIMIT, MMM_EIO,
 *  MMM_ENOMEM; *out is NULL then. */
MMM_API int mmm_speedup_measured_read_file(mmm_speedup_measured **out, const char *path,
                                           mmm_error *err);
/** The same from memory; name is used in messages. */
MMM_API int mmm_speedup_measured_read_memory(mmm_speedup_measured **out, const char *buf,
                                             size_t len, const char *name,
                                             mmm_error *err);
MMM_API void mmm_speedup_measured_free(mmm_speedup_measured *m);

typedef struct mmm_speedup_options {
    unsigned int version; /**< MMM_SPEEDUP_OPTIONS_VERSION (the INIT macro, mmm_speedup_options_init) */
    const int64_t *p;     /**< the p of the rows (each > 0); NULL: the
                               default list (mmm_speedup_default_p) */
    size_t np;
    const mmm_sim_policy *const *policies; /**< NULL: fifo only */
    size_t npolicies;
    uint64_t seed;        /**< for the random policy (default 1) */
    int64_t max_launches; /**< per simulation; 0: the simulator's default */
    mmm_progress_fn progress; /**< (version 2) "p = P", the rows done of
                                   all, and each simulation's; NULL: none */
    void *progress_payload;
    const mmm_speedup_measured *measured; /**< (version 3) measured
                                   speedups (borrowed): their p join the
                                   default list; NULL: none */
} mmm_speedup_options;

/** The defaults; a NULL options pointer means the same. */
#define MMM_SPEEDUP_OPTIONS_VERSION 3
#define MMM_SPEEDUP_OPTIONS_INIT                                              \
    {.version = MMM_SPEEDUP_OPTIONS_VERSION, .p = NULL, .np = 0, .policies = NULL, .npolicies = 0, .seed = 1,         \
     .max_launches = 0, .progress = NULL, .progress_payload = NULL, .measured = NULL}
/** Set *opt to the defaults (MMM_SPEEDUP_OPTIONS_INIT). */
MMM_API void mmm_speedup_options_init(mmm_speedup_options *opt);

typedef struct mmm_speedup_row {
    int64_t p;
    double lower_bound;   /**< max(T1/p, critical path) */
    double graham;        /**< T1/p + (1 - 1/p)·critical path */
    double graham_brent;  /**< (N/p + L)·C */
    int has_corollary;    /**< p >= K (and K > 0) */
    double corollary;     /**< (N/K + L)·C when has_corollary, else 0 */
    double *makespan;     /**< one per policy (points into the result) */
    double speedup_min;   /**< T1 / graham */
    double speedup_max;   /**< T1 / lower_bound */
    double T1;            /**< T1 of this row (differs from the header's
                               only when the program declares p) */
} mmm_speedup_row;

typedef struct mmm_speedup {
    /* The program as evaluated (at the instance's p, if any). */
    double W, S, parallelism;  /**< parallelism = W/S */
    double T1;                 /**< Σ over the blocks of S(B) + O(B) */
    double critical_path;      /**< longest block path, by cost */
    int64_t N, L, K;
    double C;
    int has_p;                 /**< the instance's own p (the machine's) */
    int64_t p;
    int p_dependent;           /**< the program declares p: each row was
                                    evaluated with its own p */
    size_t npolicies;
    const mmm_sim_policy **policies;
    size_t nrows;
    mmm_speedup_row *rows;       /**< by increasing p as given */
    double *makespans_;        /**< storage of the rows' makespans */
} mmm_speedup;

/**
 * The default list of p: 1, 2, 4, ... up to the first power of two past
 * the parallelism (the larger of W/S and T1 / critical path, but at most
 * N, at least 1), plus p_machine when positive, in increasing order
 * without repetition.  (mmm_speedup_compute adds the p of measured
 * speedups.)  *out is malloc'ed.  0 or MMM_ENOMEM.
 */
MMM_API int mmm_speedup_default_p(int64_t **out, size_t *n, double parallelism,
                                int64_t N, int64_t p_machine, mmm_error *err);

/**
 * Parse a list of p: comma-separated items, each a positive integer or a
 * range A..B (every integer from A to B), spaces allowed around items.
 * *out is malloc'ed (sorted, without repetition).  MMM_EINVAL with a
 * message saying what is wrong, MMM_ELIMIT past MMM_SPEEDUP_MAX_ROWS values,
 * MMM_ENOMEM.
 */
MMM_API int mmm_speedup_parse_p(int64_t **out, size_t *n, const char *text,
                              mmm_error *err);

/**
 * Compute the sweep.  inst is an instance of a program evaluated with the
 * overrides ov[0..nov) (they are reused when the program declares p; an
 * override of p among them is replaced by each row's p).  inst is not
 * modified.  Errors: those of mmm_instance_eval, mmm_metrics_compute and
 * mmm_simulate (an infeasible p for a p-dependent program included),
 * MMM_EINVAL for a p <= 0.  *out is filled (and must be disposed) only on
 * success.
 */
MMM_API int mmm_speedup_compute(mmm_speedup *out, const mmm_instance *inst,
                              const mmm_override *ov, size_t nov,
                              const mmm_speedup_options *opt, mmm_error *err);
MMM_API void mmm_speedup_dispose(mmm_speedup *s);

/**
 * Cilkview's picture: speedup against p on log axes, with the band of the
 * speedup range (T1/Graham .. T1/lower bound), the simulated speedup of
 * each policy and the line of perfect speedup; K and the instance's p
 * marked.  The format comes from the extension (.svg, .png, .pdf);
 * atomic.  Needs PLplot (mmm/plot.h).
 */
MMM_API int mmm_speedup_plot_write(const mmm_speedup *s, const char *program_name,
                                 const char *path, mmm_error *err);
/**
 * The same picture with measured speedups m (may be NULL) over it: each
 * run a black dot (up to 10,000 runs) and the medians per p joined by a
 * black line.
 */
MMM_API int mmm_speedup_plot_write_measured(const mmm_speedup *s,
                                            const mmm_speedup_measured *m,
                                            const char *program_name, const char *path,
                                            mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
