/**
 * mmm/profile.h: DAG files from Nsight Compute captures (`mmm profile`,
 * docs/profile.md).
 *
 * Three parts:
 *
 *   - The reader of a capture written by `ncu --csv --page raw` (with or
 *     without `--print-units base`, a targeted metric list or a whole
 *     `--set full`): one record per profiled kernel launch, each with the
 *     quantities mmm needs (mmm_ncu_quantity), read from the metrics
 *     named by mmm_ncu_source.  A file that is not such a capture, or a
 *     damaged one, is refused with FILE:LINE and what is missing.
 *   - The fit of an expression through points (mmm_profile_fit): the
 *     simplest expression in the parameters (products and quotients of
 *     small powers of the parameters and of their log2, ceil and floor of
 *     quotients) that gives every point's value exactly, else the best
 *     approximation with its largest relative error.
 *   - The build (mmm_profile_build): a POINTS.csv naming one capture per
 *     row (column `ncu`) with the parameters' values, and optionally a
 *     skeleton DAG file whose costs are written "?", into the text of a
 *     DAG file whose kernels carry the measured attributes, each as an
 *     exact expression in the parameters where one exists.
 *
 *
 * And the run that makes the captures (mmm_profile_run): a program
 * under ncu once per point of a grid of parameter values, its captures
 * and their POINTS.csv in a folder, for mmm_profile_build.  The one call
 * of the library that starts processes.
 */
#ifndef MMM_PROFILE_H
#define MMM_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/expr.h"
#include "mmm/program.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Nsight Compute captures                                             */

/** What mmm reads of one launch (each from one metric, or a sum or
 *  difference of metrics: mmm_ncu_source says which in a given file). */
typedef enum mmm_ncu_quantity {
    MMM_NCU_BLOCKS = 0,        /**< thread blocks of the grid */
    MMM_NCU_THREADS,           /**< threads per block */
    MMM_NCU_REGISTERS,         /**< registers per thread */
    MMM_NCU_SHARED_STATIC,     /**< static shared memory per block, bytes */
    MMM_NCU_SHARED_DYNAMIC,    /**< dynamic shared memory per block, bytes */
    MMM_NCU_WARPS,             /**< warps launched */
    MMM_NCU_WARP_INST,         /**< warp-level instructions executed */
    MMM_NCU_THREAD_INST,       /**< thread-level instructions executed */
    MMM_NCU_LOAD_BYTES,        /**< bytes the threads' global loads ask for */
    MMM_NCU_STORE_BYTES,       /**< bytes of their global stores */
    MMM_NCU_ATOMIC_BYTES,      /**< bytes of their global atomics and reductions */
    MMM_NCU_ATOMIC_INST,       /**< warp-level global atomic and reduction instructions */
    MMM_NCU_BARRIER_INST,      /**< warp-level block-wide barrier instructions */
    MMM_NCU_SHARED_WAVEFRONTS, /**< shared-memory wavefronts */
    MMM_NCU_GLOBAL_WAVEFRONTS, /**< L1 wavefronts of global (and local) accesses */
    MMM_NCU_LOAD_SECTORS,      /**< 32-byte sectors global loads asked the L1 for */
    MMM_NCU_STORE_SECTORS,     /**< sectors of global stores at the L1 */
    MMM_NCU_L2_READ_SECTORS,   /**< sectors the L2 served to the L1s' reads */
    MMM_NCU_L2_READ_HITS,      /**< of those, the sectors found in the L2 */
    MMM_NCU_L2_WRITE_SECTORS,  /**< sectors the L1s wrote to the L2 */
    MMM_NCU_DRAM_READ_BYTES,   /**< bytes read from device memory */
    MMM_NCU_DRAM_WRITE_BYTES,  /**< bytes written to device memory */
    MMM_NCU_DURATION_NS,       /**< the launch's duration, nanoseconds */
    MMM_NCU_NQUANTITIES
} mmm_ncu_quantity;

/** Which metric list mmm_ncu_metric_list gives. */
typedef enum mmm_ncu_set {
    MMM_NCU_SET_LAUNCH = 0, /**< launch statistics only: blocks, threads,
                                 registers, shared memory (cheap: no replay) */
    MMM_NCU_SET_FULL = 1    /**< every quantity above */
} mmm_ncu_set;

/** One capture: the profiled launches of one file, in launch order. */
typedef struct mmm_ncu_capture mmm_ncu_capture;

/** Read a file written by `ncu --csv --page raw` (its --log-file, or its
 *  standard output: the program's own lines and ncu's "==PROF==" lines
 *  around the table are skipped; an "==ERROR==" line is an error), or
 *  the launch trace that libmmm_trace.so writes for `mmm profile run`
 *  (it begins "# mmm launch trace": every launch with its launch
 *  statistics, in issue order; docs/profile.md).
 *  At most max_bytes bytes (0: 1 GiB). */
MMM_API int mmm_ncu_read_file(mmm_ncu_capture **out, const char *path,
                              uint64_t max_bytes, mmm_error *err);
/** The same from memory; name is used in messages. */
MMM_API int mmm_ncu_read_memory(mmm_ncu_capture **out, const char *buf,
                                size_t len, const char *name, mmm_error *err);
MMM_API void mmm_ncu_free(mmm_ncu_capture *c);

/** The file name given to the reader. */
MMM_API const char *mmm_ncu_file(const mmm_ncu_capture *c);
/** Number of launches. */
MMM_API size_t mmm_ncu_count(const mmm_ncu_capture *c);
/** Launch i's kernel name as ncu wrote it ("void sgemm<16>(float *, int)"). */
MMM_API const char *mmm_ncu_kernel(const mmm_ncu_capture *c, size_t i);
/** Launch i's line in the file. */
MMM_API long mmm_ncu_line(const mmm_ncu_capture *c, size_t i);
/** Launch i's "ID" (ncu's number of the profiled launch). */
MMM_API int64_t mmm_ncu_id(const mmm_ncu_capture *c, size_t i);
/** Launch i's stream, "CONTEXT/STREAM" as ncu numbers them (a launch
 *  trace: CUPTI's stream id). */
MMM_API const char *mmm_ncu_stream(const mmm_ncu_capture *c, size_t i);
/** Quantity q of launch i into *out: 1 when the capture measured it, 0
 *  when not (the metric is not in the file, or its cell is empty or
 *  "n/a").  Exact when read in the metric's base unit: a value ncu scaled
 *  ("2.10 Mbyte") is inexact. */
MMM_API int mmm_ncu_value(const mmm_ncu_capture *c, size_t i,
                          mmm_ncu_quantity q, mmm_value *out);
/** The metric, or the sum or difference of metrics, quantity q was read
 *  from in this capture ("smsp__inst_executed.sum"); NULL when the
 *  capture has none of the metrics mmm knows for it. */
MMM_API const char *mmm_ncu_source(const mmm_ncu_capture *c,
                                   mmm_ncu_quantity q);
/** A short name of the quantity ("warp_instructions"); NULL out of range. */
MMM_API const char *mmm_ncu_quantity_name(mmm_ncu_quantity q);
/** The metrics to ask ncu for (--metrics), comma-separated. */
MMM_API const char *mmm_ncu_metric_list(mmm_ncu_set set);

/* ------------------------------------------------------------------ */
/* Expressions through points                                          */

typedef struct mmm_profile_fit_result {
    char text[1024];      /**< the expression ("3*n*s + 2"), "" when none */
    int exact;            /**< 1: gives every point's value exactly */
    double max_rel_error; /**< largest |f(x) - y| / |y| over the points
                               (absolute error where y = 0); 0 when exact */
    size_t terms;         /**< terms of the expression (a constant counts) */
} mmm_profile_fit_result;

/**
 * The simplest expression of the variables names[0 .. nvars) through the
 * points (x[i*nvars + j] the value of variable j at point i, y[i] the
 * value there), i < npoints.  Exact where it can be: the expression with
 * the fewest terms, then the smallest powers, whose exact evaluation by
 * the expression language (docs/expressions.md) gives every y exactly;
 * it must leave at least one point beyond its number of coefficients to
 * check it.  Otherwise the least-squares fit of relative error with the
 * fewest terms that comes near the best, with exact = 0 and its largest
 * relative error.  A variable that is 0 or negative at some point is
 * never divided by and never under a log2.  MMM_EINVAL for a missing
 * argument or no points; MMM_ENOMEM.
 */
MMM_API int mmm_profile_fit(const char *const *names, size_t nvars,
                            const mmm_value *x, const mmm_value *y,
                            size_t npoints, mmm_profile_fit_result *res,
                            mmm_error *err);

/* ------------------------------------------------------------------ */
/* Building the DAG file                                               */

typedef struct mmm_profile_options {
    unsigned int version; /**< MMM_PROFILE_OPTIONS_VERSION (the INIT macro, mmm_profile_options_init) */
    const char *skeleton; /**< a skeleton DAG file to fill in; NULL: none */
    const char *name;     /**< the program's name; NULL: the skeleton's,
                               else the POINTS file's name */
    mmm_limits limits;    /**< of the skeleton and of each file read */
} mmm_profile_options;

#define MMM_PROFILE_OPTIONS_VERSION 1
#define MMM_PROFILE_OPTIONS_INIT \
    {.version = MMM_PROFILE_OPTIONS_VERSION, .skeleton = NULL, .name = NULL, .limits = MMM_LIMITS_INIT}
/** Set *opt to the defaults (MMM_PROFILE_OPTIONS_INIT). */
MMM_API void mmm_profile_options_init(mmm_profile_options *opt);

/** The DAG built from the captures. */
typedef struct mmm_profile mmm_profile;

/**
 * Read POINTS.csv (a header with a column `ncu`, the path of a capture
 * relative to the POINTS file, and one column per parameter; two rows with
 * the same values are one run whose sample and launch list are in two
 * files), every capture it names, and the skeleton when there is one, and
 * build the DAG file: its text is mmm_profile_xml.  Every error is
 * FILE:LINE with what is wrong (a capture that is not one, a launch the
 * skeleton lacks, launch structures that differ between points without a
 * skeleton, ...).
 */
MMM_API int mmm_profile_build(mmm_profile **out, const char *points_path,
                              const mmm_profile_options *opt, mmm_error *err);
MMM_API void mmm_profile_free(mmm_profile *p);

/** The DAG file's text (UTF-8, NUL-terminated), owned by p. */
MMM_API const char *mmm_profile_xml(const mmm_profile *p);
/** Write it to path atomically (a temporary renamed over the target: a
 *  failure leaves no partial file and an existing target as it was). */
MMM_API int mmm_profile_save_xml(const mmm_profile *p, const char *path,
                                 mmm_error *err);
/** What the build says about the points: launches, sampled
 *  configurations, approximate attributes (one line each). */
MMM_API size_t mmm_profile_nnotes(const mmm_profile *p);
MMM_API const char *mmm_profile_note(const mmm_profile *p, size_t i);
/** Points, kernels of the DAG, and the kernels' attributes written as an
 *  approximation (not exact at every point). */
MMM_API size_t mmm_profile_npoints(const mmm_profile *p);
MMM_API size_t mmm_profile_nkernels(const mmm_profile *p);
MMM_API size_t mmm_profile_napprox(const mmm_profile *p);
/** What p holds, in words, for the line a tool shows after writing it:
 *  "3 kernels from 4 points, 2 attributes approximate" (the last part
 *  only when some are).  Into buf (cut to size); returns buf. */
MMM_API char *mmm_profile_summary(const mmm_profile *p, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Running a program under ncu (`mmm profile run`)                     */

/** The parameters' values a program is run at: every point of the grid
 *  of their lists, the last parameter varying fastest. */
typedef struct mmm_profile_grid mmm_profile_grid;

/** An empty grid (one point, no parameters). */
MMM_API int mmm_profile_grid_new(mmm_profile_grid **out, mmm_error *err);
/** Add a parameter given as "NAME=LIST" (n=1024,2^12: constant
 *  expressions; commas inside parentheses do not split).  MMM_EINVAL,
 *  the message naming the option --param of `mmm profile run`: not
 *  NAME=LIST, more than 16 parameters, a name given twice, an empty
 *  value or one of 256 characters or more, one that is not a number,
 *  more than 4096 values; MMM_ENOMEM. */
MMM_API int mmm_profile_grid_add(mmm_profile_grid *g, const char *text,
                                 mmm_error *err);
MMM_API void mmm_profile_grid_free(mmm_profile_grid *g);

typedef struct mmm_profile_run_options {
    unsigned int version; /**< MMM_PROFILE_RUN_OPTIONS_VERSION (the INIT
                               macro, mmm_profile_run_options_init) */
    const char *ncu;    /**< the ncu to run; NULL: ncu in PATH, else
                             /usr/local/cuda/bin/ncu, else the newest
                             /opt/nvidia/nsight-compute/VERSION/ncu */
    const char *keep;   /**< the folder of the captures and POINTS.csv
                             (made when missing, left in place); NULL: a
                             temporary folder in TMPDIR (else /tmp) that
                             mmm_profile_captures_free removes */
    int64_t samples;    /**< launches of each configuration (kernel,
                             grid, block, shared memory) measured with
                             every metric, standing for the others; 0:
                             every launch, in one run of ncu a point */
    /** What to show while it runs, one line at a time without a newline:
     *  a warning about a parameter no argument uses, each run of ncu
     *  once the whole is past a second ("point 1/4 (n=1024): the list of
     *  launches...", then every 10 s), the time taken at the end.  NULL:
     *  nothing is shown. */
    void (*progress)(const char *line, void *payload);
    void *payload;
    /** (version 2) The launch tracer, libmmm_trace.so (built with CUDA's
     *  CUPTI), that lists every launch, memcpy and memset of the program
     *  at the program's own speed, where a listing pass of ncu costs
     *  milliseconds a launch.  NULL: $MMM_TRACER, else the one beside the
     *  running program, else the installed one, else none; "": none (ncu
     *  lists the launches).  Used when samples > 0. */
    const char *tracer;
} mmm_profile_run_options;

#define MMM_PROFILE_RUN_OPTIONS_VERSION 2
#define MMM_PROFILE_RUN_OPTIONS_INIT                                          \
    {.version = MMM_PROFILE_RUN_OPTIONS_VERSION, .ncu = NULL, .keep = NULL,   \
     .samples = 1, .progress = NULL, .payload = NULL, .tracer = NULL}
/** Set *opt to the defaults (MMM_PROFILE_RUN_OPTIONS_INIT). */
MMM_API void mmm_profile_run_options_init(mmm_profile_run_options *opt);

/** The captures of a run: a folder with POINTS.csv. */
typedef struct mmm_profile_captures mmm_profile_captures;

/**
 * Run the command argv[0 .. argc) (argv[0] a path, or a name found in
 * PATH) under ncu at every point of grid (NULL: one point), each {NAME}
 * in an argument replaced by the point's value of NAME: once for the list
 * of every launch (launch statistics only, no replay) and once with every
 * metric for the first opt->samples launches of each configuration (or,
 * with samples 0, once with every metric for every launch).  The ncu
 * runs with the caller's environment, its input /dev/null, its output
 * into the folder; the call waits for it.  Writes the POINTS.csv of the
 * captures (mmm_profile_captures_points) for mmm_profile_build.
 * Errors (no file): ncu or the command not found (MMM_EINPUT), more than
 * 10000 points (MMM_ELIMIT), a folder or file that cannot be written, ncu
 * failing (MMM_EIO: "point 1/4 (n=1024): the list of launches: ncu
 * exited with status 1"; then details, which may be NULL, receives the
 * lines that follow the error: ncu's last ==ERROR== lines, a missing
 * NVIDIA driver, ...).  On failure a temporary folder is removed.
 */
MMM_API int mmm_profile_run(mmm_profile_captures **out, const mmm_profile_grid *grid,
                            char *const *argv, size_t argc,
                            const mmm_profile_run_options *opt, mmm_notes *details,
                            mmm_error *err);
/** The captures' POINTS.csv (in the kept or temporary folder). */
MMM_API const char *mmm_profile_captures_points(const mmm_profile_captures *c);
/** Free c; a temporary folder is removed with the files the run wrote. */
MMM_API void mmm_profile_captures_free(mmm_profile_captures *c);

#ifdef __cplusplus
}
#endif
#endif
