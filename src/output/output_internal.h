/* output_internal.h (internal): what the files of the output layer share:
 * the writer, the one JSON writer every JSON output goes through, text
 * tables, number formats and the sections several commands print. */
#ifndef MMM__OUTPUT_INTERNAL_H
#define MMM__OUTPUT_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "mmm/output.h"

/* ---- JSON writer (RFC 8259, numbers as JSON numbers; json.c) ---- */
typedef struct mmm__json {
    FILE *f;
    int depth;
    int need_comma[64];
    unsigned char flat[64]; /* the container at this depth is on one line */
    int after_key;
} mmm__json;

void mmm__json_init(mmm__json *w, FILE *f);
void mmm__json_begin_object(mmm__json *w);
void mmm__json_end_object(mmm__json *w);
void mmm__json_begin_array(mmm__json *w);
/* An object written on one line ({"a": 1, "b": [2, 3]}), with whatever it
 * holds: for the many small records of a long array. */
void mmm__json_begin_object_flat(mmm__json *w);
void mmm__json_end_array(mmm__json *w);
void mmm__json_key(mmm__json *w, const char *key);
void mmm__json_string(mmm__json *w, const char *s);
void mmm__json_double(mmm__json *w, double v);   /* non-finite -> null */
void mmm__json_int(mmm__json *w, int64_t v);
void mmm__json_value(mmm__json *w, mmm_value v); /* integer or double */
void mmm__json_bool(mmm__json *w, int v);
void mmm__json_null(mmm__json *w);
/* Finish with a newline. */
void mmm__json_finish(mmm__json *w);
/* A member: the key and its value. */
void mmm__json_num(mmm__json *w, const char *key, double v);
void mmm__json_intk(mmm__json *w, const char *key, int64_t v);
void mmm__json_str(mmm__json *w, const char *key, const char *s);
void mmm__json_boolk(mmm__json *w, const char *key, int v);

/* ---- The analyze object, shared by analyze, compare and optimize ----
 * Writes "program", "file", "params", "metrics", "bounds", "critical_path",
 * "kernels" (keys only; the caller opens/closes the object). */
void mmm__json_analysis(mmm__json *w, const mmm_instance *inst,
                        const mmm_metrics *m);
/* "metrics": {...} and "bounds": {...} members only. */
void mmm__json_metrics(mmm__json *w, const mmm_metrics *m);
void mmm__json_bounds(mmm__json *w, const mmm_metrics *m);

/* Human formatting of a count or cost: exact integers as integers, others
 * with 6 significant digits, thousands not separated (scripts parse it). */
char *mmm__fmt_num(double v, char *buf, size_t size);
/* A measure that may be an exact integer (mmm_metrics W_i... with its
 * MMM_EXACT_* bit): the integer when exact, else mmm__fmt_num / a double. */
char *mmm__fmt_measure(double v, int64_t vi, unsigned exact, char *buf, size_t size);
void mmm__json_exact(mmm__json *w, double v, int64_t vi, unsigned exact);
/* Seconds in a readable unit ("1.234 ms"). */
char *mmm__fmt_seconds(double s, char *buf, size_t size);

/* " name=value" for each parameter of inst's program: its own parameters
 * and, of a machine file's constants, only the MMM's U, Z and p; the
 * others (dozens for the time model, the same at every point) are
 * counted, "  (and N more constants of the machine file)".  " (none)"
 * when there is nothing to print.  No newline. */
void mmm__print_params(FILE *f, const mmm_instance *inst);

/* An id as a CSV cell: RFC 4180, quoted when needed, a quote doubled. */
void mmm__csv_id(FILE *f, const char *id);

/* ---- Text tables: each column as wide as its widest cell (table.c) ---- */
typedef struct mmm__table {
    size_t ncols;
    size_t n, cap;   /* cells so far, row by row */
    char **cells;
} mmm__table;

void mmm__table_init(mmm__table *t, size_t ncols);
/* Append the next cell (copied; rows fill left to right).  0 or -1. */
int mmm__table_add(mmm__table *t, const char *cell);
/* Print every row after indent; columns whose bit is set in left_aligned
 * are aligned left, the others (numbers) right; two spaces between. */
void mmm__table_print(const mmm__table *t, FILE *f, const char *indent,
                      unsigned long left_aligned);
void mmm__table_dispose(mmm__table *t);

/* ---- The other models' sections (tmm_out.c, time_out.c) ---- */
/* Text sections "TMM ...", "balance principle ...", "time model ...",
 * each with a per-kernel table of at most max_rows rows (0 = all). */
void mmm__models_text(FILE *f, const mmm_models *m, const mmm_instance *inst,
                      int64_t max_rows);
/* JSON members "tmm": {...}, "balance": {...}, "time": {...} (keys only:
 * the caller opens and closes the enclosing object). */
void mmm__models_json(mmm__json *w, const mmm_models *m,
                      const mmm_instance *inst);
/* CSV, one row per kernel: id,repeat, then the MMM columns (when which has
 * MMM_MODEL_MMM), the TMM, balance and time ones. */
void mmm__models_csv(FILE *f, const mmm_models *m, const mmm_instance *inst);
void mmm__time_text(FILE *f, const mmm_time *t, const mmm_instance *inst,
                    int64_t max_rows);
/* "time": {...} (a key and its object). */
void mmm__time_json(mmm__json *w, const mmm_time *t, const mmm_instance *inst);
/* CSV columns: the header when k == (size_t)-1, else kernel k's cells;
 * each starts with a comma. */
void mmm__time_csv(FILE *f, const mmm_time *t, size_t k);

/* Helpers of the per-kernel tables (table.c). */
size_t mmm__id_width(const mmm_program *prog);
/* "a -> b x3 -> c" and a newline. */
void mmm__print_kernel_path(FILE *f, const mmm_instance *inst,
                            const uint32_t *path, size_t len);
/* 1 when the table must stop at row i (and says so). */
int mmm__rows_done(FILE *f, size_t i, size_t n, int64_t max_rows);

/* ---- The writer (writer.c) ---- */
struct mmm__sweep_out;

struct mmm_writer {
    FILE *f;
    mmm_format format;
    int memory;                  /* f is open_memstream's */
    char *mem;
    size_t memlen;
    mmm__json json;              /* the document's JSON state */
    /* mmm_write_simulation_*: */
    const mmm_program *sim_prog;
    const char *sim_file;
    int sim_list;
    size_t sim_count;
    /* mmm_write_sweep_*: the sweep's state and what frees it (set by
     * optimize_out.c, so that writer.c calls nothing of it) */
    struct mmm__sweep_out *sweep;
    void (*sweep_free)(struct mmm__sweep_out *s);
    const mmm_sweep_spec *sweep_spec;
};

#define MMM__FORMAT_BIT(f) (1u << (f))
#define MMM__ALL_FORMATS 7u
/* MMM_EINVAL (naming fn) when w is NULL or its format is not one of
 * formats (MMM__FORMAT_BIT bits); else 0. */
int mmm__writer_check(const mmm_writer *w, unsigned formats, const char *fn,
                      mmm_error *err);

#endif
