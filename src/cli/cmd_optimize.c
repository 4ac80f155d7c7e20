/* cmd_optimize.c: `mmm optimize FILE --param NAME ...`: sweep one or two
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
#include "mmm/plot.h"
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

static const char optimize_help[] =
    "usage: mmm optimize FILE --param NAME [--from A] [--to B] [--step K]\n"
    "                         [--values V1,V2,...] [--param NAME ...]\n"
    "                         [--objective overhead|bound|corollary|time]\n"
    "                         [--baseline V[,V]] [--plot OUT.svg|png|pdf]\n"
    "                         [-D NAME=VALUE]... [--machine FILE] [-p P]\n"
    "                         [--format text|json|csv]\n\n"
    "Sweep a program parameter (or the grid of two), evaluate the MMM measures\n"
    "at every value, and pick the value minimizing the objective, as the MMM\n"
    "slides do: minimize the parallelism overhead O while the work W and span S\n"
    "stay within a constant factor, then check with the Graham-Brent bound that\n"
    "the running-time estimate at the chosen value is no worse than at a\n"
    "baseline.  Values that violate a constraint or make a count non-integer\n"
    "are reported as infeasible.  Ties go to the smaller value.\n\n"
    "options:\n"
    "  --param NAME         the parameter to sweep (twice for a grid); the\n"
    "                       range options below apply to the last --param;\n"
    "                       a parameter of FILE or of the machine file (for p\n"
    "                       given only by -p, see mmm scale)\n"
    "  --from A, --to B     the range (default: the parameter's min and max,\n"
    "                       evaluated at the other parameters' values)\n"
    "  --step K             the step (default 1; negative to sweep down)\n"
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
    "  --plot OUT           plot W, S, O and the bounds against the parameter\n"
    "                       (.svg, .png or .pdf; log scales where they help)\n"
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
        axis_opt *ax;
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
     INT64_MAX, .exact = 0},
    {"--max-rows", CLI_INT, O_(max_rows), "--max-rows needs a number >= 0", 0,
     INT64_MAX, .exact = 0},
    {"--param", CLI_FN, 0, NULL, .fn = param, .missing = "--param needs a NAME"},
    {"--objective", CLI_STR, O_(objective), NULL, .missing = "--objective needs a value"},
    {"--baseline", CLI_STR, O_(baseline), NULL, .missing = "--baseline needs a value"},
    {"--plot", CLI_STR, O_(plot), NULL, .missing = "--plot needs a file name"},
    {NULL}};

static const cli_cmd opt_cmd = {"optimize", optimize_help, "", .opts = opt_opts,
                                .special = range_option};

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
    if (o->naxes == 2 && !strcmp(o->axes[0].name, o->axes[1].name))
        return cli_usage("optimize", "--param %s given twice", o->axes[0].name);
    for (i = 0; i < (int)o->naxes; i++) {
        const axis_opt *ax = &o->axes[i];
        if (ax->values && (ax->from || ax->to || ax->step))
            return cli_usage("optimize", "--values and --from/--to/--step "
                             "exclude each other (--param %s)", ax->name);
    }
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* Values: constant expressions ("2^10", "1/2", "1e6") */

static int parse_value(const char *what, const char *text, size_t len,
                       mmm_value *out)
{
    char buf[512], name[65];
    mmm_error err;
    if (len >= sizeof buf) {
        fprintf(stderr, "mmm optimize: %s: value too long\n", what);
        return CLI_USAGE;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (cli_constant(buf, sizeof buf, out, name, &err) < 0)
        return cli_usage("optimize", "%s '%s': %s", what, buf, err.message);
    return CLI_OK;
}

typedef struct value_list {
    const char *what;
    mmm_value *v;   /* one per comma, and one */
    size_t n;
} value_list;

static int list_item(const char *item, size_t len, void *payload)
{
    value_list *l = payload;
    int rc = parse_value(l->what, item, len, &l->v[l->n]);
    if (rc == CLI_OK)
        l->n++;
    return rc;
}

/* Split text at top-level commas (not those inside min(a,b)) into values.
 * *out is malloc'ed. */
static int parse_list(const char *what, const char *text, mmm_value **out,
                      size_t *n)
{
    value_list l = {what, NULL, 0};
    size_t cap = 1;
    int rc;
    *out = NULL;
    *n = 0;
    for (const char *c = text; *c; c++)
        cap += *c == ',';
    if (!(l.v = malloc(cap * sizeof *l.v)))
        return CLI_FAIL;
    rc = cli_split_list(text, list_item, &l);
    *out = l.v;
    *n = l.n;
    return rc;
}

/* ------------------------------------------------------------------ */
/* The sweep */

/* --param p where the file declares no p: how to look at p instead. */
static void no_p(const mmm_program *prog)
{
    char advice[800];
    snprintf(advice, sizeof advice,
             ": p, the number of SMs, comes from -p or the machine file; to "
             "see the program over p, run 'mmm scale %.200s --p 1..64' "
             "(bounds, simulated makespan and speedup at each p) or 'mmm "
             "simulate %.200s -p 1,2,4'; to sweep p here, give --machine FILE "
             "(one that sets p) or declare it in the file: <param name=\"p\" "
             "value=\"2\" min=\"1\"/>",
             prog->file, prog->file);
    cli_no_such_param(prog, "--param", "p", advice);
}

/* Fill the sweep spec from the options.  lists[] receive malloc'ed
 * --values arrays. */
static int build_spec(mmm_sweep_spec *spec, const opt_args *o,
                      const mmm_program *prog, const mmm_override *ov,
                      size_t nov, mmm_value **lists)
{
    size_t a, k;
    int rc;
    mmm_sweep_spec_init(spec);
    spec->naxes = o->naxes;
    spec->fixed = ov;
    spec->nfixed = nov;
    spec->has_p = o->c.has_p;
    spec->p = o->c.p;
    spec->max_points = (uint64_t)o->max_points;
    if (o->objective && mmm_objective_parse(&spec->objective, o->objective) < 0)
        return cli_usage("optimize", "--objective must be overhead, bound, "
                         "corollary or time, not '%s'", o->objective);
    spec->launch = o->c.launch;
    if (spec->objective == MMM_OBJECTIVE_BOUND && !o->c.has_p &&
        mmm_program_find_param(prog, "p") < 0)
        return cli_usage("optimize", "--objective bound needs p: give -p P "
                         "(%s declares no parameter p)", prog->file);
    for (a = 0; a < o->naxes; a++) {
        const axis_opt *ax = &o->axes[a];
        mmm_sweep_axis *sx = &spec->axes[a];
        sx->slot = mmm_program_find_param(prog, ax->name);
        if (sx->slot < 0) {
            if (!strcmp(ax->name, "p"))
                no_p(prog);
            else
                cli_no_such_param(prog, "--param", ax->name, NULL);
            return CLI_FAIL;
        }
        for (k = 0; k < nov; k++)
            if (ov[k].slot == sx->slot)
                fprintf(stderr, "%s: note: %s%s ignored: %s is swept\n",
                        prog->file,
                        /* cli_overrides puts -p's override last */
                        o->c.has_p && k == nov - 1 && !strcmp(ax->name, "p")
                            ? "-p" : "-D ",
                        o->c.has_p && k == nov - 1 && !strcmp(ax->name, "p")
                            ? "" : ax->name,
                        ax->name);
        if (ax->values) {
            if ((rc = parse_list("--values", ax->values, &lists[a],
                                 &sx->nvalues)) != CLI_OK)
                return rc;
            sx->values = lists[a];
            continue;
        }
        if (ax->from && (rc = parse_value("--from", ax->from, strlen(ax->from),
                                          &sx->from)) != CLI_OK)
            return rc;
        if (ax->to && (rc = parse_value("--to", ax->to, strlen(ax->to),
                                        &sx->to)) != CLI_OK)
            return rc;
        if (ax->step && (rc = parse_value("--step", ax->step, strlen(ax->step),
                                          &sx->step)) != CLI_OK)
            return rc;
        if (ax->step && sx->step.d == 0)
            return cli_usage("optimize", "--step must not be 0");
        sx->has_from = ax->from != NULL;
        sx->has_to = ax->to != NULL;
        sx->has_step = ax->step != NULL;
    }
    return CLI_OK;
}

typedef struct baseline_state {
    mmm_sweep_spec *spec;
    const opt_args *o;
    size_t next;
    int done[MMM_SWEEP_MAX_AXES];
} baseline_state;

static int baseline_item(const char *start, size_t len, void *payload)
{
    baseline_state *b = payload;
    const opt_args *o = b->o;
    const char *val = start, *eq = memchr(start, '=', len);
    size_t ax = b->next;
    int rc;
    if (eq) {
        size_t nlen = (size_t)(eq - start);
        for (ax = 0; ax < o->naxes; ax++)
            if (strlen(o->axes[ax].name) == nlen &&
                !strncmp(o->axes[ax].name, start, nlen))
                break;
        if (ax == o->naxes)
            return cli_usage("optimize", "--baseline names '%.*s', which "
                             "is not swept", (int)nlen, start);
        val = eq + 1;
    }
    if (ax >= o->naxes || b->done[ax])
        return cli_usage("optimize", "--baseline needs one value per "
                         "--param (%zu)", o->naxes);
    if ((rc = parse_value("--baseline", val, (size_t)(start + len - val),
                          &b->spec->baseline[ax])) != CLI_OK)
        return rc;
    b->done[ax] = 1;
    b->next = ax + 1;
    return CLI_OK;
}

/* --baseline "V,V" (in --param order) or "NAME=V,NAME=V". */
static int parse_baseline(mmm_sweep_spec *spec, const opt_args *o)
{
    baseline_state b;
    size_t a;
    int rc;
    if (!o->baseline)
        return CLI_OK;
    memset(&b, 0, sizeof b);
    b.spec = spec;
    b.o = o;
    if ((rc = cli_split_list(o->baseline, baseline_item, &b)) != CLI_OK)
        return rc;
    for (a = 0; a < o->naxes; a++)
        if (!b.done[a])
            return cli_usage("optimize", "--baseline gives no value for '%s'",
                             o->axes[a].name);
    spec->has_baseline = 1;
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* The command */

/* Full analyses of the best point and the baseline (for JSON and the
 * "at best" line).  Leaves the instance at the best point. */
static int analyse_ends(mmm_metrics *mb, mmm_metrics *m0, mmm_instance *inst,
                        const mmm_sweep_spec *spec, const mmm_sweep_result *res)
{
    mmm_error err;
    if (mmm_sweep_eval(m0, inst, spec, res->baseline.params, 0, &err) < 0 ||
        mmm_sweep_eval(mb, inst, spec, res->best.params, 0, &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

static int check_plot_path(const char *path)
{
    if (!path)
        return CLI_OK;
    if (!cli_picture(path))
        return cli_usage("optimize", "--plot needs a file ending in .svg, .png "
                         "or .pdf, not '%s'", path);
    if (!mmm_plot_available()) {
        fprintf(stderr, "mmm optimize: error: this mmm was built without "
                "PLplot: --plot is not available\n");
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* Each point to the writer and, with --plot, to the figure. */
typedef struct point_sink {
    mmm_writer *w;
    mmm_sweep_plot *fig;
} point_sink;

static int on_point(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    point_sink *ps = payload;
    int rc = mmm_write_sweep_point(pt, why, ps->w);
    if (rc == MMM_OK && ps->fig)
        rc = mmm_sweep_plot_add(ps->fig, pt);
    return rc;
}

static int run(const opt_args *o, mmm_program *prog, mmm_instance *inst,
               mmm_sweep_spec *spec)
{
    mmm_sweep_result plan, res;
    mmm_metrics mb, m0;
    point_sink ps = {NULL, NULL};
    mmm_error err;
    uint64_t total = 0;
    int rc;

    memset(&mb, 0, sizeof mb);
    memset(&m0, 0, sizeof m0);
    if (mmm_sweep_resolve(&plan, &total, inst, spec, &err) < 0)
        return cli_fail(&err);
    if ((o->plot && mmm_sweep_plot_new(&ps.fig, prog, &plan, plan.axes[0].count,
                                       &err) < 0) ||
        mmm_writer_new(&ps.w, stdout, o->c.format, &err) < 0 ||
        mmm_write_sweep_begin(ps.w, prog, &plan, spec, total, o->max_rows, &err) < 0) {
        rc = cli_fail(&err);
        goto done;
    }
    rc = mmm_sweep_run(&res, inst, spec, on_point, &ps, &err) < 0 ? CLI_FAIL : CLI_OK;
    if (rc != CLI_OK) {
        fflush(stdout);
        cli_print_error(&err);
        goto done;
    }
    if (res.has_best && (rc = analyse_ends(&mb, &m0, inst, spec, &res)) != CLI_OK)
        goto done;
    if (mmm_write_sweep_end(ps.w, &res, inst, &mb, &m0, &err) < 0) {
        fprintf(stderr, "mmm: %s\n", err.message);
        rc = CLI_FAIL;
    }
    /* No plot when the command fails: an error never replaces an old file. */
    if (rc == CLI_OK && o->plot && res.has_best &&
        mmm_sweep_plot_write(ps.fig, &res, inst, spec, o->plot, &err) < 0)
        rc = cli_fail(&err);
    if (rc == CLI_OK && !res.has_best) {
        char at[128];
        mmm_sweep_point tmp;
        memset(&tmp, 0, sizeof tmp);
        memcpy(tmp.params, res.first_infeasible_params, sizeof tmp.params);
        mmm_sweep_point_format(at, sizeof at, prog, &plan, &tmp);
        fprintf(stderr, "%s: error: no feasible value in the sweep (%s: %s)\n",
                prog->file, at, res.first_infeasible.message);
        rc = CLI_FAIL;
    }
done:
    mmm_metrics_dispose(&mb);
    mmm_metrics_dispose(&m0);
    mmm_writer_free(ps.w);
    mmm_sweep_plot_free(ps.fig);
    return rc;
}

int cmd_optimize(int argc, char **argv)
{
    opt_args o;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_override ov[CLI_MAX_DEFS + 1];
    mmm_value *lists[MMM_SWEEP_MAX_AXES] = {NULL, NULL};
    mmm_sweep_spec spec;
    size_t nov = 0;
    int rc = parse_args(&o, argc, argv);

    if (rc < 0)
        return CLI_OK; /* --help */
    if (rc != CLI_OK)
        return rc;
    if ((rc = check_plot_path(o.plot)) != CLI_OK)
        return rc;
    if ((rc = cli_load_full(&o.c, o.file, 0, 0, &prog, &inst, NULL, ov, &nov)) == CLI_OK &&
        (rc = build_spec(&spec, &o, prog, ov, nov, lists)) == CLI_OK &&
        (rc = parse_baseline(&spec, &o)) == CLI_OK)
        rc = run(&o, prog, inst, &spec);
    if (cli_flushed("mmm optimize: error: cannot write the output\n") != CLI_OK)
        rc = CLI_FAIL;
    free(lists[0]);
    free(lists[1]);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
