/**
 * mmm/import.h: reading task graphs of other tools as programs.
 *
 * mmm_program_read_file reads a program from mmm's XML or from a task-graph
 * format, told apart by the file's content (the extension only breaks a
 * tie): Kasahara's Standard Task Graph (STG), WfCommons JSON, Pegasus DAX,
 * DOT task graphs and CUDA graph DOT (cudaGraphDebugDotPrint).  Each task of
 * a task-graph format becomes a kernel of one block whose work and span are
 * the task's cost, with no memory traffic; docs/formats.md has the details.
 *
 *   mmm_import_options io = MMM_IMPORT_OPTIONS_INIT;
 *   mmm_import_report rep;
 *   io.dot_reader = mmm_dot_read;            (mmm/import_dot.h, when built)
 *   if (mmm_program_read_file(&prog, "montage.json", &io, &rep, &err) < 0)
 *       ... err.file, err.line, err.message ...
 *   ... rep.warning, rep.note ...
 *
 * The DOT readers need Graphviz's cgraph; they live in a module of their
 * own (mmm/import_dot.h) and are handed to the dispatcher through the
 * options, so that the core library does not depend on Graphviz.
 * Readers of new formats use mmm_taskgraph, a builder of task graphs on
 * top of the program builder.
 */
#ifndef MMM_IMPORT_H
#define MMM_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mmm/export.h"
#include "mmm/error.h"
#include "mmm/program.h"
#include "mmm/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mmm_input_format {
    MMM_INPUT_UNKNOWN = 0, /**< detect from the content */
    MMM_INPUT_MMM,         /**< mmm's XML (<program>) */
    MMM_INPUT_STG,         /**< Standard Task Graph */
    MMM_INPUT_WFCOMMONS,   /**< WfCommons JSON (WfFormat) */
    MMM_INPUT_DAX,         /**< Pegasus DAX 2.x/3.x (<adag>) */
    MMM_INPUT_DOT,         /**< a DOT task graph */
    MMM_INPUT_CUDA_DOT     /**< cudaGraphDebugDotPrint output */
} mmm_input_format;

/** "mmm", "stg", "wfcommons", "dax", "dot", "cuda-dot" ("unknown"). */
MMM_API const char *mmm_input_format_name(mmm_input_format f);
/** The format of a file's first bytes (len of them; the first 64 KiB are
 *  enough), with path's extension breaking a tie (path may be NULL). */
MMM_API mmm_input_format mmm_input_detect(const char *buf, size_t len,
                                          const char *path);

/** Unit of the integers that costs given in seconds become. */
typedef enum mmm_time_unit {
    MMM_TIME_US = 0, /**< microseconds (default) */
    MMM_TIME_S,
    MMM_TIME_MS,
    MMM_TIME_NS
} mmm_time_unit;

/** "s", "ms", "us", "ns" into *out; -1 for anything else. */
MMM_API int mmm_time_unit_parse(const char *s, mmm_time_unit *out);

struct mmm_import_options;
struct mmm_import_report;

/** A reader of one format from memory (name is used in messages). */
typedef int (*mmm_import_reader)(mmm_program **out, const char *buf,
                                 size_t len, const char *name,
                                 const struct mmm_import_options *opt,
                                 struct mmm_import_report *rep,
                                 mmm_error *err);

typedef struct mmm_import_options {
    unsigned int version; /**< MMM_IMPORT_OPTIONS_VERSION (the INIT macro, mmm_import_options_init) */
    mmm_load_options load;     /**< limits, machine file, XML options */
    mmm_input_format format;   /**< MMM_INPUT_UNKNOWN: detect */
    mmm_time_unit time_unit;   /**< for costs in seconds */
    int negative_to_zero;      /**< 1: a negative cost becomes 0 with a
                                    warning; 0: it is an error */
    const char *cost_attr;     /**< DOT: the cost attribute, NULL = "size" */
    const char *costs_file;    /**< CUDA graph DOT: CSV name,work,span,
                                    reads,writes (per thread); NULL: the
                                    placeholder costs */
    mmm_import_reader dot_reader;      /**< NULL: DOT is refused */
    mmm_import_reader cuda_dot_reader; /**< NULL: CUDA DOT is refused */
} mmm_import_options;

/** The defaults; a NULL options pointer means the same. */
#define MMM_IMPORT_OPTIONS_VERSION 1
#define MMM_IMPORT_OPTIONS_INIT                                               \
    {.version = MMM_IMPORT_OPTIONS_VERSION, .load = MMM_LOAD_OPTIONS_INIT, .format = MMM_INPUT_UNKNOWN,              \
     .time_unit = MMM_TIME_US, .negative_to_zero = 0, .cost_attr = NULL,      \
     .costs_file = NULL, .dot_reader = NULL, .cuda_dot_reader = NULL}
/** Set *opt to the defaults (MMM_IMPORT_OPTIONS_INIT). */
MMM_API void mmm_import_options_init(mmm_import_options *opt);

/** What a read noticed besides errors (for the caller to show). */
typedef struct mmm_import_report {
    mmm_input_format format;   /**< the format read */
    size_t ntasks, nedges;     /**< tasks and distinct edges (task graphs) */
    size_t nwarnings;          /**< e.g. negative costs clamped */
    char warning[512];         /**< the first warning, "" when none */
    char note[512];            /**< e.g. placeholder costs, "" when none */
    char summary[512];         /**< what the warnings come to, shown after
                                    them ("6 of 6 nodes have no size ...;
                                    did you mean --cost-attr cost?"), ""
                                    when none */
} mmm_import_report;

/** Read a program from path in any supported format (see above).  rep may
 *  be NULL.  Errors carry file and line where the format has lines. */
MMM_API int mmm_program_read_file(mmm_program **out, const char *path,
                                  const mmm_import_options *opt,
                                  mmm_import_report *rep, mmm_error *err);
/** The same from memory; name is used in messages and breaks a tie of the
 *  detection by its extension. */
MMM_API int mmm_program_read_memory(mmm_program **out, const char *buf, size_t len,
                                    const char *name, const mmm_import_options *opt,
                                    mmm_import_report *rep, mmm_error *err);

/* ------------------------------------------------------------------ */
/* Opening a program for analysis: machine, reader, -D, -p, evaluation  */

/** What every command that reads a program takes: where it comes from,
 *  the machine, the overrides. */
typedef struct mmm_open_options {
    unsigned int version;     /**< MMM_OPEN_OPTIONS_VERSION (the INIT
                                   macro, mmm_open_options_init) */
    mmm_import_options io;    /**< the reader's options; io.load.machine
                                   is set from `machine` */
    const char *machine;      /**< a machine file (--machine), read with
                                   io.load.limits; NULL: none */
    const char *const *defs;  /**< "NAME=VALUE" (-D): mmm_overrides_parse */
    size_t ndefs;
    int64_t p;                /**< > 0: the number of SMs (-p) */
    int unknown;              /**< a -D name the file does not declare:
                                   MMM_DEFINE_STRICT, _NOTE or _QUIET */
    unsigned instance_flags;  /**< MMM_INSTANCE_* */
    int no_eval;              /**< 1: the instance is made, not evaluated
                                   (a sweep evaluates it) */
    mmm_progress_fn progress; /**< (version 2) "reading FILE", "evaluating";
                                   NULL: none */
    void *progress_payload;
} mmm_open_options;

#define MMM_OPEN_OPTIONS_VERSION 2
#define MMM_OPEN_OPTIONS_INIT                                                 \
    {.version = MMM_OPEN_OPTIONS_VERSION, .io = MMM_IMPORT_OPTIONS_INIT,      \
     .machine = NULL, .defs = NULL, .ndefs = 0, .p = 0,                       \
     .unknown = MMM_DEFINE_STRICT, .instance_flags = 0, .no_eval = 0,         \
     .progress = NULL, .progress_payload = NULL}
/** Set *opt to the defaults (MMM_OPEN_OPTIONS_INIT). */
MMM_API void mmm_open_options_init(mmm_open_options *opt);

/** A program opened by mmm_program_open. */
typedef struct mmm_opened {
    mmm_program *program;
    mmm_instance *instance;    /**< evaluated unless no_eval */
    mmm_import_report report;  /**< what the reader noticed */
    mmm_override *overrides;   /**< of defs and p (mmm_overrides_parse) */
    size_t noverrides;
    mmm_notes notes;           /**< the reader's warnings ("FILE: warning:
                                    ...", one line for all of them) and
                                    note, the -D names skipped */
} mmm_opened;

/**
 * Read the machine file, then the program at path with it (any format:
 * mmm_program_read_file), make the overrides of opt->defs and opt->p
 * (mmm_overrides_parse), make the instance and evaluate it with them
 * (mmm_instance_eval_p): what `mmm analyze FILE -D ... -p P --machine M`
 * does before it computes.  opt NULL: the defaults.  *out is filled in
 * any case (its notes, said before a failure, are to be shown before the
 * error) and must be released with mmm_opened_dispose; on failure its
 * program and instance are NULL.
 */
MMM_API int mmm_program_open(mmm_opened *out, const char *path,
                             const mmm_open_options *opt, mmm_error *err);
/** Free what *o holds and zero it (a zeroed mmm_opened may be disposed). */
MMM_API void mmm_opened_dispose(mmm_opened *o);

/* ------------------------------------------------------------------ */
/* Writing mmm's XML (mmm convert)                                      */

/** Write an evaluated program as mmm's XML: its parameters and
 *  constraints as their texts, each kernel with its evaluated values (a
 *  kernel that uses its index cannot be written: MMM_EINVAL), its edges.
 *  comment (may be NULL) goes into an XML comment at the head ("--" is
 *  written "- -"). */
MMM_API int mmm_program_write_xml(FILE *f, const mmm_instance *inst,
                                  const char *comment, mmm_error *err);
/** The same into path, replaced atomically (an existing file stays as it
 *  was on any error). */
MMM_API int mmm_program_save_xml(const char *path, const mmm_instance *inst,
                                 const char *comment, mmm_error *err);

/* ------------------------------------------------------------------ */
/* The task-graph builder used by the readers                          */

typedef struct mmm_taskgraph mmm_taskgraph;

/** Costs given in seconds are scaled to opt->time_unit; unitless ones are
 *  kept.  Both are rounded to the nearest integer. */
enum { MMM_COST_UNITLESS = 0, MMM_COST_SECONDS = 1 };

/** A new task graph whose program is called name (file in messages).  The
 *  machine parameters of opt->load.machine are declared. */
MMM_API int mmm_taskgraph_new(mmm_taskgraph **out, const char *file,
                              const char *name, const mmm_import_options *opt,
                              mmm_import_report *rep, mmm_error *err);
MMM_API void mmm_taskgraph_free(mmm_taskgraph *g);
/** The program being built (to add kernels of richer formats). */
MMM_API mmm_program *mmm_taskgraph_program(mmm_taskgraph *g);

/** A task: a kernel of one block, work = span = cost.  line 0 when the
 *  format has no lines.  A negative, infinite or too large cost is an
 *  error naming the task (a negative one a warning with negative_to_zero). */
MMM_API int mmm_taskgraph_add_task(mmm_taskgraph *g, const char *id, double cost,
                                   int unit, long line, mmm_error *err);
/** The type of the task added last (mmm_kernel_type: a WfCommons
 *  category, a DAX transformation); NULL or "": none. */
MMM_API int mmm_taskgraph_task_type(mmm_taskgraph *g, const char *type, mmm_error *err);
/** The integer cost that add_task would give (same checks); for readers
 *  that build richer kernels. */
MMM_API int mmm_taskgraph_cost(mmm_taskgraph *g, const char *id, double cost,
                               int unit, long line, int64_t *out, mmm_error *err);
/** A dependency from -> to between tasks added already.  A second copy of
 *  an edge is dropped; a self-loop is an error naming the task; an unknown
 *  task is an error naming both. */
MMM_API int mmm_taskgraph_add_edge(mmm_taskgraph *g, const char *from,
                                   const char *to, long line, mmm_error *err);
/** A warning (the first one is kept in the report, all are counted). */
MMM_API void mmm_taskgraph_warn(mmm_taskgraph *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** Add to the summary of the warnings, shown after them ("; " between
 *  two parts). */
MMM_API void mmm_taskgraph_summary(mmm_taskgraph *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** A note for the report (replaces an earlier one). */
MMM_API void mmm_taskgraph_note(mmm_taskgraph *g, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** Finalize (a cycle is an error naming it) and hand the program over;
 *  the builder is freed either way.  Tasks whose costs are all 0 are a
 *  warning; the program's cost unit (mmm_program_cost_unit) is the time
 *  unit when a task's cost was in seconds, else "the file's unit" (when it
 *  has tasks). */
MMM_API int mmm_taskgraph_finish(mmm_taskgraph *g, mmm_program **out,
                                 mmm_error *err);

/** Kernel ids have no white space: a copy of s with each white-space
 *  character replaced by '_' (malloc'ed; NULL when out of memory). */
MMM_API char *mmm_taskgraph_id(const char *s);

#ifdef __cplusplus
}
#endif
#endif
