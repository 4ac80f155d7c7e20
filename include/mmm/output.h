/**
 * mmm/output.h: what the `mmm` command prints, as library calls.
 *
 * The text, JSON and CSV output of analyze, compare, optimize, simulate,
 * scale, fit and calibrate is written by the calls below: a program that
 * links libmmm and makes the same calls as the command prints the same
 * bytes.  Output goes to an mmm_writer: a FILE of the caller (the command
 * writes to stdout) or a memory buffer.  The library writes only there,
 * only when called: messages about the input (errors, notes) stay the
 * caller's.
 *
 *   mmm_writer *w;
 *   if (mmm_writer_new(&w, stdout, MMM_FORMAT_JSON, &err) < 0) ...
 *   mmm_write_analysis(w, inst, &metrics, NULL, 0, 0, &err);  // mmm analyze --format json
 *   mmm_writer_free(w);
 *
 * A writer holds the state of one document: make one per output (the
 * JSON of `mmm simulate -p 1,2` or of a sweep is one document written by
 * several calls).  Every call returns 0 or a negative mmm_status:
 * MMM_EINVAL for a NULL argument or a format the output has not (fit and
 * calibrate have no CSV), MMM_ENOMEM, MMM_EIO from mmm_writer_flush when
 * the stream failed.
 */
#ifndef MMM_OUTPUT_H
#define MMM_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/eval.h"
#include "mmm/metrics.h"
#include "mmm/tmm.h"
#include "mmm/timemodel.h"
#include "mmm/roofline.h"
#include "mmm/fit.h"
#include "mmm/calibrate.h"
#include "mmm/import.h"
#include "mmm/optimize.h"
#include "mmm/sim.h"
#include "mmm/scale.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The writer ---- */

typedef enum mmm_format {
    MMM_FORMAT_TEXT = 0, /**< the tables a person reads */
    MMM_FORMAT_JSON,     /**< RFC 8259, numbers as JSON numbers */
    MMM_FORMAT_CSV       /**< RFC 4180, a header line first */
} mmm_format;

typedef struct mmm_writer mmm_writer;

/** A writer to f (not closed by mmm_writer_free). */
MMM_API int mmm_writer_new(mmm_writer **out, FILE *f, mmm_format format,
                           mmm_error *err);
/** A writer to a memory buffer that grows as needed (mmm_writer_data). */
MMM_API int mmm_writer_new_memory(mmm_writer **out, mmm_format format,
                                  mmm_error *err);
/** What a memory writer holds so far (NUL-terminated, owned by the
 *  writer, valid until the next call on it), its length in *len (may be
 *  NULL); NULL for a writer to a FILE or when w is NULL. */
MMM_API const char *mmm_writer_data(mmm_writer *w, size_t *len);
/** Flush the stream: MMM_EIO when it has failed at any point. */
MMM_API int mmm_writer_flush(mmm_writer *w, mmm_error *err);
MMM_API void mmm_writer_free(mmm_writer *w);

/* ---- The models of `analyze --model` (docs/tmm.md, docs/time.md) ---- */

enum {
    MMM_MODEL_MMM = 1u,     /**< the MMM measures and bounds */
    MMM_MODEL_TMM = 2u,     /**< the threaded many-core memory model */
    MMM_MODEL_BALANCE = 4u, /**< the balance principle */
    MMM_MODEL_ALL = 7u,     /**< "all": mmm, tmm and balance */
    MMM_MODEL_TIME = 8u     /**< the time model's predicted seconds */
};
/** "mmm", "tmm", "balance", "time", "all" or a comma list of them
 *  ("tmm,balance") into MMM_MODEL_* bits: 0, or MMM_EINVAL. */
MMM_API int mmm_models_parse(unsigned *out, const char *text);

/** How the time model launches the kernels. */
typedef enum mmm_launch {
    MMM_LAUNCH_PARAM = 0, /**< as the parameter 'graph' says (default stream) */
    MMM_LAUNCH_STREAM,    /**< one launch after the other on a stream */
    MMM_LAUNCH_GRAPH      /**< replayed as a CUDA graph */
} mmm_launch;
/** "stream" or "graph": 0, or MMM_EINVAL. */
MMM_API int mmm_launch_parse(mmm_launch *out, const char *name);

typedef struct mmm_models {
    unsigned which;      /**< MMM_MODEL_* bits */
    mmm_tmm tmm;         /**< when which has MMM_MODEL_TMM */
    mmm_balance balance; /**< when which has MMM_MODEL_BALANCE */
    mmm_time time;       /**< when which has MMM_MODEL_TIME */
} mmm_models;

/** The models `which` names (MMM_MODEL_MMM needs nothing here: the
 *  measures are mmm_metrics) for an evaluated instance.  On failure (a
 *  machine parameter missing, ...) *m is disposed.  A zeroed mmm_models
 *  may be disposed. */
MMM_API int mmm_models_compute(mmm_models *m, const mmm_instance *inst,
                               unsigned which, mmm_launch launch,
                               mmm_error *err);
MMM_API void mmm_models_dispose(mmm_models *m);
/** mmm_time_compute with the machine of the instance's parameters and
 *  the launch mode. */
MMM_API int mmm_models_time(mmm_time *t, const mmm_instance *inst,
                            mmm_launch launch, mmm_error *err);

/* ---- One call per command ---- */

/**
 * `mmm analyze`: the measures, bounds, critical paths and the kernel
 * table of an evaluated instance and its metrics, then the sections of
 * models (NULL: the MMM alone).  max_rows: text rows of the kernel tables
 * (0 = all).  totals: CSV of the program's totals (measure,value) instead
 * of one row per kernel.
 */
MMM_API int mmm_write_analysis(mmm_writer *w, const mmm_instance *inst,
                               const mmm_metrics *m, const mmm_models *models,
                               int64_t max_rows, int totals, mmm_error *err);

/** One program of `mmm compare`. */
typedef struct mmm_comparison_side {
    const mmm_instance *inst;
    const mmm_metrics *metrics;
    const mmm_time *time;      /**< NULL: no time model (compare --time) */
    const mmm_models *models;  /**< NULL: the MMM alone; its time is not
                                    shown (that is the field above) */
} mmm_comparison_side;

/** `mmm compare A B`: each measure side by side with the ratio A/B and
 *  the ratios of the bounds; corollary_only leaves Graham-Brent out. */
MMM_API int mmm_write_comparison(mmm_writer *w, const mmm_comparison_side *a,
                                 const mmm_comparison_side *b,
                                 int corollary_only, mmm_error *err);

/**
 * `mmm simulate`: begin, then one mmm_write_simulation per number of
 * SMs, then end.  list: more than one p follows (JSON: one object whose
 * "runs" hold them all).  file is the name the text shows.  Each call
 * writes the runs of one p: runs[0..nruns), all: one run per policy
 * (--policy all), best: the index marked best, mmm_bound: the
 * Graham-Brent bound (N/p + L)C at that p.
 */
MMM_API int mmm_write_simulation_begin(mmm_writer *w, const mmm_program *prog,
                                       const char *file, int list,
                                       mmm_error *err);
MMM_API int mmm_write_simulation(mmm_writer *w, const mmm_sim_result *runs,
                                 size_t nruns, int all, size_t best,
                                 double mmm_bound, mmm_error *err);
MMM_API int mmm_write_simulation_end(mmm_writer *w, mmm_error *err);

/** `mmm scale`: the speedup table; all: --policy all (one makespan per
 *  policy); file is the name the text shows.  MMM_ENOMEM leaves the text
 *  table out. */
MMM_API int mmm_write_speedup(mmm_writer *w, const mmm_program *prog,
                              const char *file, const mmm_speedup *s, int all,
                              mmm_error *err);
/** The same with measured speedups m (may be NULL; `mmm scale
 *  --measured`): the text ends with a table per p (runs, median, least
 *  and largest speedup), JSON has "measured" [{p, speedup}] (every run,
 *  by increasing p); CSV is the same as without. */
MMM_API int mmm_write_speedup_measured(mmm_writer *w, const mmm_program *prog,
                                       const char *file, const mmm_speedup *s, int all,
                                       const mmm_speedup_measured *m, mmm_error *err);

/**
 * `mmm optimize`: begin when the sweep is resolved (plan, npoints: from
 * mmm_sweep_resolve), mmm_write_sweep_point for every point (it is an
 * mmm_sweep_fn: pass it to mmm_sweep_run with the writer as payload, or
 * call it from yours), end after the run.  max_rows: text rows of the
 * table (evenly spaced, plus the best, the baseline and the minimizers;
 * 0 = all, printed as they come past 20000).  At the end, at_best is the
 * instance evaluated at the best point, best and baseline the metrics of
 * the best point and the baseline (mmm_sweep_eval); they are not read
 * when the sweep found no feasible point.
 */
MMM_API int mmm_write_sweep_begin(mmm_writer *w, const mmm_program *prog,
                                  const mmm_sweep_result *plan,
                                  const mmm_sweep_spec *spec, uint64_t npoints,
                                  int64_t max_rows, mmm_error *err);
MMM_API int mmm_write_sweep_point(const mmm_sweep_point *pt, const mmm_error *why,
                                  void *writer);
MMM_API int mmm_write_sweep_end(mmm_writer *w, const mmm_sweep_result *res,
                                const mmm_instance *at_best,
                                const mmm_metrics *best,
                                const mmm_metrics *baseline, mmm_error *err);

/**
 * `mmm optimize` once its spec is made: resolve the sweep
 * (mmm_sweep_resolve), write its beginning, run it (mmm_sweep_run) with
 * every point written and then handed to fn with payload when fn is not
 * NULL (a figure: its error stops the sweep), evaluate the baseline and
 * the best point (mmm_sweep_eval: the instance is left at the best
 * point), write the end.  res receives the summary.  A sweep that fails
 * flushes the writer's stream first (the rows before the failure come
 * before the caller's message about it).  A sweep without a
 * feasible point is written whole, then MMM_EINFEASIBLE at the program's
 * file: "no feasible value in the sweep (s = 3: the reason)".
 */
MMM_API int mmm_write_sweep(mmm_writer *w, mmm_sweep_result *res, mmm_instance *inst,
                            const mmm_sweep_spec *spec, int64_t max_rows,
                            mmm_sweep_fn fn, void *payload, mmm_error *err);

/** `mmm roofline`: the roofs and one row per kernel (mmm/roofline.h);
 *  file is the name the text and JSON show (NULL: the program's). */
MMM_API int mmm_write_roofline(mmm_writer *w, const mmm_program *prog,
                               const char *file, const mmm_roofline *r,
                               mmm_error *err);

/** What `mmm fit` shows (text or JSON). */
typedef struct mmm_fit_report {
    const mmm_time_machine *machine; /**< with the fitted constants */
    const int *fitted;               /**< MMM_TIME_NCONST flags: fitted */
    const mmm_fit_result *result;    /**< its predicted[] follow runs[] */
    const mmm_fit_run *runs;
    size_t nruns;
    size_t nprograms;
    const char *written; /**< the machine file written, or NULL */
} mmm_fit_report;

MMM_API int mmm_write_fit(mmm_writer *w, const mmm_fit_report *r, mmm_error *err);
/**
 * `mmm fit --plot`: the drawing module's figure of r's runs (PLplot; .svg,
 * .png or .pdf by path's extension, atomically): above, each run's
 * predicted time against its measured time on log axes, one colour per
 * program (the first ten; the others share an eleventh), with the line
 * predicted = measured and the band of ±15 %; below, the relative error
 * (predicted − measured) / measured in % against the measured time.
 * MMM_EINVAL (no run, a format, a build without PLplot), MMM_EIO,
 * MMM_ENOMEM.
 */
MMM_API int mmm_fit_plot_write(const mmm_fit_report *r, const char *path, mmm_error *err);

/** `mmm calibrate`: the device and every measured figure (text or JSON). */
MMM_API int mmm_write_calibration(mmm_writer *w, const mmm_calib *c,
                                  mmm_error *err);

/** The comment `mmm convert` writes at the head of the XML of a program
 *  read from source with report rep (mmm_program_read_file), costs in
 *  seconds written in time_unit: the version, the format, the tasks and
 *  edges, the reader's note.  Into buf (cut to size); returns buf. */
MMM_API char *mmm_import_comment(char *buf, size_t size, const char *source,
                                 const mmm_import_report *rep,
                                 mmm_time_unit time_unit);

/* ---- Several files: `mmm analyze A.xml B.xml ...`, `mmm convert ... -o DIR` ---- */

/** What a run over several files says of each one when it is done with
 *  it: the lines to show (notes, warnings), then err when the file
 *  failed (NULL when it succeeded).  The caller prints them; the run goes
 *  on with the next file. */
typedef void (*mmm_file_fn)(void *payload, const char *path,
                            const mmm_notes *notes, const mmm_error *err);

/** How mmm_analyze_files reads and analyses each file. */
typedef struct mmm_analyze_options {
    unsigned int version;   /**< MMM_ANALYZE_OPTIONS_VERSION */
    mmm_open_options open;  /**< how each file is opened (-D, -p,
                                 --machine, the reader's options) */
    unsigned models;        /**< MMM_MODEL_* bits (default MMM_MODEL_MMM) */
    mmm_launch launch;      /**< the time model's launches */
    int64_t max_rows;       /**< text rows of the kernel tables (0 = all) */
    int totals;             /**< CSV: the totals (measure,value) */
    mmm_file_fn on_file;    /**< told of each file (may be NULL) */
    void *payload;          /**< on_file's */
} mmm_analyze_options;

#define MMM_ANALYZE_OPTIONS_VERSION 1
#define MMM_ANALYZE_OPTIONS_INIT                                              \
    {.version = MMM_ANALYZE_OPTIONS_VERSION, .open = MMM_OPEN_OPTIONS_INIT,   \
     .models = MMM_MODEL_MMM, .launch = MMM_LAUNCH_PARAM, .max_rows = 200,    \
     .totals = 0, .on_file = NULL, .payload = NULL}
/** Set *opt to the defaults (MMM_ANALYZE_OPTIONS_INIT). */
MMM_API void mmm_analyze_options_init(mmm_analyze_options *opt);

/**
 * `mmm analyze FILE...`: open each file (mmm_program_open), compute its
 * measures and models and write its analysis (mmm_write_analysis).  One
 * file is written as mmm_write_analysis writes it.  Several: text gives
 * each a header line "==> FILE <==" (a blank line between files); JSON
 * one object per line, a file that failed as {"file": ..., "error": ...};
 * CSV one table whose first column is `file` (its header once).  A file
 * that fails is told to on_file with its error and skipped: the others
 * are still written.  *nfailed (may be NULL) counts the files that
 * failed.  Returns 0 when it went through every file (whether or not
 * some failed), or a negative status when it could not go on (a writer
 * error, bad options, out of memory) with err set.
 */
MMM_API int mmm_analyze_files(mmm_writer *w, const char *const *paths, size_t n,
                              const mmm_analyze_options *opt, size_t *nfailed,
                              mmm_error *err);

/** How mmm_convert_files reads each file and where "-" goes. */
typedef struct mmm_convert_options {
    unsigned int version;   /**< MMM_CONVERT_OPTIONS_VERSION */
    mmm_open_options open;  /**< how each file is opened */
    FILE *out_stream;       /**< what an output named "-" is (the caller's
                                 stdout); NULL: "-" is refused */
    mmm_file_fn on_file;    /**< told of each file (may be NULL) */
    void *payload;          /**< on_file's */
} mmm_convert_options;

#define MMM_CONVERT_OPTIONS_VERSION 1
#define MMM_CONVERT_OPTIONS_INIT                                              \
    {.version = MMM_CONVERT_OPTIONS_VERSION, .open = MMM_OPEN_OPTIONS_INIT,   \
     .out_stream = NULL, .on_file = NULL, .payload = NULL}
/** Set *opt to the defaults (MMM_CONVERT_OPTIONS_INIT). */
MMM_API void mmm_convert_options_init(mmm_convert_options *opt);

/**
 * `mmm convert IN... -o OUT`: each file read in any format and written
 * as mmm's XML (mmm_program_save_xml, atomically) with the comment of
 * mmm_import_comment.  out is the file to write when it is not a folder
 * and one file is given ("-": opt->out_stream); else a folder (made when
 * missing and several files are given) that receives BASE.xml for each
 * IN (its name without its extension).  A file that would overwrite its
 * input, or an output written earlier in the run, fails (told to
 * on_file) and the others go on.  *nfailed as mmm_analyze_files; returns
 * 0, or a negative status (out unusable: MMM_EINVAL or MMM_EIO) with err
 * set.
 */
MMM_API int mmm_convert_files(const char *const *paths, size_t n, const char *out,
                              const mmm_convert_options *opt, size_t *nfailed,
                              mmm_error *err);

#ifdef __cplusplus
}
#endif
#endif
