/* cmd_optimize.c: `mmm optimize FILE --param NAME ...`: sweep one or two
 * parameters, pick the value minimizing the overhead (or a bound), compare
 * it with a baseline by the Graham–Brent bound, as the MMM slides do.
 * Points are streamed: JSON and CSV rows are written as they come, the
 * text table keeps a sample, the plot keeps decimated curves. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* --objective time: a column of predicted seconds in the tables. */
static int show_time;
#include "mmm/optimize.h"
#include "mmm/plot.h"

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
    "                       range options below apply to the last --param\n"
    "  --from A, --to B     the range (default: the parameter's min and max,\n"
    "                       evaluated at the other parameters' values)\n"
    "  --step K             the step (default 1; negative to sweep down)\n"
    "  --values LIST        explicit comma-separated values instead of a range\n"
    "                       (values are constant expressions: 2^10, 1/2, 1e6)\n"
    "  --objective OBJ      overhead (default: O), bound (Graham-Brent\n"
    "                       (N/p + L)C, needs p), corollary ((N/K + L)C) or\n"
    "                       time (the time model's predicted seconds; its\n"
    "                       machine parameters from --machine, docs/time.md)\n"
    "  --baseline V[,V]     the baseline s0 (default: the first feasible value);\n"
    "                       NAME=V,NAME=V also accepted\n"
    "  --plot OUT           plot W, S, O and the bounds against the parameter\n"
    "                       (.svg, .png or .pdf; log scales where they help)\n"
    "  --max-points N       refuse sweeps of more points (default 100000000)\n"
    "  --max-rows N         text: table rows shown (default 60: evenly spaced,\n"
    "                       plus the best, the baseline and the minimizers);\n"
    "                       0 = all, printed as they come, the summary last\n";

#define MAX_ROWS_DEFAULT 60

/* ------------------------------------------------------------------ */
/* Options */

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

/* A range option (--from/--to/--step/--values) of the last --param. */
static int range_option(opt_args *o, int argc, char **argv, int *i)
{
    static const char *names[] = {"--from", "--to", "--step", "--values"};
    size_t k;
    for (k = 0; k < 4; k++) {
        int missing = 0;
        const char *v = cli_option_value(names[k], argc, argv, i, &missing);
        axis_opt *ax;
        if (!v && !missing)
            continue;
        if (missing)
            return cli_usage("optimize", "%s needs a value", names[k]);
        if (o->naxes == 0)
            return cli_usage("optimize", "%s must follow a --param", names[k]);
        ax = &o->axes[o->naxes - 1];
        if (k == 0) ax->from = v;
        else if (k == 1) ax->to = v;
        else if (k == 2) ax->step = v;
        else ax->values = v;
        return 1;
    }
    return 0;
}

static int count_option(const char *name, int argc, char **argv, int *i,
                        int64_t *out)
{
    int missing = 0;
    const char *v = cli_option_value(name, argc, argv, i, &missing);
    if (!v && !missing)
        return 0;
    if (!v || cli_parse_int64(v, out) < 0 || *out < 0)
        return cli_usage("optimize", "%s needs a number >= 0", name);
    return 1;
}

/* Returns CLI_OK, CLI_USAGE, or -1 after printing the help. */
static int parse_args(opt_args *o, int argc, char **argv)
{
    int i;
    memset(o, 0, sizeof *o);
    cli_common_init(&o->c, "optimize");
    o->max_rows = MAX_ROWS_DEFAULT;
    for (i = 1; i < argc; i++) {
        int r, missing = 0;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("%s%s", optimize_help, cli_common_help);
            return -1;
        }
        if ((r = cli_common_option(&o->c, argc, argv, &i)) != 0) {
            if (r < 0)
                return CLI_USAGE;
            continue;
        }
        if ((r = range_option(o, argc, argv, &i)) != 0) {
            if (r == CLI_USAGE)
                return CLI_USAGE;
            continue;
        }
        if ((r = count_option("--max-points", argc, argv, &i, &o->max_points)) ||
            (r = count_option("--max-rows", argc, argv, &i, &o->max_rows))) {
            if (r == CLI_USAGE)
                return CLI_USAGE;
            continue;
        }
        if ((v = cli_option_value("--param", argc, argv, &i, &missing)) || missing) {
            if (!v)
                return cli_usage("optimize", "--param needs a NAME");
            if (o->naxes == MMM_SWEEP_MAX_AXES)
                return cli_usage("optimize", "at most %d --param options",
                                 MMM_SWEEP_MAX_AXES);
            o->axes[o->naxes++].name = v;
        } else if ((v = cli_option_value("--objective", argc, argv, &i, &missing)) || missing) {
            o->objective = v;
            if (!v)
                return cli_usage("optimize", "--objective needs a value");
        } else if ((v = cli_option_value("--baseline", argc, argv, &i, &missing)) || missing) {
            o->baseline = v;
            if (!v)
                return cli_usage("optimize", "--baseline needs a value");
        } else if ((v = cli_option_value("--plot", argc, argv, &i, &missing)) || missing) {
            o->plot = v;
            if (!v)
                return cli_usage("optimize", "--plot needs a file name");
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_usage("optimize", "unknown option '%s'", argv[i]);
        } else if (o->file) {
            return cli_usage("optimize", "one FILE only ('%s' and '%s')",
                             o->file, argv[i]);
        } else {
            o->file = argv[i];
        }
    }
    if (!o->file)
        return cli_usage("optimize", "missing FILE");
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

static int no_names(const char *name, size_t len, void *payload)
{
    (void)name;
    (void)len;
    (void)payload;
    return -1;
}

static int parse_value(const char *what, const char *text, size_t len,
                       mmm_value *out)
{
    char buf[512];
    mmm_expr *e = NULL;
    mmm_error err;
    mmm_expr_limits lim = {sizeof buf, 64};
    if (len >= sizeof buf) {
        fprintf(stderr, "mmm optimize: %s: value too long\n", what);
        return CLI_USAGE;
    }
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (mmm_expr_parse(&e, buf, no_names, NULL, &lim, &err) < 0 ||
        mmm_expr_eval(e, NULL, 0, out, &err) < 0) {
        mmm_expr_free(e);
        return cli_usage("optimize", "%s '%s': %s", what, buf, err.message);
    }
    mmm_expr_free(e);
    return CLI_OK;
}

/* Split text at top-level commas (not those inside min(a,b)) into values.
 * *out is malloc'ed. */
static int parse_list(const char *what, const char *text, mmm_value **out,
                      size_t *n)
{
    size_t cap = 8, len;
    const char *p = text, *start = text;
    int depth = 0, rc;
    *n = 0;
    *out = malloc(cap * sizeof **out);
    if (!*out)
        return CLI_FAIL;
    for (;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p != '\0' && !(*p == ',' && depth == 0))
            continue;
        len = (size_t)(p - start);
        if (*n == cap) {
            mmm_value *nv = realloc(*out, 2 * cap * sizeof *nv);
            if (!nv)
                return CLI_FAIL;
            *out = nv;
            cap *= 2;
        }
        if ((rc = parse_value(what, start, len, &(*out)[*n])) != CLI_OK)
            return rc;
        ++*n;
        if (*p == '\0')
            break;
        start = p + 1;
    }
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* Loading: like cli_load, without evaluating (the default point may be
 * infeasible: the sweep is there to find feasible ones). */

static int load(const opt_args *o, mmm_program **prog, mmm_instance **inst,
                mmm_override *ov, size_t *nov)
{
    mmm_machine *machine = NULL;
    mmm_error err;
    int rc = CLI_FAIL;

    *prog = NULL;
    *inst = NULL;
    if (o->c.machine_path &&
        mmm_machine_load_file(&machine, o->c.machine_path, &o->c.limits,
                              &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    if (cli_read_program(&o->c, o->file, machine, prog, NULL) != CLI_OK)
        ;
    else if (cli_overrides(&o->c, *prog, 0, ov, nov) != CLI_OK)
        ;
    else if (mmm_instance_new(inst, *prog, &err) < 0)
        cli_print_error(&err);
    else
        rc = CLI_OK;
    mmm_machine_free(machine);
    return rc;
}

/* Fill the sweep spec from the options.  lists[] receive malloc'ed
 * --values arrays. */
static int build_spec(mmm_sweep_spec *spec, const opt_args *o,
                      const mmm_program *prog, const mmm_override *ov,
                      size_t nov, mmm_value **lists)
{
    size_t a, k;
    int rc;
    memset(spec, 0, sizeof *spec);
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
    show_time = spec->objective == MMM_OBJECTIVE_TIME;
    if (spec->objective == MMM_OBJECTIVE_BOUND && !o->c.has_p &&
        mmm_program_find_param(prog, "p") < 0)
        return cli_usage("optimize", "--objective bound needs p: give -p P "
                         "(%s declares no parameter p)", prog->file);
    for (a = 0; a < o->naxes; a++) {
        const axis_opt *ax = &o->axes[a];
        mmm_sweep_axis *sx = &spec->axes[a];
        sx->slot = mmm_program_find_param(prog, ax->name);
        if (sx->slot < 0) {
            fprintf(stderr, "%s: error: --param %s: the file declares no "
                    "parameter '%s'\n", prog->file, ax->name, ax->name);
            return CLI_FAIL;
        }
        for (k = 0; k < nov; k++)
            if (ov[k].slot == sx->slot)
                fprintf(stderr, "%s: note: -D %s ignored: %s is swept\n",
                        prog->file, ax->name, ax->name);
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

/* --baseline "V,V" (in --param order) or "NAME=V,NAME=V". */
static int parse_baseline(mmm_sweep_spec *spec, const opt_args *o)
{
    const char *p = o->baseline, *start;
    size_t a, next = 0;
    int rc, depth = 0, done[MMM_SWEEP_MAX_AXES] = {0};
    if (!p)
        return CLI_OK;
    for (start = p;; p++) {
        const char *eq, *val;
        size_t ax = next;
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p != '\0' && !(*p == ',' && depth == 0))
            continue;
        val = start;
        eq = memchr(start, '=', (size_t)(p - start));
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
        if (ax >= o->naxes || done[ax])
            return cli_usage("optimize", "--baseline needs one value per "
                             "--param (%zu)", o->naxes);
        if ((rc = parse_value("--baseline", val, (size_t)(p - val),
                              &spec->baseline[ax])) != CLI_OK)
            return rc;
        done[ax] = 1;
        next = ax + 1;
        if (*p == '\0')
            break;
        start = p + 1;
    }
    for (a = 0; a < o->naxes; a++)
        if (!done[a])
            return cli_usage("optimize", "--baseline gives no value for '%s'",
                             o->axes[a].name);
    spec->has_baseline = 1;
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* The per-point sink: JSON/CSV rows, sampled text rows, plot curves. */

typedef struct row {
    mmm_sweep_point pt;
    char reason[200];
} row;

#define NCURVES 8
#define NSLOTS (NCURVES + 1)

typedef struct sink {
    const opt_args *o;
    const mmm_program *prog;
    const mmm_sweep_result *plan;   /* resolved axes */
    uint64_t total;
    json_writer *jw;
    /* text: a sample of the rows */
    row *rows;
    size_t nrows, cap;
    uint64_t stride;
    /* plot */
    int plotting;
    mmm_plot_curve curves[2 * NSLOTS];
    size_t ncurves;
    uint64_t curve_of_axis1[NCURVES]; /* 2D: axis-1 index of each curve */
    char curve_labels[NSLOTS][80];
} sink;

static void print_table_row(const sink *s, const mmm_sweep_point *pt,
                            const char *reason);

static const char *pname(const sink *s, size_t a)
{
    return s->prog->params[s->plan->axes[a].slot].name;
}

static void put_value(FILE *f, mmm_value v)
{
    char buf[64];
    fputs(mmm_value_format(v, 0, buf, sizeof buf), f);
}

/* "FILE:LINE: message": where and why a point is infeasible (not an
 * error of the run, so without "error:"). */
static char *fmt_reason(const mmm_error *why, char *buf, size_t size)
{
    if (why->file[0] && why->line > 0)
        snprintf(buf, size, "%s:%ld: %s", why->file, why->line, why->message);
    else if (why->file[0])
        snprintf(buf, size, "%s: %s", why->file, why->message);
    else
        snprintf(buf, size, "%s", why->message);
    return buf;
}

static void json_row(sink *s, const mmm_sweep_point *pt, const mmm_error *why)
{
    json_writer *w = s->jw;
    size_t a;
    int ok = pt->status == 0;
    json_begin_object_flat(w); /* one point per line */
    json_key(w, "params");
    json_begin_object(w);
    for (a = 0; a < s->plan->naxes; a++) {
        json_key(w, pname(s, a));
        json_value(w, pt->params[a]);
    }
    json_end_object(w);
#define NUM_(key, v) do { json_key(w, key); if (ok) json_double(w, v); else json_null(w); } while (0)
#define INT_(key, v) do { json_key(w, key); if (ok) json_int(w, v); else json_null(w); } while (0)
    NUM_("W", pt->W);
    NUM_("S", pt->S);
    NUM_("O", pt->O);
    INT_("N", pt->N);
    INT_("L", pt->L);
    NUM_("C", pt->C);
    INT_("K", pt->K);
    json_key(w, "graham_brent");
    if (ok && pt->has_p)
        json_double(w, pt->graham_brent);
    else
        json_null(w);
    NUM_("corollary", pt->corollary);
    if (show_time) {
        json_key(w, "seconds");
        if (ok)
            json_double(w, pt->seconds);
        else
            json_null(w);
    }
#undef NUM_
#undef INT_
    json_key(w, "feasible");
    json_bool(w, ok);
    if (!ok) {
        char buf[2048];
        json_key(w, "reason");
        json_string(w, fmt_reason(why, buf, sizeof buf));
    }
    json_end_object(w);
}

static void csv_quote(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void csv_header(const sink *s)
{
    size_t a;
    for (a = 0; a < s->plan->naxes; a++)
        printf("%s,", pname(s, a));
    printf("feasible,W,S,O,N,L,C,K,graham_brent,corollary,%sreason\n",
           show_time ? "seconds," : "");
}

static void csv_row(const sink *s, const mmm_sweep_point *pt,
                    const mmm_error *why)
{
    size_t a;
    for (a = 0; a < s->plan->naxes; a++) {
        put_value(stdout, pt->params[a]);
        putchar(',');
    }
    if (pt->status == 0) {
        printf("1,%.17g,%.17g,%.17g,%lld,%lld,%.17g,%lld,", pt->W, pt->S,
               pt->O, (long long)pt->N, (long long)pt->L, pt->C,
               (long long)pt->K);
        if (pt->has_p)
            printf("%.17g", pt->graham_brent);
        printf(",%.17g,", pt->corollary);
        if (show_time)
            printf("%.17g,", pt->seconds);
        putchar('\n');
    } else {
        char buf[2048];
        printf("0,,,,,,,,,,%s", show_time ? "," : "");
        csv_quote(fmt_reason(why, buf, sizeof buf));
        putchar('\n');
    }
}

static int keep_row(sink *s, const mmm_sweep_point *pt, const mmm_error *why)
{
    row *r;
    if (s->nrows == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        row *nr = realloc(s->rows, cap * sizeof *nr);
        if (!nr)
            return MMM_ENOMEM;
        s->rows = nr;
        s->cap = cap;
    }
    r = &s->rows[s->nrows++];
    r->pt = *pt;
    r->reason[0] = '\0';
    if (why) {
        /* Truncated on purpose: the table shows a one-line summary. */
        size_t n = strlen(why->message);
        if (n >= sizeof r->reason)
            n = sizeof r->reason - 1;
        memcpy(r->reason, why->message, n);
        r->reason[n] = '\0';
    }
    return MMM_OK;
}

static double nan_unless(int ok, double v)
{
    return ok ? v : NAN;
}

static int plot_point(sink *s, const mmm_sweep_point *pt)
{
    int ok = pt->status == 0;
    double x = pt->params[0].d;
    int rc = 0;
    if (s->plan->naxes == 1) {
        rc |= mmm_plot_curve_add(&s->curves[0], x, nan_unless(ok, pt->W));
        rc |= mmm_plot_curve_add(&s->curves[1], x, nan_unless(ok, pt->S));
        rc |= mmm_plot_curve_add(&s->curves[2], x, nan_unless(ok, pt->O));
        rc |= mmm_plot_curve_add(&s->curves[3], x,
                                 nan_unless(ok && pt->has_p, pt->graham_brent));
        rc |= mmm_plot_curve_add(&s->curves[4], x, nan_unless(ok, pt->corollary));
    } else {
        uint64_t j = pt->index % s->plan->axes[1].count;
        size_t c;
        for (c = 0; c < s->ncurves; c++)
            if (s->curve_of_axis1[c] == j) {
                double bound = pt->has_p ? pt->graham_brent : pt->corollary;
                rc |= mmm_plot_curve_add(&s->curves[c], x, nan_unless(ok, pt->O));
                rc |= mmm_plot_curve_add(&s->curves[NSLOTS + c], x,
                                         nan_unless(ok, bound));
            }
    }
    return rc ? MMM_ENOMEM : MMM_OK;
}

static int on_point(const mmm_sweep_point *pt, const mmm_error *why,
                    void *payload)
{
    sink *s = payload;
    int rc = MMM_OK;
    if (s->o->c.format == CLI_JSON)
        json_row(s, pt, why);
    else if (s->o->c.format == CLI_CSV)
        csv_row(s, pt, why);
    else if (s->o->max_rows == 0) {
        /* All rows: print them as they come (constant memory); the
         * summary follows the table. */
        print_table_row(s, pt, why ? why->message : "");
        putchar('\n');
    } else if (pt->index % s->stride == 0 || pt->index + 1 == s->total)
        rc = keep_row(s, pt, why);
    if (rc == MMM_OK && s->plotting)
        rc = plot_point(s, pt);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Plot */

/* Curve slots: panel 1 uses [0, NSLOTS), panel 2 [NSLOTS, 2 NSLOTS).  In a
 * two-parameter sweep slot NCURVES holds the curve through the best point
 * when none of the sampled values of the second parameter is the best's. */
#define P2(c) (NSLOTS + (c))

static int plot_init(sink *s)
{
    static const char *labels1[5] = {
        "W  work", "S  span", "O  overhead",
        "Graham-Brent (N/p + L)C", "corollary (N/K + L)C"};
    static const int colors1[5] = {0, 3, 1, 2, 5};
    /* Colour-blind-safe palette without black (kept for the best). */
    static const int colors2[NCURVES] = {0, 1, 2, 3, 4, 5, 7, 0};
    size_t c;
    uint64_t n0 = s->plan->axes[0].count, n1;
    if (s->plan->naxes == 1) {
        s->ncurves = 5;
        for (c = 0; c < 5; c++) {
            if (mmm_plot_curve_init(&s->curves[c], labels1[c], n0, 0) < 0)
                return MMM_ENOMEM;
            s->curves[c].color = colors1[c];
        }
        s->curves[4].line = MMM_PLOT_DASHED;
        return MMM_OK;
    }
    n1 = s->plan->axes[1].count;
    s->ncurves = n1 < NCURVES ? (size_t)n1 : NCURVES;
    for (c = 0; c < s->ncurves; c++) {
        char v[64];
        uint64_t j = s->ncurves == n1 ? c
                     : (uint64_t)((double)c * (double)(n1 - 1) /
                                  (double)(s->ncurves - 1) + 0.5);
        s->curve_of_axis1[c] = j;
        snprintf(s->curve_labels[c], sizeof s->curve_labels[c], "%s = %s",
                 pname(s, 1),
                 mmm_value_format(mmm_sweep_range_value(&s->plan->axes[1], j),
                                  0, v, sizeof v));
        if (mmm_plot_curve_init(&s->curves[c], s->curve_labels[c], n0, 0) < 0 ||
            mmm_plot_curve_init(&s->curves[P2(c)], s->curve_labels[c], n0, 0) < 0)
            return MMM_ENOMEM;
        s->curves[c].color = s->curves[P2(c)].color = colors2[c];
        if (c == NCURVES - 1)
            s->curves[c].line = s->curves[P2(c)].line = MMM_PLOT_DASHED;
    }
    return MMM_OK;
}

static void plot_dispose(sink *s)
{
    size_t c;
    for (c = 0; c < 2 * NSLOTS; c++)
        mmm_plot_curve_dispose(&s->curves[c]);
}

static int params_differ_(const mmm_sweep_result *res,
                          const mmm_sweep_point *a, const mmm_sweep_point *b)
{
    size_t i;
    for (i = 0; i < res->naxes; i++)
        if (a->params[i].d != b->params[i].d)
            return 1;
    return 0;
}

static void point_text(char *buf, size_t size, const sink *s,
                       const mmm_sweep_point *pt)
{
    size_t a, len = 0;
    buf[0] = '\0';
    for (a = 0; a < s->plan->naxes && len + 1 < size; a++) {
        char v[64];
        int n = snprintf(buf + len, size - len, "%s%s = %s", a ? ", " : "",
                         pname(s, a),
                         mmm_value_format(pt->params[a], 0, v, sizeof v));
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

/* Two parameters: the curve through the best point, in black.  When its
 * value of the second parameter was not sampled, sweep the first
 * parameter again at that value (count0 points, the same evaluation). */
typedef struct best_curve {
    mmm_plot_curve *o, *bound;
} best_curve;

static int best_curve_point(const mmm_sweep_point *pt, const mmm_error *why,
                            void *payload)
{
    best_curve *bc = payload;
    int ok = pt->status == 0;
    double bound = pt->has_p ? pt->graham_brent : pt->corollary;
    (void)why;
    if (mmm_plot_curve_add(bc->o, pt->params[0].d, nan_unless(ok, pt->O)) < 0 ||
        mmm_plot_curve_add(bc->bound, pt->params[0].d, nan_unless(ok, bound)) < 0)
        return MMM_ENOMEM;
    return MMM_OK;
}

static int add_best_curve(sink *s, const mmm_sweep_result *res,
                          mmm_instance *inst, const mmm_sweep_spec *spec)
{
    uint64_t jb = res->best.index % s->plan->axes[1].count;
    mmm_sweep_spec one = *spec;
    mmm_sweep_result r;
    mmm_value v = res->best.params[1];
    best_curve bc;
    mmm_error err;
    char buf[64];
    size_t c;

    for (c = 0; c < s->ncurves; c++)
        if (s->curve_of_axis1[c] == jb) {
            /* Already drawn: make it the black one. */
            snprintf(s->curve_labels[c] + strlen(s->curve_labels[c]),
                     sizeof s->curve_labels[c] - strlen(s->curve_labels[c]),
                     " (best)");
            s->curves[c].color = s->curves[P2(c)].color = 6;
            s->curves[c].line = s->curves[P2(c)].line = MMM_PLOT_SOLID;
            return MMM_OK;
        }
    snprintf(s->curve_labels[NCURVES], sizeof s->curve_labels[NCURVES],
             "%s = %s (best)", pname(s, 1), mmm_value_format(v, 0, buf, sizeof buf));
    if (mmm_plot_curve_init(&s->curves[NCURVES], s->curve_labels[NCURVES],
                            s->plan->axes[0].count, 0) < 0 ||
        mmm_plot_curve_init(&s->curves[P2(NCURVES)], s->curve_labels[NCURVES],
                            s->plan->axes[0].count, 0) < 0)
        return MMM_ENOMEM;
    s->curves[NCURVES].color = s->curves[P2(NCURVES)].color = 6;
    one.axes[1].values = &v;
    one.axes[1].nvalues = 1;
    one.has_baseline = 0;
    bc.o = &s->curves[NCURVES];
    bc.bound = &s->curves[P2(NCURVES)];
    if (mmm_sweep_run(&r, inst, &one, best_curve_point, &bc, &err) < 0) {
        cli_print_error(&err);
        return MMM_EINVAL;
    }
    s->ncurves++;
    return MMM_OK;
}

static void add_mark(mmm_plot_mark *marks, size_t *nm, char (*ml)[160],
                     const char *what, const sink *s, const mmm_sweep_point *pt,
                     int color, mmm_plot_line line)
{
    char at[128];
    point_text(at, sizeof at, s, pt);
    snprintf(ml[*nm], sizeof ml[*nm], "%s %s", what, at);
    marks[*nm] = (mmm_plot_mark){pt->params[0].d, ml[*nm], color, line};
    ++*nm;
}

static int write_plot(sink *s, const mmm_sweep_result *res,
                      mmm_instance *inst, const mmm_sweep_spec *spec)
{
    mmm_plot_panel pan[2];
    mmm_plot_mark marks[4];
    mmm_plot plot;
    char title[256], sub[256], ml[4][160];
    size_t c, nm = 0, n2 = s->plan->naxes == 2;
    mmm_error err;
    int has_gb = res->has_p;

    if (n2 && res->has_best && add_best_curve(s, res, inst, spec) < 0)
        return CLI_FAIL;
    for (c = 0; c < 2 * NSLOTS; c++)
        if (mmm_plot_curve_finish(&s->curves[c]) < 0)
            return CLI_FAIL;
    memset(pan, 0, sizeof pan);
    memset(&plot, 0, sizeof plot);
    if (!n2) {
        pan[0].ylabel = "W, S (operations);  O (cycles)";
        pan[0].curves = s->curves;
        pan[0].ncurves = 3;
        pan[1].ylabel = "time bound (cycles)";
        pan[1].curves = has_gb ? s->curves + 3 : s->curves + 4;
        pan[1].ncurves = has_gb ? 2 : 1;
    } else {
        pan[0].ylabel = "O  parallelism overhead (cycles)";
        pan[0].curves = s->curves;
        pan[0].ncurves = s->ncurves;
        pan[1].ylabel = has_gb ? "Graham-Brent bound (cycles)"
                               : "corollary bound (cycles)";
        pan[1].curves = s->curves + NSLOTS;
        pan[1].ncurves = s->ncurves;
    }
    if (res->has_best) {
        add_mark(marks, &nm, ml, "best", s, &res->best, 6, MMM_PLOT_SOLID);
        if (params_differ_(res, &res->baseline, &res->best))
            add_mark(marks, &nm, ml, "baseline", s, &res->baseline, 6,
                     MMM_PLOT_DOTTED);
        if (has_gb && params_differ_(res, &res->min_bound, &res->best))
            add_mark(marks, &nm, ml, "min Graham-Brent", s, &res->min_bound, 3,
                     MMM_PLOT_DASHED);
        if (params_differ_(res, &res->min_corollary, &res->best) &&
            (!has_gb || params_differ_(res, &res->min_corollary, &res->min_bound)))
            add_mark(marks, &nm, ml, "min corollary", s, &res->min_corollary, 1,
                     MMM_PLOT_DASHED);
    }
    snprintf(title, sizeof title, "%s: sweep of %s%s%s", s->prog->name,
             pname(s, 0), n2 ? " and " : "", n2 ? pname(s, 1) : "");
    snprintf(sub, sizeof sub, "best = min %s;  %llu values, %llu feasible",
             spec->objective == MMM_OBJECTIVE_OVERHEAD ? "O"
             : spec->objective == MMM_OBJECTIVE_BOUND ? "Graham-Brent bound"
             : spec->objective == MMM_OBJECTIVE_TIME  ? "predicted time"
                                                      : "corollary bound",
             (unsigned long long)res->npoints,
             (unsigned long long)res->nfeasible);
    if (has_gb)
        snprintf(sub + strlen(sub), sizeof sub - strlen(sub), ";  p = %lld",
                 (long long)res->best.p);
    plot.title = title;
    plot.subtitle = sub;
    plot.xlabel = pname(s, 0);
    plot.panels = pan;
    plot.npanels = 2;
    plot.marks = marks;
    plot.nmarks = nm;
    if (mmm_plot_write(&plot, s->o->plot, &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* Warnings and notes about the choice, shared by text and JSON. */

#define MAX_MSGS 6
/* W or S varying by more than this over the range gets a note. */
#define PREMISE_FACTOR 2.0

typedef struct msgs {
    char text[MAX_MSGS][600];
    int warning[MAX_MSGS];
    size_t n;
} msgs;

static void add_msg(msgs *m, int warning, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void add_msg(msgs *m, int warning, const char *fmt, ...)
{
    va_list ap;
    if (m->n == MAX_MSGS)
        return;
    va_start(ap, fmt);
    vsnprintf(m->text[m->n], sizeof m->text[m->n], fmt, ap);
    va_end(ap);
    m->warning[m->n++] = warning;
}

/* A ratio with enough digits that one close to 1 does not print as "1". */
static char *fmt_ratio(double v, char *buf, size_t size)
{
    snprintf(buf, size, "%.6g", v);
    if (v != 1 && strtod(buf, NULL) == 1)
        snprintf(buf, size, "%.12g", v);
    return buf;
}

/* One bound (Graham–Brent or corollary): fails the check, or is minimized
 * elsewhere than at the best point. */
static void bound_msgs(msgs *m, const sink *s, const mmm_sweep_result *res,
                       const mmm_sweep_spec *spec, int gb)
{
    const char *obj = mmm_objective_name(spec->objective);
    const char *what = gb ? "Graham-Brent" : "corollary";
    const mmm_sweep_point *mn = gb ? &res->min_bound : &res->min_corollary;
    double at_best = gb ? res->best.graham_brent : res->best.corollary;
    double at_base = gb ? res->baseline.graham_brent : res->baseline.corollary;
    double at_min = gb ? mn->graham_brent : mn->corollary;
    int ok = gb ? res->graham_brent_not_worse : res->corollary_not_worse;
    char b[128], s0[128], mnt[128], pbuf[48] = "";
    char x[32], y[32];

    point_text(b, sizeof b, s, &res->best);
    point_text(s0, sizeof s0, s, &res->baseline);
    point_text(mnt, sizeof mnt, s, mn);
    if (gb)
        snprintf(pbuf, sizeof pbuf, " (p = %lld)", (long long)res->best.p);
    if (!ok)
        add_msg(m, 1, "the %s-optimal %s fails the %s check: its %s bound%s "
                "is %sx the baseline's (%s); the %s bound is smallest at %s "
                "(%s)", obj, b, what, what, pbuf,
                fmt_ratio(at_best / at_base, x, sizeof x), s0, what, mnt,
                cli_fmt_num(at_min, y, sizeof y));
    else if (params_differ_(res, mn, &res->best))
        add_msg(m, 0, "the %s bound%s is smallest at %s (%s, %sx the bound at "
                "the best value)", what, pbuf, mnt,
                cli_fmt_num(at_min, x, sizeof x),
                fmt_ratio(at_min / at_best, y, sizeof y));
}

static void collect_msgs(msgs *m, const sink *s, const mmm_sweep_result *res,
                         const mmm_sweep_spec *spec)
{
    memset(m, 0, sizeof *m);
    if (!res->has_best)
        return;
    if (res->has_p)
        bound_msgs(m, s, res, spec, 1);
    bound_msgs(m, s, res, spec, 0);
    if (res->W_factor > PREMISE_FACTOR || res->S_factor > PREMISE_FACTOR) {
        char w[32], x[32];
        add_msg(m, 0, "W varies by a factor %s and S by %s over the range: the "
                "slides' recipe assumes both stay within a small constant "
                "factor, so judge by the bounds, not by O alone",
                cli_fmt_num(res->W_factor, w, sizeof w),
                cli_fmt_num(res->S_factor, x, sizeof x));
    }
    if (res->nfeasible < res->npoints) {
        char at[128];
        mmm_sweep_point tmp;
        memset(&tmp, 0, sizeof tmp);
        memcpy(tmp.params, res->first_infeasible_params, sizeof tmp.params);
        point_text(at, sizeof at, s, &tmp);
        add_msg(m, 0, "%llu of %llu values are infeasible (first: %s: %s)",
                (unsigned long long)(res->npoints - res->nfeasible),
                (unsigned long long)res->npoints, at,
                res->first_infeasible.message);
    }
}

/* ------------------------------------------------------------------ */
/* JSON */

static void json_params(json_writer *w, const sink *s, const mmm_value *v)
{
    size_t a;
    json_key(w, "params");
    json_begin_object(w);
    for (a = 0; a < s->plan->naxes; a++) {
        json_key(w, pname(s, a));
        json_value(w, v[a]);
    }
    json_end_object(w);
}

static void json_head(sink *s, const mmm_sweep_spec *spec)
{
    json_writer *w = s->jw;
    size_t a;
    uint64_t i;
    json_begin_object(w);
    json_key(w, "program");
    json_string(w, s->prog->name);
    json_key(w, "file");
    json_string(w, s->prog->file);
    json_key(w, "param");
    json_begin_array(w);
    for (a = 0; a < s->plan->naxes; a++)
        json_string(w, pname(s, a));
    json_end_array(w);
    json_key(w, "objective");
    json_string(w, mmm_objective_name(spec->objective));
    json_key(w, "ranges");
    json_begin_object(w);
    for (a = 0; a < s->plan->naxes; a++) {
        const mmm_sweep_range *r = &s->plan->axes[a];
        json_key(w, pname(s, a));
        json_begin_object(w);
        if (r->values) {
            json_key(w, "values");
            json_begin_array(w);
            for (i = 0; i < r->count; i++)
                json_value(w, r->values[i]);
            json_end_array(w);
        } else {
            json_key(w, "from"); json_value(w, r->from);
            json_key(w, "to"); json_value(w, r->to);
            json_key(w, "step"); json_value(w, r->step);
        }
        json_key(w, "count");
        json_int(w, (int64_t)r->count);
        json_end_object(w);
    }
    json_end_object(w);
    json_key(w, "sweep");
    json_begin_array(w);
}

static void json_point(json_writer *w, const sink *s, const char *key,
                       const mmm_sweep_point *pt, const mmm_metrics *m)
{
    json_key(w, key);
    if (!m) {
        json_null(w);
        return;
    }
    json_begin_object(w);
    json_params(w, s, pt->params);
    cli_json_metrics(w, m);
    cli_json_bounds(w, m);
    json_end_object(w);
}

static void json_minimizer(json_writer *w, const sink *s, const char *key,
                           const mmm_sweep_point *pt, double v)
{
    json_key(w, key);
    json_begin_object(w);
    json_params(w, s, pt->params);
    json_key(w, "value");
    json_double(w, v);
    json_end_object(w);
}

static void json_tail(sink *s, const mmm_sweep_result *res,
                      const mmm_metrics *mb, const mmm_metrics *m0,
                      const msgs *m)
{
    json_writer *w = s->jw;
    size_t i;
    int have = res->has_best;
    json_end_array(w); /* sweep */
    json_key(w, "points"); json_int(w, (int64_t)res->npoints);
    json_key(w, "feasible"); json_int(w, (int64_t)res->nfeasible);
    json_point(w, s, "best", &res->best, have ? mb : NULL);
    json_point(w, s, "baseline", &res->baseline, have ? m0 : NULL);
    if (have) {
        json_key(w, "ratios");
        json_begin_object(w);
        json_key(w, "W"); json_double(w, res->ratio_W);
        json_key(w, "S"); json_double(w, res->ratio_S);
        json_key(w, "O"); json_double(w, res->ratio_O);
        if (res->has_p) {
            json_key(w, "graham_brent");
            json_double(w, res->ratio_graham_brent);
        }
        json_key(w, "corollary"); json_double(w, res->ratio_corollary);
        json_end_object(w);
        json_key(w, "factors");
        json_begin_object(w);
        json_key(w, "W"); json_double(w, res->W_factor);
        json_key(w, "S"); json_double(w, res->S_factor);
        json_end_object(w);
        json_key(w, "checks");
        json_begin_object(w);
        if (res->has_p) {
            json_key(w, "graham_brent_not_worse");
            json_bool(w, res->graham_brent_not_worse);
        }
        json_key(w, "corollary_not_worse");
        json_bool(w, res->corollary_not_worse);
        json_end_object(w);
        json_key(w, "minimizers");
        json_begin_object(w);
        json_minimizer(w, s, "overhead", &res->min_overhead, res->min_overhead.O);
        if (res->has_p)
            json_minimizer(w, s, "graham_brent", &res->min_bound,
                           res->min_bound.graham_brent);
        json_minimizer(w, s, "corollary", &res->min_corollary,
                       res->min_corollary.corollary);
        json_end_object(w);
    }
    json_key(w, "warnings");
    json_begin_array(w);
    for (i = 0; i < m->n; i++)
        if (m->warning[i])
            json_string(w, m->text[i]);
    json_end_array(w);
    json_key(w, "notes");
    json_begin_array(w);
    for (i = 0; i < m->n; i++)
        if (!m->warning[i])
            json_string(w, m->text[i]);
    json_end_array(w);
    json_end_object(w);
    json_finish(w);
}

/* ------------------------------------------------------------------ */
/* Text */

static void print_range(const sink *s, size_t a)
{
    const mmm_sweep_range *r = &s->plan->axes[a];
    char x[64], y[64], z[64];
    uint64_t i;
    if (r->values) {
        printf("%s in {", pname(s, a));
        for (i = 0; i < r->count && i < 12; i++)
            printf("%s%s", i ? ", " : "",
                   mmm_value_format(r->values[i], 0, x, sizeof x));
        printf("%s}", r->count > 12 ? ", ..." : "");
        return;
    }
    printf("%s = %s .. %s step %s", pname(s, a),
           mmm_value_format(r->from, 0, x, sizeof x),
           mmm_value_format(r->to, 0, y, sizeof y),
           mmm_value_format(r->step, 0, z, sizeof z));
}

static void print_row_head(const sink *s, const char *tag)
{
    size_t a;
    printf("%-10s", tag);
    for (a = 0; a < s->plan->naxes; a++)
        printf(" %10.10s", pname(s, a));
}

static void print_params(const sink *s, const mmm_value *v)
{
    size_t a;
    char buf[64];
    for (a = 0; a < s->plan->naxes; a++)
        printf(" %10s", mmm_value_format(v[a], 0, buf, sizeof buf));
}

static void print_measures(const mmm_sweep_point *pt, int full)
{
    char a[32], b[32], c[32], d[32], e[32], f[32];
    printf(" %12s %12s %12s", cli_fmt_num(pt->W, a, sizeof a),
           cli_fmt_num(pt->S, b, sizeof b), cli_fmt_num(pt->O, c, sizeof c));
    if (full)
        printf(" %12lld %10lld %12s %12lld", (long long)pt->N, (long long)pt->L,
               cli_fmt_num(pt->C, d, sizeof d), (long long)pt->K);
    printf(" %13s %12s",
           pt->has_p ? cli_fmt_num(pt->graham_brent, e, sizeof e) : "-",
           cli_fmt_num(pt->corollary, f, sizeof f));
    if (show_time)
        printf(" %12s", pt->seconds > 0 ? cli_fmt_seconds(pt->seconds, a,
                                                           sizeof a)
                                        : "-");
}

static void print_summary(const sink *s, const mmm_sweep_result *res,
                          const mmm_sweep_spec *spec,
                          const mmm_instance *inst_at_best, const msgs *m)
{
    const mmm_program *prog = s->prog;
    char a[32], b[32], c[32], d[32], e[32];
    size_t i;

    printf("program    %s  (%s)\n", prog->name, prog->file);
    printf("sweep      ");
    for (i = 0; i < s->plan->naxes; i++) {
        if (i)
            printf("  x  ");
        print_range(s, i);
    }
    printf(": %llu values, %llu feasible\n", (unsigned long long)res->npoints,
           (unsigned long long)res->nfeasible);
    printf("objective  %s (minimized; ties go to the smaller value)\n",
           spec->objective == MMM_OBJECTIVE_OVERHEAD ? "overhead O"
           : spec->objective == MMM_OBJECTIVE_BOUND
               ? "Graham-Brent bound (N/p + L)C"
           : spec->objective == MMM_OBJECTIVE_TIME
               ? "time model, predicted seconds (docs/time.md)"
               : "corollary bound (N/K + L)C");
    if (!res->has_best)
        return;
    printf("at best   ");
    for (i = 0; i < prog->nparams; i++) {
        char v[64];
        printf(" %s=%s", prog->params[i].name,
               mmm_value_format(inst_at_best->values[i], 0, v, sizeof v));
    }
    printf("\n\n");
    print_row_head(s, "");
    printf(" %12s %12s %12s %13s %12s%s\n", "W", "S", "O", "Graham-Brent",
           "corollary", show_time ? "         time" : "");
    printf("%-10s", "best");
    print_params(s, res->best.params);
    print_measures(&res->best, 0);
    printf("\n%-10s", "baseline");
    print_params(s, res->baseline.params);
    print_measures(&res->baseline, 0);
    printf("\n%-10s", "s0/best");
    for (i = 0; i < s->plan->naxes; i++)
        printf(" %10s", "");
    printf(" %12s %12s %12s %13s %12s\n", cli_fmt_num(res->ratio_W, a, sizeof a),
           cli_fmt_num(res->ratio_S, b, sizeof b),
           cli_fmt_num(res->ratio_O, c, sizeof c),
           res->has_p ? cli_fmt_num(res->ratio_graham_brent, d, sizeof d) : "-",
           cli_fmt_num(res->ratio_corollary, e, sizeof e));
    printf("\nW varies by a factor %s over the feasible values (%s .. %s)\n",
           cli_fmt_num(res->W_factor, a, sizeof a),
           cli_fmt_num(res->W_min, b, sizeof b),
           cli_fmt_num(res->W_max, c, sizeof c));
    printf("S varies by a factor %s over the feasible values (%s .. %s)\n",
           cli_fmt_num(res->S_factor, a, sizeof a),
           cli_fmt_num(res->S_min, b, sizeof b),
           cli_fmt_num(res->S_max, c, sizeof c));
    if (res->has_p)
        printf("check      Graham-Brent bound (p = %lld) at best <= at baseline: %s\n",
               (long long)res->best.p,
               res->graham_brent_not_worse ? "yes" : "NO");
    else
        printf("check      Graham-Brent bound: p unknown (use -p P)\n");
    printf("check      corollary bound at best <= at baseline: %s\n",
           res->corollary_not_worse ? "yes" : "NO");
    for (i = 0; i < m->n; i++) /* warnings first */
        if (m->warning[i])
            printf("warning    %s\n", m->text[i]);
    for (i = 0; i < m->n; i++)
        if (!m->warning[i])
            printf("note       %s\n", m->text[i]);
}

static void print_table_head(const sink *s)
{
    size_t a;
    for (a = 0; a < s->plan->naxes; a++)
        printf("%s%10.10s", a ? " " : "", pname(s, a));
    printf(" %12s %12s %12s %12s %10s %12s %12s %13s %12s%s\n", "W", "S",
           "O", "N", "L", "C", "K", "Graham-Brent", "corollary",
           show_time ? "         time" : "");
}

/* One row without its tag and newline. */
static void print_table_row(const sink *s, const mmm_sweep_point *pt,
                            const char *reason)
{
    size_t a;
    char buf[64];
    for (a = 0; a < s->plan->naxes; a++)
        printf("%s%10s", a ? " " : "",
               mmm_value_format(pt->params[a], 0, buf, sizeof buf));
    if (pt->status == 0)
        print_measures(pt, 1);
    else
        printf("  infeasible: %s", reason);
}

static int row_cmp(const void *x, const void *y)
{
    const row *p = x, *q = y;
    return (p->pt.index > q->pt.index) - (p->pt.index < q->pt.index);
}

static const char *row_tag(const mmm_sweep_result *res, const row *r)
{
    uint64_t i = r->pt.index;
    if (r->pt.status != 0)
        return "";
    if (res->has_best && i == res->best.index)
        return "  <- best";
    if (res->baseline_in_sweep && i == res->baseline.index)
        return "  <- baseline";
    if (res->has_p && i == res->min_bound.index)
        return "  <- min Graham-Brent";
    if (i == res->min_corollary.index)
        return "  <- min corollary";
    if (i == res->min_overhead.index)
        return "  <- min O";
    return "";
}

static int print_table(sink *s, const mmm_sweep_result *res)
{
    const mmm_sweep_point *extra[5];
    size_t i, ne = 0, shown = 0;
    if (res->has_best) {
        extra[ne++] = &res->best;
        if (res->baseline_in_sweep)
            extra[ne++] = &res->baseline;
        if (res->has_p)
            extra[ne++] = &res->min_bound;
        extra[ne++] = &res->min_corollary;
        extra[ne++] = &res->min_overhead;
    }
    for (i = 0; i < ne; i++)
        if (keep_row(s, extra[i], NULL) < 0)
            return CLI_FAIL;
    qsort(s->rows, s->nrows, sizeof *s->rows, row_cmp);
    printf("\n");
    print_table_head(s);
    for (i = 0; i < s->nrows; i++) {
        const row *r = &s->rows[i];
        if (i > 0 && r->pt.index == s->rows[i - 1].pt.index)
            continue;
        print_table_row(s, &r->pt, r->reason);
        printf("%s\n", row_tag(res, r));
        shown++;
    }
    if (shown < res->npoints)
        printf("(%zu of %llu values shown; --max-rows 0 shows all, "
               "--format csv lists them)\n",
               shown, (unsigned long long)res->npoints);
    return CLI_OK;
}

/* ------------------------------------------------------------------ */
/* The command */

static int sink_init(sink *s, const opt_args *o, const mmm_program *prog,
                     const mmm_sweep_result *plan, uint64_t total,
                     json_writer *jw)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->prog = prog;
    s->plan = plan;
    s->total = total;
    s->jw = jw;
    s->stride = 1;
    if (o->max_rows > 0 && total > (uint64_t)o->max_rows)
        s->stride = (total + (uint64_t)o->max_rows - 1) / (uint64_t)o->max_rows;
    s->plotting = o->plot != NULL;
    if (s->plotting && plot_init(s) < 0)
        return CLI_FAIL;
    return CLI_OK;
}

static void sink_dispose(sink *s)
{
    free(s->rows);
    s->rows = NULL;
    plot_dispose(s);
}

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
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!path)
        return CLI_OK;
    if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png") && strcmp(dot, ".pdf")))
        return cli_usage("optimize", "--plot needs a file ending in .svg, .png "
                         "or .pdf, not '%s'", path);
    if (!mmm_plot_available()) {
        fprintf(stderr, "mmm optimize: error: this mmm was built without "
                "PLplot: --plot is not available\n");
        return CLI_FAIL;
    }
    return CLI_OK;
}

static int run(const opt_args *o, mmm_program *prog, mmm_instance *inst,
               mmm_sweep_spec *spec)
{
    mmm_sweep_result plan, res;
    mmm_metrics mb, m0;
    json_writer jw;
    sink s;
    msgs m;
    mmm_error err;
    uint64_t total = 0;
    int rc;

    memset(&mb, 0, sizeof mb);
    memset(&m0, 0, sizeof m0);
    if (mmm_sweep_resolve(&plan, &total, inst, spec, &err) < 0) {
        cli_print_error(&err);
        return CLI_FAIL;
    }
    json_init(&jw, stdout);
    if (sink_init(&s, o, prog, &plan, total, &jw) != CLI_OK) {
        sink_dispose(&s);
        return CLI_FAIL;
    }
    if (o->c.format == CLI_JSON)
        json_head(&s, spec);
    else if (o->c.format == CLI_CSV)
        csv_header(&s);
    else if (o->max_rows == 0)
        print_table_head(&s);
    rc = mmm_sweep_run(&res, inst, spec, on_point, &s, &err) < 0 ? CLI_FAIL : CLI_OK;
    if (rc != CLI_OK) {
        fflush(stdout);
        cli_print_error(&err);
        goto done;
    }
    if (res.has_best && (rc = analyse_ends(&mb, &m0, inst, spec, &res)) != CLI_OK)
        goto done;
    collect_msgs(&m, &s, &res, spec);
    if (o->c.format == CLI_JSON) {
        json_tail(&s, &res, &mb, &m0, &m);
    } else if (o->c.format == CLI_TEXT && o->max_rows == 0) {
        printf("\n");
        print_summary(&s, &res, spec, inst, &m);
    } else if (o->c.format == CLI_TEXT) {
        print_summary(&s, &res, spec, inst, &m);
        rc = print_table(&s, &res);
    }
    /* No plot when the command fails: an error never replaces an old file. */
    if (rc == CLI_OK && o->plot && res.has_best)
        rc = write_plot(&s, &res, inst, spec);
    if (rc == CLI_OK && !res.has_best) {
        char at[128];
        mmm_sweep_point tmp;
        memset(&tmp, 0, sizeof tmp);
        memcpy(tmp.params, res.first_infeasible_params, sizeof tmp.params);
        point_text(at, sizeof at, &s, &tmp);
        fprintf(stderr, "%s: error: no feasible value in the sweep (%s: %s)\n",
                prog->file, at, res.first_infeasible.message);
        rc = CLI_FAIL;
    }
done:
    mmm_metrics_dispose(&mb);
    mmm_metrics_dispose(&m0);
    sink_dispose(&s);
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
    if ((rc = load(&o, &prog, &inst, ov, &nov)) == CLI_OK &&
        (rc = build_spec(&spec, &o, prog, ov, nov, lists)) == CLI_OK &&
        (rc = parse_baseline(&spec, &o)) == CLI_OK)
        rc = run(&o, prog, inst, &spec);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mmm optimize: error: cannot write the output\n");
        rc = CLI_FAIL;
    }
    free(lists[0]);
    free(lists[1]);
    mmm_instance_free(inst);
    mmm_program_free(prog);
    return rc;
}
