/* cmd_optimize.c: `mmm optimize FILE --param NAME ...`: sweep one or more
 * parameters, pick the value minimizing the overhead (or a bound), compare
 * it with a baseline by the Graham–Brent bound, as the MMM slides do.
 * This file reads the options and runs the sweep; the library writes what
 * it finds (mmm_write_sweep_*: rows streamed as they come, the summary
 * after), and the figure is the drawing module's (mmm/sweep_plot.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "mmm/sweep_plot.h"

typedef struct opt_args {
    cli_common c;
    const char *file;
    size_t naxes;
    mmm_sweep_axis_text axes[MMM_SWEEP_MAX_AXES];
    const char *objective;
    const char *baseline;
    const char *plot;
    int64_t max_points;
    int64_t max_rows;
} opt_args;

static const char optimize_help[] =
    "usage: mmm optimize FILE --param NAME [--from A] [--to B] [--step K|*K]\n"
    "                         [--values V1,V2,...] [--param NAME[,NAME...] ...]\n"
    "                         [--objective overhead|bound|corollary|time]\n"
    "                         [--baseline V[,V]] [--plot OUT.svg|png|pdf]\n"
    "                         [-D NAME=VALUE]... [--machine FILE] [-p P]\n"
    "                         [--format text|json|csv]\n\n"
    "Sweep program parameters (one, or the grid of several), evaluate the MMM\n"
    "measures at every point, and pick the one minimizing the objective, as the\n"
    "MMM slides do: minimize the parallelism overhead O while the work W and\n"
    "span S stay within a constant factor, then check with the Graham-Brent\n"
    "bound that the running-time estimate there is no worse than at a baseline.\n"
    "Points that violate a constraint, make a count non-integer or exceed a\n"
    "launch limit the machine gives (threads, shared memory, registers) are\n"
    "infeasible, whatever the objective.  Ties go to the smaller values.\n\n"
    "options:\n"
    "  --param NAME         the parameter to sweep (again for a grid; N1,N2 with\n"
    "                       --values 8x8,16x4: a list of tuples); the range\n"
    "                       options below apply to the last --param; a parameter\n"
    "                       of FILE or of the machine file (p: see mmm scale)\n"
    "  --from A, --to B     the range (default: the parameter's min and max,\n"
    "                       evaluated at the other parameters' values)\n"
    "  --step K|*K          the step (default 1; negative: down), or a factor\n"
    "  --values LIST        explicit comma-separated values instead of a range\n"
    "                       (values are constant expressions: 2^10, 1/2, 1e6)\n"
    "  --objective OBJ      overhead (default: O), bound (Graham-Brent\n"
    "                       (N/p + L)C, needs p), corollary ((N/K + L)C, a\n"
    "                       bound for p >= K) or time (the time model's\n"
    "                       predicted seconds; its machine parameters from\n"
    "                       --machine, docs/time.md)\n"
    "  --baseline V[,V]     the baseline s0 (default: the first feasible value);\n"
    "                       NAME=V,NAME=V also accepted; a ratio s0/best is\n"
    "                       undefined (null in JSON) where best's value is 0\n"
    "  --plot OUT           plot the objective (infeasible values shaded), W, S\n"
    "                       and the rest; two: a heat map (.svg, .png, .pdf)\n"
    "  --max-points N       refuse sweeps of more points (default 100000000)\n"
    "  --max-rows N         text: table rows shown (default 60: evenly spaced,\n"
    "                       plus the best, the baseline and the minimizers);\n"
    "                       0 = all (past 20000 values printed as they come,\n"
    "                       the summary last)\n";

#define MAX_ROWS_DEFAULT 60

/* ------------------------------------------------------------------ */
/* Options */

/* A range option (--from/--to/--step/--values) of the last --param. */
static int range_option(void *args, int argc, char **argv, int *i)
{
    static const char *names[] = {"--from", "--to", "--step", "--values"};
    opt_args *o = args;
    size_t k;
    for (k = 0; k < 4; k++) {
        int missing = 0;
        const char *v = cli_option_value(names[k], argc, argv, i, &missing);
        mmm_sweep_axis_text *ax;
        if (!v && !missing)
            continue;
        if (missing)
            return cli_usage("optimize", "%s needs a value", names[k]), -1;
        if (o->naxes == 0)
            return cli_usage("optimize", "%s must follow a --param", names[k]), -1;
        ax = &o->axes[o->naxes - 1];
        if (k == 0) ax->from = v;
        else if (k == 1) ax->to = v;
        else if (k == 2) ax->step = v;
        else ax->values = v;
        return 1;
    }
    return 0;
}

static int param(void *args, const char *v)
{
    opt_args *o = args;
    if (o->naxes == MMM_SWEEP_MAX_AXES)
        return cli_usage("optimize", "at most %d --param options", MMM_SWEEP_MAX_AXES), -2;
    o->axes[o->naxes++].name = v;
    return 0;
}

#define O_(field) offsetof(opt_args, field)
static const cli_opt opt_opts[] = {
    {"--max-points", CLI_INT, O_(max_points), "--max-points needs a number >= 0", 0,
     INT64_MAX, .fn = NULL},
    {"--max-rows", CLI_INT, O_(max_rows), "--max-rows needs a number >= 0", 0,
     INT64_MAX, .fn = NULL},
    {"--param", CLI_FN, 0, NULL, .fn = param, .missing = "--param needs a NAME"},
    {"--objective", CLI_STR, O_(objective), NULL, .missing = "--objective needs a value"},
    {"--baseline", CLI_STR, O_(baseline), NULL, .missing = "--baseline needs a value"},
    {"--plot", CLI_STR, O_(plot), NULL, .missing = "--plot needs a file name"},
    {NULL}};

static const cli_cmd opt_cmd = {"optimize", optimize_help, "", .opts = opt_opts,
                                .special = range_option, .also = "--from|--to|--step|--values"};

/* Returns CLI_OK, CLI_USAGE, or -1 after printing the help. */
static int parse_args(opt_args *o, int argc, char **argv)
{
    int i;
    memset(o, 0, sizeof *o);
    cli_common_init(&o->c, "optimize");
    o->max_rows = MAX_ROWS_DEFAULT;
    if ((i = cli_args(&opt_cmd, o, &o->c, &o->file, argc, argv)) != CLI_OK)
        return i;
    if (o->naxes == 0)
        return cli_usage("optimize", "missing --param NAME");
    for (i = 0; i < (int)o->naxes; i++) {
        const mmm_sweep_axis_text *ax = &o->axes[i];
        if (ax->values && (ax->from || ax->to || ax->step))
            return cli_usage("optimize", "--values and --from/--to/--step "
                             "exclude each other (--param %s)", ax->name);
        if (o->plot && (o->naxes > 2 || strchr(ax->name, ',')))
            return cli_usage("optimize", "--plot draws one parameter or two, no tuples");
    }
    return CLI_OK;
}

/* The sweep's spec: the options, the axes and the baseline
 * (mmm_sweep_spec_parse); its notes on stderr. */
static int make_spec(mmm_sweep_spec *spec, const opt_args *o, const mmm_program *prog,
                     const mmm_override *ov, size_t nov)
{
    mmm_notes notes = MMM_NOTES_INIT;
    mmm_error err;
    int rc;
    mmm_sweep_spec_init(spec);
    spec->fixed = ov;
    spec->nfixed = nov;
    spec->has_p = o->c.has_p;
    spec->p = o->c.p;
    spec->max_points = (uint64_t)o->max_points;
    spec->launch = o->c.launch;
    spec->progress = cli_progress((cli_common *)&o->c), spec->progress_payload = (void *)&o->c;
    if (o->objective && mmm_objective_parse(&spec->objective, o->objective) < 0)
        return cli_usage("optimize", "--objective must be overhead, bound, "
                         "corollary or time, not '%s'", o->objective);
    rc = cli_noted(&notes, mmm_sweep_spec_parse(spec, prog, o->axes, o->naxes, o->baseline,
                                                &notes, &err));
    if (rc == MMM_ELIMIT) /* a value too long */
        fprintf(stderr, "mmm optimize: %s\n", err.message);
    return rc == MMM_EINVAL ? cli_usage("optimize", "%s", err.message)
           : rc == MMM_ELIMIT ? CLI_USAGE : rc < 0 ? cli_fail(&err) : CLI_OK;
}

/* ------------------------------------------------------------------ */
/* The command */

static int plot_point(const mmm_sweep_point *pt, const mmm_error *why, void *fig)
{
    (void)why;
    return mmm_sweep_plot_add(fig, pt);
}

/* The sweep written (mmm_write_sweep), then its figure. */
static int run(const opt_args *o, mmm_program *prog, mmm_instance *inst,
               mmm_sweep_spec *spec)
{
    mmm_sweep_result plan, res;
    mmm_sweep_plot *fig = NULL;
    mmm_writer *w = NULL;
    mmm_error err;
    int rc = CLI_OK;
    if ((o->plot && (mmm_sweep_resolve(&plan, NULL, inst, spec, &err) < 0 ||
                     mmm_sweep_plot_new(&fig, prog, &plan, plan.axes[0].count, &err) < 0)) ||
        mmm_writer_new(&w, stdout, o->c.format, &err) < 0 ||
        mmm_write_sweep(w, &res, inst, spec, o->max_rows, fig ? plot_point : NULL, fig,
                        &err) < 0) {
        rc = cli_fail(&err);
    } else if (o->plot && mmm_sweep_plot_write(fig, &res, inst, spec, o->plot, &err) < 0) {
        rc = cli_fail(&err); /* none when the command fails: an old file stays */
    }
    mmm_writer_free(w);
    mmm_sweep_plot_free(fig);
    return rc;
}

int cmd_optimize(int argc, char **argv)
{
    opt_args o;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_override ov[CLI_MAX_DEFS + 1];
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    size_t nov = 0;
    int rc = parse_args(&o, argc, argv);
    if (rc < 0)
        return CLI_OK; /* --help */
    if (rc != CLI_OK)
        return rc;
    if ((rc = cli_plot_path("optimize", "--plot", o.plot)) != CLI_OK)
        return rc;
    if ((rc = cli_load_full(&o.c, o.file, 0, 0, &prog, &inst, NULL, ov, &nov)) == CLI_OK &&
        (rc = make_spec(&spec, &o, prog, ov, nov)) == CLI_OK)
        rc = run(&o, prog, inst, &spec);
    if (cli_flushed("mmm optimize: error: cannot write the output\n") != CLI_OK)
        rc = CLI_FAIL;
    mmm_sweep_spec_dispose(&spec);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
