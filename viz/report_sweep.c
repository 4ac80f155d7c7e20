/* report_sweep.c: the report's parameter sweeps: for each parameter with a
 * declared range, the measures and bounds over the range (mmm_sweep_run on
 * an instance of its own), a table of the minimizers and a PLplot figure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/optimize.h"
#include "mmm/plot.h"
#include "report_int.h"

#define LE "\xe2\x89\xa4"
#define MIDDOT "\xc2\xb7"

/* Sweeps above this many points are sampled (about SAMPLE_POINTS values,
 * geometric when the range spans decades): a report stays quick. */
#define FULL_SWEEP_MAX 20000
#define SAMPLE_POINTS 2000
/* Each point evaluates the whole program (about 1 µs per kernel, edge and
 * block class): points x program size is kept under this, a few seconds
 * per sweep; fewer than MIN_POINTS points is no sweep at all. */
#define SWEEP_BUDGET 5e6
#define MIN_POINTS 20

enum { CURVE_O, CURVE_W, CURVE_S, CURVE_GB, CURVE_COR, NCURVES };

typedef struct sweep_state {
    mmm_plot_curve curve[NCURVES];
    int oom;
} sweep_state;

static int on_point(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    sweep_state *st = payload;
    double x = pt->params[0].d;
    double nan = NAN;
    int feasible = why == NULL && pt->status == 0;
    int rc = 0;
    rc |= mmm_plot_curve_add(&st->curve[CURVE_O], x, feasible ? pt->O : nan);
    rc |= mmm_plot_curve_add(&st->curve[CURVE_W], x, feasible ? pt->W : nan);
    rc |= mmm_plot_curve_add(&st->curve[CURVE_S], x, feasible ? pt->S : nan);
    rc |= mmm_plot_curve_add(&st->curve[CURVE_GB], x,
                             feasible && pt->has_p ? pt->graham_brent : nan);
    rc |= mmm_plot_curve_add(&st->curve[CURVE_COR], x,
                             feasible && pt->K > 0 ? pt->corollary : nan);
    if (rc != 0) {
        st->oom = 1;
        return MMM_ENOMEM;
    }
    return 0;
}

/* Parameters swept by default: the program's own (not the machine file's)
 * that declare both ends of a range. */
static size_t default_sweeps(const mmm_program *p, int *slots, size_t max)
{
    size_t i, n = 0;
    for (i = 0; i < p->nparams && n < max; i++)
        if (p->params[i].min_text && p->params[i].max_text && !p->params[i].from_machine)
            slots[n++] = (int)i;
    return n;
}

/* For a long integer range: about SAMPLE_POINTS integers from..to,
 * geometric when the range spans more than three decades. */
static mmm_value *sample_range(const mmm_sweep_range *r, size_t want, size_t *n_out)
{
    double lo = r->from.d, hi = r->to.d;
    mmm_value *v;
    size_t i, n = 0;
    int geometric = lo > 0 && hi / lo > 1000;
    if (!r->from.exact || !r->to.exact || r->from.den != 1 || r->to.den != 1 || hi < lo)
        return NULL;
    if (want < 2)
        want = 2;
    v = malloc(want * sizeof *v);
    if (!v)
        return NULL;
    for (i = 0; i < want; i++) {
        double f = (double)i / (double)(want - 1);
        double x = geometric ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
        int64_t k = (int64_t)llround(x);
        if (k < r->from.num)
            k = r->from.num;
        if (k > r->to.num)
            k = r->to.num;
        if (n == 0 || k > v[n - 1].num)
            v[n++] = mmm_value_int(k);
    }
    *n_out = n;
    return v;
}

static void put_point_row(mmm_text *t, const char *what, const mmm_sweep_point *pt,
                          int has_p)
{
    char a[64], b[64], c[64], d[64], e[64], f[64];
    mmm__text_printf(t, "<tr><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                       "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                       "<td class=\"n\">%s</td></tr>\n",
                     what, mmm_value_format(pt->params[0], 0, a, sizeof a),
                     mmm__fmt_full(pt->O, b, sizeof b), mmm__fmt_full(pt->W, c, sizeof c),
                     mmm__fmt_full(pt->S, d, sizeof d),
                     has_p && pt->has_p ? mmm__fmt_full(pt->graham_brent, e, sizeof e)
                                       : "\xe2\x80\x94",
                     pt->K > 0 ? mmm__fmt_full(pt->corollary, f, sizeof f) : "\xe2\x80\x94");
}

static void put_table(mmm_text *t, const char *name, const mmm_sweep_result *res)
{
    char a[64], b[64];
    mmm__text_put(t, "<table>\n<tr><th></th><th class=\"n\">");
    mmm__text_put_escaped(t, name);
    mmm__text_put(t, "</th><th class=\"n\">O</th><th class=\"n\">W</th><th class=\"n\">S</th>"
                    "<th class=\"n\">(N/p + L)" MIDDOT "C</th><th class=\"n\">(N/K + L)" MIDDOT
                    "C</th></tr>\n");
    put_point_row(t, "smallest overhead O", &res->min_overhead, res->has_p);
    if (res->has_p)
        put_point_row(t, "smallest Graham" "\xe2\x80\x93" "Brent bound", &res->min_bound, 1);
    put_point_row(t, "smallest corollary bound", &res->min_corollary, res->has_p);
    mmm__text_put(t, "</table>\n");
    mmm__report_note(t, "%llu values swept, %llu feasible. Over the feasible values W varies "
                       "by a factor %s and S by a factor %s (the MMM recipe: minimize O "
                       "while W and S stay within a constant factor).",
                     (unsigned long long)res->npoints, (unsigned long long)res->nfeasible,
                     mmm__fmt_compact(res->W_factor, a, sizeof a),
                     mmm__fmt_compact(res->S_factor, b, sizeof b));
}

static int put_plot(mmm_text *t, sweep_state *st, const char *name, const mmm_instance *inst,
                    int slot, const mmm_sweep_result *res, mmm_error *err)
{
    mmm_plot plot;
    mmm_plot_panel panel[3];
    mmm_plot_mark mark[2];
    char dir[96], path[128], title[300], sub[300], xl[200], best[100], cur[100], v[64];
    char *svg = NULL;
    mmm_error e;
    int rc;
    memset(&plot, 0, sizeof plot);
    memset(panel, 0, sizeof panel);
    memset(mark, 0, sizeof mark);
    panel[0].ylabel = "overhead O";
    panel[0].curves = &st->curve[CURVE_O];
    panel[0].ncurves = 1;
    panel[1].ylabel = "work W, span S";
    panel[1].curves = &st->curve[CURVE_W];
    panel[1].ncurves = 2;
    panel[2].ylabel = "bounds on T";
    panel[2].curves = &st->curve[res->has_p ? CURVE_GB : CURVE_COR];
    panel[2].ncurves = res->has_p ? 2 : 1;
    snprintf(title, sizeof title, "%s: measures against %s",
             inst->program->name ? inst->program->name : "program", name);
    snprintf(sub, sizeof sub, "the other parameters as in the tables above");
    snprintf(xl, sizeof xl, "%s", name);
    snprintf(best, sizeof best, "smallest O: %s = %s", name,
             mmm_value_format(res->min_overhead.params[0], 0, v, sizeof v));
    snprintf(cur, sizeof cur, "current: %s = %s", name,
             mmm_value_format(inst->values[slot], 0, v, sizeof v));
    mark[0].x = res->min_overhead.params[0].d;
    mark[0].label = best;
    mark[0].color = 3;
    mark[0].line = MMM_PLOT_DASHED;
    mark[1].x = inst->values[slot].d;
    mark[1].label = cur;
    mark[1].color = 0;
    mark[1].line = MMM_PLOT_DOTTED;
    plot.title = title;
    plot.subtitle = sub;
    plot.xlabel = xl;
    plot.panels = panel;
    plot.npanels = 3;
    plot.marks = mark;
    plot.nmarks = mark[0].x == mark[1].x ? 1 : 2;
    mmm_error_clear(&e);
    if ((rc = mmm__report_tmpdir(dir, sizeof dir, &e)) == 0) {
        snprintf(path, sizeof path, "%s/sweep.svg", dir);
        rc = mmm_plot_write(&plot, path, &e);
        if (rc == 0)
            rc = mmm__report_slurp(&svg, path, &e);
        remove(path);
        remove(dir);
    }
    if (rc == MMM_ENOMEM) {
        *err = e;
        return rc;
    }
    if (rc < 0)
        mmm__report_note(t, "(no figure: %s)", e.message);
    else {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "sweep%d", slot);
        mmm__report_put_svg(t, svg, prefix);
    }
    free(svg);
    return 0;
}

static void curves_dispose(sweep_state *st)
{
    int i;
    for (i = 0; i < NCURVES; i++)
        mmm_plot_curve_dispose(&st->curve[i]);
}

static int curves_init(sweep_state *st, uint64_t expected)
{
    static const char *const label[NCURVES] = {
        "O", "W", "S", "Graham-Brent (N/p+L)C", "corollary (N/K+L)C"};
    static const int color[NCURVES] = {1, 0, 2, 3, 4};
    int i, rc = 0;
    memset(st, 0, sizeof *st);
    for (i = 0; i < NCURVES; i++) {
        rc |= mmm_plot_curve_init(&st->curve[i], label[i], expected, 0);
        st->curve[i].color = color[i];
    }
    st->curve[CURVE_S].line = MMM_PLOT_DASHED;
    st->curve[CURVE_COR].line = MMM_PLOT_DASHED;
    return rc ? MMM_ENOMEM : 0;
}

/* One sweep: its subsection, or a note saying why there is none. */
static int sweep_one(mmm_text *t, mmm_instance *si, const mmm_instance *inst, int slot,
                     const mmm_report_options *opt, mmm_error *err)
{
    const char *name = inst->program->params[slot].name;
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_result res;
    mmm_value *sample = NULL;
    sweep_state st;
    uint64_t npoints = 0, max_points;
    mmm_error e;
    int rc;
    size_t i;
    double size = (double)(si->program->nkernels + si->program->nedges +
                           si->program->nclasses) + 1.0;

    max_points = SWEEP_BUDGET / size < FULL_SWEEP_MAX ? (uint64_t)(SWEEP_BUDGET / size)
                                                      : FULL_SWEEP_MAX;
    spec.naxes = 1;
    spec.axes[0].slot = slot;
    spec.objective = MMM_OBJECTIVE_OVERHEAD;
    spec.fixed = opt->overrides;
    spec.nfixed = opt->noverrides;
    spec.has_p = inst->has_p;
    spec.p = inst->p;
    mmm__text_put(t, "<h3>");
    mmm__text_put_escaped(t, name);
    mmm__text_put(t, "</h3>\n");
    mmm_error_clear(&e);
    memset(&res, 0, sizeof res);
    if ((rc = mmm_sweep_resolve(&res, &npoints, si, &spec, &e)) < 0) {
        mmm__report_note(t, "No sweep: %s.", e.message);
        return rc == MMM_ENOMEM ? (*err = e, rc) : 0;
    }
    if (npoints > max_points) {
        size_t n = 0;
        if (max_points < MIN_POINTS ||
            !(sample = sample_range(&res.axes[0],
                                    max_points < SAMPLE_POINTS ? max_points : SAMPLE_POINTS,
                                    &n))) {
            mmm__report_note(t, "No sweep: %llu values of a program of this size are too "
                               "many for a report (mmm optimize sweeps them all).",
                             (unsigned long long)npoints);
            return 0;
        }
        spec.axes[0].values = sample;
        spec.axes[0].nvalues = n;
        mmm__report_note(t, "%llu values in the range: %zu of them are swept.",
                         (unsigned long long)npoints, n);
        npoints = n;
    }
    if ((rc = curves_init(&st, npoints)) < 0)
        goto done;
    rc = mmm_sweep_run(&res, si, &spec, on_point, &st, &e);
    for (i = 0; rc == 0 && i < NCURVES; i++)
        rc = mmm_plot_curve_finish(&st.curve[i]);
    if (rc == MMM_ENOMEM || st.oom) {
        rc = mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    } else if (rc < 0) {
        mmm__report_note(t, "The sweep failed: %s.", e.message);
        rc = 0;
    } else if (!res.has_best) {
        mmm__report_note(t, "No feasible value of %s in its range%s%s.", name,
                         res.first_infeasible.code ? ": " : "",
                         res.first_infeasible.code ? res.first_infeasible.message : "");
    } else {
        put_table(t, name, &res);
        if (mmm_plot_available())
            rc = put_plot(t, &st, name, inst, slot, &res, err);
        else
            mmm__report_note(t, "(no figure: this build of mmm has no PLplot)");
    }
    curves_dispose(&st);
done:
    free(sample);
    return rc;
}

int mmm__report_sweeps(mmm_text *t, const mmm_instance *inst,
                       const mmm_report_options *opt, mmm_error *err)
{
    const mmm_program *p = inst->program;
    int slots[MMM_REPORT_MAX_SWEEPS];
    size_t n = 0, i;
    mmm_instance *si = NULL;
    int rc = 0;

    if (opt->sweep) {
        for (i = 0; i < opt->nsweep && n < MMM_REPORT_MAX_SWEEPS; i++) {
            int s = mmm_program_find_param(p, opt->sweep[i]);
            if (s >= 0)
                slots[n++] = s;
        }
    } else {
        n = default_sweeps(p, slots, MMM_REPORT_MAX_SWEEPS);
    }
    if (n == 0)
        return 0; /* no parameter with a range: no section */
    if ((rc = mmm_instance_new(&si, p, err)) < 0)
        return rc;
    mmm__text_put(t, "<section id=\"sweeps\">\n<h2>Parameter sweeps</h2>\n");
    mmm__report_note(t, "Each parameter declared with a range is swept over it, the other "
                       "parameters fixed; an infeasible value (a violated constraint, a "
                       "count that is not an integer) leaves a gap.");
    for (i = 0; i < n && rc == 0; i++)
        rc = sweep_one(t, si, inst, slots[i], opt, err);
    mmm__text_put(t, "</section>\n");
    mmm_instance_free(si);
    return rc;
}
