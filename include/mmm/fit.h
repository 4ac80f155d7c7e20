/**
 * mmm/fit.h: measured runs (a CSV file) and the fit of the time model's
 * constants to them (docs/time.md, section "Fitting").
 *
 * A runs file: a header line, then one row per timed run.  Columns:
 *   program                  the <program name> the row ran (required)
 *   time_ms | time_s | time_us   the measured time (exactly one of them)
 *   launch                   optional: stream or graph (else the reader's
 *                            default launch mode)
 *   any other                a parameter of the program when it declares
 *                            one of that name (a blank cell keeps the
 *                            default), otherwise ignored
 * Fields are separated by commas, may be quoted ("a,b", "" for a quote);
 * CRLF line ends are fine.  Every error is FILE:LINE.
 */
#ifndef MMM_FIT_H
#define MMM_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/timemodel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mmm_run_row {
    long line;
    const char *program;
    double seconds;      /**< measured, > 0 */
    int graph;           /**< 1: graph replay, 0: stream */
    const char **cells;  /**< one per column ("" when blank) */
} mmm_run_row;

typedef struct mmm_runs {
    const char *file;
    size_t ncols;
    const char **columns;   /**< header names */
    int program_col, time_col, launch_col; /**< -1 when absent */
    size_t nrows;
    mmm_run_row *rows;
    void *priv;
} mmm_runs;

/** Read a runs file; graph_default is the launch mode of rows without a
 *  launch column (0 stream, 1 graph).  Limits: 64 MiB, 1,000,000 rows,
 *  256 columns. */
MMM_API int mmm_runs_read_file(mmm_runs **out, const char *path, int graph_default,
                               mmm_error *err);
/** The same from memory; name is used in messages. */
MMM_API int mmm_runs_read_memory(mmm_runs **out, const char *buf, size_t len,
                                 const char *name, int graph_default,
                                 mmm_error *err);
MMM_API void mmm_runs_free(mmm_runs *r);

/**
 * The overrides of row `row` for program p: every column naming a
 * parameter of p with a non-blank cell.  ov must hold r->ncols entries.
 * A cell that is not a number is MMM_EINPUT at the row's line.
 */
MMM_API int mmm_runs_overrides(const mmm_runs *r, size_t row, const mmm_program *p,
                               mmm_override *ov, size_t *nov, mmm_error *err);

/* ------------------------------------------------------------------ */
/* The fit                                                            */

/** One sample: an evaluated instance, its launch mode, its measure. */
typedef struct mmm_fit_sample {
    const mmm_instance *inst;
    int graph;
    double seconds;
} mmm_fit_sample;

typedef struct mmm_fit_options {
    unsigned int version; /**< MMM_FIT_OPTIONS_VERSION (the INIT macro, mmm_fit_options_init) */
    int fit[MMM_TIME_NCONST];  /**< 1: fit constant i; 0: keep it */
    int max_iter;              /**< per start; 0: 100 */
} mmm_fit_options;

#define MMM_FIT_OPTIONS_VERSION 1
/** Keep every constant (fit[] all 0), max_iter the default; set fit[i]
 *  to choose.  (A NULL options pointer fits every constant.) */
#define MMM_FIT_OPTIONS_INIT {.version = MMM_FIT_OPTIONS_VERSION, .fit = {0}, .max_iter = 0}
/** Set *opt to MMM_FIT_OPTIONS_INIT. */
MMM_API void mmm_fit_options_init(mmm_fit_options *opt);

typedef struct mmm_fit_result {
    double cost;               /**< Σ (ln predicted − ln measured)² */
    int iterations;
    double median_rel_error, max_rel_error; /**< |pred − meas| / meas */
    double *predicted;         /**< per sample, seconds (caller frees with
                                    mmm_fit_result_dispose) */
    /* How well the runs determine each fitted constant i (NAN for the
     * constants kept): */
    int at_bound[MMM_TIME_NCONST];  /**< -1, +1: ended at its lower, upper
                                         bound; 0 otherwise */
    double rel_sd[MMM_TIME_NCONST]; /**< standard deviation of ln c_i (about
                                         its relative uncertainty) from the
                                         Gauss–Newton covariance
                                         s²(JᵀJ)⁻¹, s² = cost / (runs −
                                         constants), over the constants
                                         inside their bounds; INFINITY
                                         when no run depends on it or the
                                         runs cannot tell it from the
                                         others (JᵀJ singular); NAN at a
                                         bound or with no more runs than
                                         constants */
    double corr[MMM_TIME_NCONST][MMM_TIME_NCONST]; /**< correlation of
                                         ln c_i and ln c_j from the same
                                         covariance; when JᵀJ is singular,
                                         minus the cosine of the angle
                                         between their columns of J (the
                                         same for two constants near that
                                         limit); NAN for constants kept,
                                         at a bound or without effect.
                                         Near ±1: the runs trade one for
                                         the other */
} mmm_fit_result;

/** A measured run of `mmm fit`: row `row` of runs, a run of program. */
typedef struct mmm_fit_run {
    const mmm_runs *runs;
    size_t row;
    const mmm_program *program;
} mmm_fit_run;

/** The samples of measured runs, and the runs they come from. */
typedef struct mmm_fit_samples {
    size_t n;
    mmm_fit_sample *samples; /**< n: for mmm_time_fit */
    mmm_fit_run *runs;       /**< n: where sample i comes from (the
                                  mmm_fit_report of mmm/output.h) */
    mmm_instance **inst;     /**< n: the instances of the samples */
} mmm_fit_samples;

/**
 * Every row of runs[0 .. nruns), in order, as a sample: the program of
 * progs[0 .. nprogs) its `program` cell names (the first of that name),
 * evaluated with the definitions defs[0 .. ndefs) ("NAME=VALUE", as -D:
 * mmm_overrides_parse; a name that one program does not declare is
 * skipped for it, with one note per program into notes, which may be
 * NULL), then the row's parameters (mmm_runs_overrides).  A row naming
 * no program given is MMM_EINPUT at its line (the message lists the
 * programs); a row its program cannot be evaluated at is the
 * evaluation's error at the row's line; two programs of one name are
 * MMM_EINPUT at the second's file and line.  *out is filled in any case and
 * must be released with mmm_fit_samples_dispose.
 */
MMM_API int mmm_fit_samples_make(mmm_fit_samples *out, mmm_runs *const *runs,
                                 size_t nruns, mmm_program *const *progs,
                                 size_t nprogs, const char *const *defs,
                                 size_t ndefs, mmm_notes *notes, mmm_error *err);
MMM_API void mmm_fit_samples_dispose(mmm_fit_samples *s);

/**
 * Fit the constants marked in opt->fit, starting from m's values (zero or
 * out-of-bounds starts are moved inside the bounds of
 * mmm_time_const_bounds), to minimize Σ (ln t̂ − ln t)² by a projected
 * Levenberg–Marquardt iteration in log space (each constant in its box).
 * m receives the fitted constants.  opt NULL: every constant is fitted,
 * at most 100 iterations per start.  Errors: a sample the model cannot
 * predict (its message), MMM_ENOMEM, MMM_EINVAL (no samples).
 */
MMM_API int mmm_time_fit(mmm_time_machine *m, const mmm_fit_sample *s, size_t n,
                         const mmm_fit_options *opt, mmm_fit_result *res,
                         mmm_error *err);
MMM_API void mmm_fit_result_dispose(mmm_fit_result *res);

/** Predicted seconds of one evaluated instance with machine m in launch
 *  mode graph. */
MMM_API int mmm_time_predict(const mmm_time_machine *m, const mmm_instance *inst,
                             int graph, double *seconds, mmm_error *err);

/**
 * Write a machine file (atomically): the parameters of `base` (may be
 * NULL) in order, with each fitted constant's value replaced or added,
 * each with a comment giving its unit and meaning.  name is the
 * <machine name>.  note (may be NULL) becomes a leading comment.
 */
MMM_API int mmm_time_machine_write(const char *path, const char *name,
                                   const mmm_machine *base, const mmm_time_machine *m,
                                   const char *note, mmm_error *err);
/** The note `mmm fit -o` heads its machine file with: the constants
 *  fitted to nruns runs, res's median and largest relative error, the
 *  other parameters those of base_path.  Into buf (cut to size); returns
 *  buf. */
MMM_API char *mmm_fit_note(char *buf, size_t size, const mmm_fit_result *res,
                           size_t nruns, const char *base_path);

#ifdef __cplusplus
}
#endif
#endif
