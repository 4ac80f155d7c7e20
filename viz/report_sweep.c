/* report_sweep.c: the report's parameter sweeps: for each parameter with a
 * declared range, the measures and bounds over the range (mmm_sweep_run on
 * an instance of its own), a table of the minimizers and the figure of
 * `mmm optimize --plot` (sweep_plot.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/optimize.h"
#include "figure_int.h"
#include "mmm/plot.h"
#include "mmm/sweep_plot.h"
#include "report_int.h"

#define LE "\xe2\x89\xa4"
#define MIDDOT "\xc2\xb7"
#define GE "\xe2\x89\xa5"

/* Sweeps above this many points are sampled (about SAMPLE_POINTS values,
 * geometric when the range spans decades): a report stays quick. */
#define FULL_SWEEP_MAX 20000
#define SAMPLE_POINTS 2000
/* Each point evaluates the whole program (about 1 µs per kernel, edge and
 * block class): points x program size is kept under this, a few seconds
 * per sweep; fewer than MIN_POINTS points is no sweep at all. */
#define SWEEP_BUDGET 5e6
#define MIN_POINTS 20

/* What on_point is given: the plot (may be NULL), the report's options
 * (for their progress), what is swept, the points so far of all. */
typedef struct sweep_state {
    mmm_sweep_plot *sp;
    const mmm_report_options *opt;
    char what[96];
    uint64_t done, total;
} sweep_state;

static int on_point(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    sweep_state *st = payload;
    (void)why;
    if ((++st->done & 63) == 0)
        mmm__report_progress(st->opt, st->what, st->done, st->total);
    return st->sp ? mmm_sweep_plot_add(st->sp, pt) : 0;
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

static void put_point_row(mmm__tab *tb, const char *what, const mmm_sweep_point *pt,
                          int has_p)
{
    mmm_value v = pt->params[0];
    char a[64];
    mmm__tab_row(tb, NULL);
    mmm__tab_html(tb, NAN, "%s", what);
    if (v.exact && v.den == 1)
        mmm__tab_num(tb, (double)v.num);
    else
        mmm__tab_html(tb, v.d, "%s", mmm_value_format(v, 0, a, sizeof a));
    mmm__tab_num(tb, pt->O);
    mmm__tab_num(tb, pt->W);
    mmm__tab_num(tb, pt->S);
    if (has_p && pt->has_p)
        mmm__tab_num(tb, pt->graham_brent);
    else
        mmm__tab_empty(tb);
    if (pt->K > 0)
        mmm__tab_num(tb, pt->corollary);
    else
        mmm__tab_empty(tb);
}

static int put_table(mmm__text *t, const char *name, const mmm_sweep_result *res,
                     mmm_error *err)
{
    char a[64], b[64];
    mmm__text head;
    mmm__tab tb;
    int rc;
    mmm__text_init(&head);
    mmm__text_put_xml(&head, name);
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "", MMM__TAB_TEXT);
    mmm__tab_col(&tb, head.s ? head.s : "", MMM__TAB_NUM);
    mmm__tab_col(&tb, "O", MMM__TAB_NUM);
    mmm__tab_col(&tb, "W", MMM__TAB_NUM);
    mmm__tab_col(&tb, "S", MMM__TAB_NUM);
    mmm__tab_col(&tb, "(N/p + L)" MIDDOT "C", MMM__TAB_NUM);
    mmm__tab_col(&tb, "(N/K + L)" MIDDOT "C, p " GE " K", MMM__TAB_NUM);
    put_point_row(&tb, "smallest overhead O", &res->min_overhead, res->has_p);
    if (res->has_p)
        put_point_row(&tb, "smallest Graham" "\xe2\x80\x93" "Brent bound", &res->min_bound, 1);
    put_point_row(&tb, "smallest corollary bound", &res->min_corollary, res->has_p);
    tb.oom |= head.oom;
    rc = mmm__tab_end(&tb, t, err);
    mmm__text_dispose(&head);
    if (rc < 0)
        return rc;
    mmm__report_note(t, "%llu values swept, %llu feasible. Over the feasible values W varies "
                       "by a factor %s and S by a factor %s (the MMM recipe: minimize O "
                       "while W and S stay within a constant factor).",
                     (unsigned long long)res->npoints, (unsigned long long)res->nfeasible,
                     mmm__fmt_compact(res->W_factor, a, sizeof a),
                     mmm__fmt_compact(res->S_factor, b, sizeof b));
    return 0;
}

/* Without launch limits from the machine: a note when the value of the
 * smallest overhead launches blocks no current GPU runs. */
static void current_note(mmm__text *t, mmm_instance *si, const mmm_sweep_spec *spec,
                         const mmm_sweep_result *res)
{
    mmm_metrics m;
    mmm_error e;
    char v[64];
    int rc;
    if (res->limits_given > 0)
        return;
    rc = mmm_sweep_eval(&m, si, spec, res->min_overhead.params, MMM_METRICS_NO_PATHS, &e);
    mmm_metrics_dispose(&m);
    if (rc < 0 || mmm_time_check_launches(si, NULL, NULL, &e) != MMM_EINFEASIBLE)
        return;
    mmm__report_note(t, "No current GPU launches the blocks of %s = %s, where the overhead "
                       "is smallest: %s, the largest current GPUs allow (a machine file "
                       "with a GPU's launch limits keeps the sweep within them).",
                     si->program->params[spec->axes[0].slot].name,
                     mmm_value_format(res->min_overhead.params[0], 0, v, sizeof v),
                     e.message);
}

/* The figure (mmm optimize --plot's), or a note saying why there is none. */
static int put_plot(mmm__text *t, mmm_sweep_plot *sp, mmm_instance *si, int slot,
                    const mmm_sweep_spec *spec, const mmm_sweep_result *res,
                    mmm_error *err)
{
    char *svg = NULL;
    size_t len = 0;
    mmm_error e;
    int rc;
    mmm_error_clear(&e);
    rc = mmm__sweep_plot_svg(sp, res, si, spec, &svg, &len, &e);
    if (rc == MMM_ENOMEM)
        return mmm__report_fail(err, &e);
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

/* One sweep: its subsection, or a note saying why there is none.  The
 * baseline is the parameter's current value (marked in the figure). */
static int sweep_one(mmm__text *t, mmm_instance *si, const mmm_instance *inst, int slot,
                     const mmm_report_options *opt, mmm_error *err)
{
    const char *name = inst->program->params[slot].name;
    mmm_sweep_spec spec = MMM_SWEEP_SPEC_INIT;
    mmm_sweep_result plan, res;
    mmm_value *sample = NULL;
    mmm_sweep_plot *sp = NULL;
    sweep_state st = {NULL, NULL, "", 0, 0};
    uint64_t npoints = 0, max_points;
    mmm_error e;
    int rc;
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
    spec.has_baseline = 1;
    spec.baseline[0] = inst->values[slot];
    mmm__text_put(t, "<h3>");
    mmm__text_put_xml(t, name);
    mmm__text_put(t, "</h3>\n");
    mmm_error_clear(&e);
    memset(&res, 0, sizeof res);
    if ((rc = mmm_sweep_resolve(&plan, &npoints, si, &spec, &e)) < 0) {
        mmm__report_note(t, "No sweep: %s.", e.message);
        return rc == MMM_ENOMEM ? mmm__report_fail(err, &e) : 0;
    }
    if (npoints > max_points) {
        size_t n = 0;
        if (max_points < MIN_POINTS ||
            !(sample = sample_range(&plan.axes[0],
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
        if ((rc = mmm_sweep_resolve(&plan, NULL, si, &spec, &e)) < 0)
            goto failed;
    }
    if (mmm_plot_available() &&
        (rc = mmm_sweep_plot_new(&sp, inst->program, &plan, npoints, &e)) < 0)
        goto failed;
    st.sp = sp;
    st.opt = opt;
    st.total = npoints;
    snprintf(st.what, sizeof st.what, "sweeping %s", name);
    mmm__report_progress(opt, st.what, 0, npoints);
    rc = mmm_sweep_run(&res, si, &spec, on_point, &st, &e);
failed:
    if (rc == MMM_ENOMEM) {
        rc = mmm__report_fail(err, &e);
    } else if (rc < 0) {
        mmm__report_note(t, "The sweep failed: %s.", e.message);
        rc = 0;
    } else if (!res.has_best) {
        mmm__report_note(t, "No feasible value of %s in its range%s%s.", name,
                         res.first_infeasible.code ? ": " : "",
                         res.first_infeasible.code ? res.first_infeasible.message : "");
    } else if ((rc = put_table(t, name, &res, err)) == 0) {
        current_note(t, si, &spec, &res);
        if (sp)
            rc = put_plot(t, sp, si, slot, &spec, &res, err);
        else
            mmm__report_note(t, "(no figure: this build of mmm has no PLplot)");
    }
    mmm_sweep_plot_free(sp);
    free(sample);
    return rc;
}

int mmm__report_sweeps(mmm__text *t, const mmm_instance *inst,
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
