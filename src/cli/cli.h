/* cli.h: what the subcommands share.  The CLI includes only the public
 * headers of libmmm; this file is private to src/cli/. */
#ifndef MMM_CLI_H
#define MMM_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "mmm/mmm.h"
#include "mmm/import.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

enum cli_format { CLI_TEXT = 0, CLI_JSON, CLI_CSV };

#define CLI_MAX_DEFS 256

/* Options every command that reads a program understands:
 *   -D NAME=VALUE  --machine FILE  -p P  --format text|json|csv
 *   --max-file-bytes N --max-kernels N --max-edges N --max-params N
 *   --max-expr-length N --max-index-repeat N --threads 1|2|auto
 *   --input-format F --time-unit U --negative-cost error|zero
 *   --cost-attr NAME --costs FILE */
typedef struct cli_common {
    const char *cmd;                 /* "analyze", ... for messages */
    const char *machine_path;
    int has_p;
    int64_t p;
    enum cli_format format;
    size_t ndefs;
    const char *def_name[CLI_MAX_DEFS];
    const char *def_value[CLI_MAX_DEFS];
    mmm_limits limits;
    mmm_threads threads;             /* how the program is loaded */
    int launch;                      /* --launch: CLI_LAUNCH_* (time model) */
    unsigned instance_flags;         /* MMM_INSTANCE_*: set by the command */
    /* task-graph formats (mmm/import.h) */
    mmm_input_format input_format;   /* --input-format; 0: by content */
    mmm_time_unit time_unit;         /* --time-unit */
    int negative_zero;               /* --negative-cost zero */
    const char *cost_attr;           /* --cost-attr (DOT) */
    const char *costs_path;          /* --costs (CUDA graph DOT) */
} cli_common;

void cli_common_init(cli_common *c, const char *cmd);

/* 1 when the drawing module (plugin) is loaded or loads now; otherwise 0
 * and *reason (may be NULL) says why, in words (draw_shim.c). */
int cli_draw_available(const char **reason);

/* Try to consume the common option at argv[*i] (and its argument, advancing
 * *i).  Returns 1 when consumed, 0 when argv[*i] is not a common option,
 * -1 after printing a usage error. */
int cli_common_option(cli_common *c, int argc, char **argv, int *i);

/* The argument of option `name` at argv[*i], written "--opt ARG" or
 * "--opt=ARG" (advancing *i past ARG in the first form).  Returns NULL when
 * argv[*i] is not that option, or when it has no argument: then *missing
 * is set to 1. */
const char *cli_option_value(const char *name, int argc, char **argv, int *i,
                             int *missing);

/* Help text for the common options (for each command's --help). */
extern const char cli_common_help[];

/* Print cli_common_help on stdout without the line of `option` (for a
 * command whose own option of that name means something else). */
void cli_print_common_help_except(const char *option);

/* Load FILE with the machine file, apply -D and -p, evaluate.  When
 * lenient, a -D name the file does not declare is skipped with a note on
 * stderr (compare); otherwise it is an error.  Prints errors; returns
 * CLI_OK or CLI_FAIL.  On success the caller owns *prog and *inst. */
int cli_load(const cli_common *c, const char *path, int lenient,
             mmm_program **prog, mmm_instance **inst);
/* The same, with what the reader reported in *rep (may be NULL). */
int cli_load_report(const cli_common *c, const char *path, int lenient,
                    mmm_program **prog, mmm_instance **inst,
                    mmm_import_report *rep);
/* cli_load without evaluating (for optimize: the default point may be
 * infeasible, the sweep is there to find feasible ones): the -D/-p
 * overrides go to ov (CLI_MAX_DEFS + 1 entries) and *nov. */
int cli_load_unevaluated(const cli_common *c, const char *path, mmm_program **prog,
                         mmm_instance **inst, mmm_override *ov, size_t *nov);

/* Read the program in FILE, in whatever format it is (mmm/import.h), with
 * the machine's parameters (machine may be NULL).  Prints the error, the
 * reader's warnings and notes on stderr; returns CLI_OK or CLI_FAIL.
 * rep (may be NULL) receives what the reader reported. */
int cli_read_program(const cli_common *c, const char *path,
                     const mmm_machine *machine, mmm_program **prog,
                     mmm_import_report *rep);

/* "FILE: error: OPT NAME: the file declares no parameter 'NAME'", then
 * advice when given, else a close name or the declared ones; on stderr. */
void cli_no_such_param(const mmm_program *prog, const char *opt,
                       const char *name, const char *advice);
/* Build the override list for -D/-p against prog (exposed for commands that
 * re-evaluate, e.g. optimize).  *nov receives the count; ov must hold
 * CLI_MAX_DEFS + 1 entries.  A -D name prog does not declare is an error
 * when lenient is 0, skipped with a note on stderr when 1, skipped
 * silently when 2 (a caller evaluating one file many times notes once).
 * Prints errors; returns CLI_OK/CLI_FAIL. */
int cli_overrides(const cli_common *c, const mmm_program *prog, int lenient,
                  mmm_override *ov, size_t *nov);

/* Call fn(item, len, payload) for each item of text split at its
 * top-level commas (not those inside parentheses, as in min(a,b)), in
 * order; an empty text is one empty item.  Stops at the first non-zero
 * value of fn and returns it; 0 otherwise. */
typedef int (*cli_item_fn)(const char *item, size_t len, void *payload);
int cli_split_list(const char *text, cli_item_fn fn, void *payload);

/* Write len bytes of data to stdout and flush it (render -o -, report
 * -o -; their files are written atomically by the library).  0 or MMM_EIO
 * in err. */
int cli_write_stdout(const void *data, size_t len, mmm_error *err);

/* Print "FILE:LINE: error: message" to stderr. */
void cli_print_error(const mmm_error *err);
/* Print "mmm CMD: message\nTry 'mmm CMD --help'." and return CLI_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parse a non-negative/positive integer option argument strictly. */
int cli_parse_int64(const char *s, int64_t *out);
/* Parse a non-negative integer (no sign) strictly; 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *out);
/* 1 when s ends with suffix, ignoring case (a file named g.SVG is an SVG
 * file). */
int cli_has_suffix(const char *s, const char *suffix);

/* ---- JSON writer (RFC 8259, numbers as JSON numbers) ---- */
typedef struct cli_json_writer {
    FILE *f;
    int depth;
    int need_comma[64];
    unsigned char flat[64]; /* the container at this depth is on one line */
    int after_key;
} cli_json_writer;

void cli_json_init(cli_json_writer *w, FILE *f);
void cli_json_begin_object(cli_json_writer *w);
void cli_json_end_object(cli_json_writer *w);
void cli_json_begin_array(cli_json_writer *w);
/* An object written on one line ({"a": 1, "b": [2, 3]}), with whatever it
 * holds: for the many small records of a long array. */
void cli_json_begin_object_flat(cli_json_writer *w);
void cli_json_end_array(cli_json_writer *w);
void cli_json_key(cli_json_writer *w, const char *key);
void cli_json_string(cli_json_writer *w, const char *s);
void cli_json_double(cli_json_writer *w, double v);   /* non-finite -> null */
void cli_json_int(cli_json_writer *w, int64_t v);
void cli_json_value(cli_json_writer *w, mmm_value v); /* integer or double */
void cli_json_bool(cli_json_writer *w, int v);
void cli_json_null(cli_json_writer *w);
/* Finish with a newline. */
void cli_json_finish(cli_json_writer *w);

/* ---- The analyze object, shared by analyze, compare and optimize ----
 * Writes "program", "file", "params", "metrics", "bounds", "critical_path",
 * "kernels" (keys only; the caller opens/closes the object). */
void cli_json_analysis(cli_json_writer *w, const mmm_instance *inst,
                       const mmm_metrics *m);
/* "metrics": {...} and "bounds": {...} members only. */
void cli_json_metrics(cli_json_writer *w, const mmm_metrics *m);
void cli_json_bounds(cli_json_writer *w, const mmm_metrics *m);

/* Human formatting of a count or cost: exact integers as integers, others
 * with 6 significant digits, thousands not separated (scripts parse it). */
char *cli_fmt_num(double v, char *buf, size_t size);
/* A measure that may be an exact integer (mmm_metrics W_i... with its
 * MMM_EXACT_* bit): the integer when exact, else cli_fmt_num / a double. */
char *cli_fmt_exact(double v, int64_t vi, unsigned exact, char *buf, size_t size);
void cli_json_exact(cli_json_writer *w, double v, int64_t vi, unsigned exact);
/* Once per run, on stderr: some integer lost digits as a double. */
void cli_note_inexact(const char *file, const mmm_metrics *m);

/* " name=value" for each parameter of inst's program on stdout: its own
 * parameters and, of a machine file's constants, only the MMM's U, Z and
 * p; the others (dozens for the time model, the same at every point) are
 * counted, "  (and N more constants of the machine file)".  " (none)"
 * when there is nothing to print.  No newline. */
void cli_print_params(const mmm_instance *inst);

/* ---- Text tables: each column as wide as its widest cell ---- */
typedef struct cli_table {
    size_t ncols;
    size_t n, cap;   /* cells so far, row by row */
    char **cells;
} cli_table;

void cli_table_init(cli_table *t, size_t ncols);
/* Append the next cell (copied; rows fill left to right).  0 or -1. */
int cli_table_add(cli_table *t, const char *cell);
/* Print every row after indent; columns whose bit is set in left_aligned
 * are aligned left, the others (numbers) right; two spaces between. */
void cli_table_print(const cli_table *t, FILE *f, const char *indent,
                     unsigned long left_aligned);
void cli_table_dispose(cli_table *t);

/* ---- The other models of `analyze --model` (tmm_out.c, docs/tmm.md) ---- */
enum { CLI_MODEL_MMM = 1u, CLI_MODEL_TMM = 2u, CLI_MODEL_BALANCE = 4u,
       CLI_MODEL_ALL = 7u, /* "all": mmm, tmm, balance */
       CLI_MODEL_TIME = 8u };
/* "mmm", "tmm", "balance", "all" or a comma list ("tmm,balance") into
 * CLI_MODEL_* bits.  Returns 0, or -1 for anything else. */
int cli_model_parse(const char *s, unsigned *out);

typedef struct cli_models {
    unsigned which;      /* CLI_MODEL_* bits */
    mmm_tmm tmm;         /* when which & CLI_MODEL_TMM */
    mmm_balance balance; /* when which & CLI_MODEL_BALANCE */
    mmm_time time;       /* when which & CLI_MODEL_TIME */
    int launch;          /* kept by compute: CLI_LAUNCH_* */
} cli_models;

/* Compute the TMM and/or the balance principle (as which says) for an
 * evaluated instance.  Prints the error (a missing machine parameter...)
 * and returns CLI_FAIL, else CLI_OK; dispose in both cases is safe. */
int cli_models_compute(cli_models *m, const mmm_instance *inst,
                       unsigned which);
void cli_models_dispose(cli_models *m);
/* Text sections "TMM ..." and "balance principle ...", each with a
 * per-kernel table of at most max_rows rows (0 = all). */
void cli_models_text(FILE *f, const cli_models *m, const mmm_instance *inst,
                     int64_t max_rows);
/* JSON members "tmm": {...} and/or "balance": {...} (keys only: the caller
 * opens and closes the enclosing object). */
void cli_models_json(cli_json_writer *w, const cli_models *m,
                     const mmm_instance *inst);
/* CSV, one row per kernel: id,repeat, then the MMM columns (when which has
 * CLI_MODEL_MMM), the TMM ones and the balance ones. */
void cli_models_csv(FILE *f, const cli_models *m, const mmm_instance *inst);

/* Helpers of the per-kernel tables (tmm_out.c). */
size_t cli_id_width(const mmm_program *prog);
void cli_print_kernel_path(FILE *f, const mmm_instance *inst,
                           const uint32_t *path, size_t len);
int cli_rows_done(FILE *f, size_t i, size_t n, int64_t max_rows);

/* ---- The time model (time_out.c, docs/time.md) ---- */
/* Launch mode: from the parameter 'graph' (default stream), or forced by
 * --launch stream|graph. */
enum { CLI_LAUNCH_PARAM = 0, CLI_LAUNCH_STREAM = 1, CLI_LAUNCH_GRAPH = 2 };
/* "stream" or "graph" into CLI_LAUNCH_*; -1 for anything else. */
int cli_launch_parse(const char *s);
/* mmm_time_compute with the machine of the instance's parameters and the
 * launch mode. */
int cli_time_compute(mmm_time *t, const mmm_instance *inst, int launch,
                     mmm_error *err);
void cli_time_text(FILE *f, const mmm_time *t, const mmm_instance *inst,
                   int64_t max_rows);
/* "time": {...} (a key and its object). */
void cli_time_json(cli_json_writer *w, const mmm_time *t,
                   const mmm_instance *inst);
/* CSV columns: the header when k == (size_t)-1, else kernel k's cells;
 * each starts with a comma. */
void cli_time_csv(FILE *f, const mmm_time *t, size_t k);
/* Seconds in a readable unit ("1.234 ms"). */
char *cli_fmt_seconds(double s, char *buf, size_t size);

/* Subcommands. */
int cmd_analyze(int argc, char **argv);
int cmd_optimize(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_scale(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_profile(int argc, char **argv);

#endif
