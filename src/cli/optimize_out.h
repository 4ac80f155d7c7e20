/* optimize_out.h: what cmd_optimize.c (options, the sweep) and
 * optimize_out.c (its output) share. */
#ifndef MMM_CLI_OPTIMIZE_OUT_H
#define MMM_CLI_OPTIMIZE_OUT_H

#include "cli.h"
#include "mmm/optimize.h"
#include "mmm/sweep_plot.h"

typedef struct axis_opt {
    const char *name;
    const char *from, *to, *step, *values;
} axis_opt;

typedef struct opt_args {
    cli_common c;
    const char *file;
    size_t naxes;
    axis_opt axes[MMM_SWEEP_MAX_AXES];
    const char *objective;
    const char *baseline;
    const char *plot;
    int64_t max_points;
    int64_t max_rows;
} opt_args;

typedef struct row {
    mmm_sweep_point pt;
    char reason[200];
} row;

typedef struct sink {
    const opt_args *o;
    const mmm_program *prog;
    const mmm_sweep_result *plan;   /* resolved axes */
    uint64_t total;
    cli_json_writer *jw;
    /* text: a sample of the rows */
    row *rows;
    size_t nrows, cap;
    uint64_t stride;
    int stream;                     /* text rows printed as they come */
    mmm_sweep_plot *fig;            /* --plot */
} sink;

/* --max-rows 0 keeps every row of a sweep up to this many values, to size
 * the table's columns to their content; beyond, the rows are printed as
 * they come (constant memory, fixed columns). */
#define OPT_KEEP_ALL_ROWS 20000

/* --objective time: a column of predicted seconds in the tables. */
extern int opt_show_time;

/* Prepare the sink of a sweep whose axes plan resolved (total points); the
 * figure when o->plot.  Prints errors; CLI_OK or CLI_FAIL. */
int opt_sink_init(sink *s, const opt_args *o, const mmm_program *prog,
                  const mmm_sweep_result *plan, uint64_t total, cli_json_writer *jw);
void opt_sink_dispose(sink *s);
/* The mmm_sweep_run callback (payload: the sink). */
int opt_on_point(const mmm_sweep_point *pt, const mmm_error *why, void *payload);
/* Before the sweep: the JSON head, the CSV header, or the head of the
 * streamed table. */
void opt_out_begin(sink *s, const mmm_sweep_spec *spec);
/* After it: the summary, the notes, the sampled table (text) or the JSON
 * tail.  inst is at the best point; mb and m0 are the analyses of the best
 * point and the baseline.  CLI_OK or CLI_FAIL. */
int opt_out_end(sink *s, const mmm_sweep_result *res, const mmm_sweep_spec *spec,
                const mmm_instance *inst, const mmm_metrics *mb, const mmm_metrics *m0);
/* "NAME = V, NAME = V" of pt's swept parameters. */
void opt_point_text(char *buf, size_t size, const sink *s, const mmm_sweep_point *pt);

#endif
