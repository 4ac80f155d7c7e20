/* sweep_plot.c: the figure of a parameter sweep (mmm/sweep_plot.h), one
 * for `mmm optimize --plot` and the report's sweeps: its curves, filled
 * point by point, its marks and titles, drawn by plot.c. */
#include "mmm/sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_int.h"
#include "mmm/plot.h"
#include "plot_int.h"
#include "base/abi.h"

/* Curve slots: panel 1 uses [0, NSLOTS), panel 2 [NSLOTS, 2 NSLOTS).  In a
 * two-parameter sweep slot NCURVES holds the curve through the best point
 * when none of the sampled values of the second parameter is the best's. */
#define NCURVES 10
#define NSLOTS (NCURVES + 1)
#define P2(c) (NSLOTS + (c))

struct mmm_sweep_plot {
    const mmm_program *prog;
    const mmm_sweep_result *plan;   /* resolved axes */
    uint64_t npoints;               /* values of the first parameter */
    mmm_plot_curve curves[2 * NSLOTS];
    size_t ncurves;
    uint64_t curve_of_axis1[NCURVES]; /* 2D: axis-1 index of each curve */
    char curve_labels[NSLOTS][80];
    /* the figure, once finished */
    mmm_plot_panel pan[4];
    mmm_plot_mark marks[4];
    mmm_plot plot;
    char title[256], sub[256], ml[4][160];
};

static const char *pname(const mmm_sweep_plot *sp, size_t a)
{
    return sp->prog->params[sp->plan->axes[a].slot].name;
}

static double nan_unless(int ok, double v)
{
    return ok ? v : NAN;
}

static int curves_init(mmm_sweep_plot *sp)
{
    static const char *labels1[5] = {
        "W  work", "S  span", "O  overhead",
        "Graham-Brent (N/p + L)C", "corollary (N/K+L)C, p>=K"};
    static const int colors1[5] = {0, 3, 1, 2, 5};
    /* Ten distinct colours, none black (kept for the best). */
    static const int colors2[NCURVES] = {0, 1, 2, 3, 4, 5, 8, 9, 10, 11};
    size_t c;
    uint64_t n0 = sp->npoints, n1;
    if (sp->plan->naxes == 1) {
        sp->ncurves = 5;
        for (c = 0; c < 5; c++) {
            if (mmm_plot_curve_init(&sp->curves[c], labels1[c], n0, 0) < 0)
                return MMM_ENOMEM;
            sp->curves[c].color = colors1[c];
        }
        sp->curves[4].line = MMM_PLOT_DASHED;
        return MMM_OK;
    }
    n1 = sp->plan->axes[1].count;
    sp->ncurves = n1 < NCURVES ? (size_t)n1 : NCURVES;
    for (c = 0; c < sp->ncurves; c++) {
        char v[64];
        uint64_t j = sp->ncurves == n1 ? c
                     : (uint64_t)((double)c * (double)(n1 - 1) /
                                  (double)(sp->ncurves - 1) + 0.5);
        sp->curve_of_axis1[c] = j;
        snprintf(sp->curve_labels[c], sizeof sp->curve_labels[c], "%s = %s",
                 pname(sp, 1),
                 mmm_value_format(mmm_sweep_range_value(&sp->plan->axes[1], j),
                                  0, v, sizeof v));
        if (mmm_plot_curve_init(&sp->curves[c], sp->curve_labels[c], n0, 0) < 0 ||
            mmm_plot_curve_init(&sp->curves[P2(c)], sp->curve_labels[c], n0, 0) < 0)
            return MMM_ENOMEM;
        sp->curves[c].color = sp->curves[P2(c)].color = colors2[c];
    }
    return MMM_OK;
}

int mmm_sweep_plot_new(mmm_sweep_plot **out, const mmm_program *prog,
                       const mmm_sweep_result *plan, uint64_t npoints,
                       mmm_error *err)
{
    mmm_sweep_plot *sp;
    if (!out)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_sweep_plot_new: bad argument");
    *out = NULL;
    if (!prog || !plan || plan->naxes < 1)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_sweep_plot_new: bad argument");
    if (plan->naxes > 2 || (plan->naxes == 2 && plan->axes[1].tied))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "a sweep's figure draws one "
                             "parameter or the grid of two, not a list of tuples or "
                             "more parameters");
    if (!(sp = calloc(1, sizeof *sp)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    sp->prog = prog;
    sp->plan = plan;
    sp->npoints = npoints;
    if (curves_init(sp) < 0) {
        mmm_sweep_plot_free(sp);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    *out = sp;
    return MMM_OK;
}

void mmm_sweep_plot_free(mmm_sweep_plot *sp)
{
    size_t c;
    if (!sp)
        return;
    for (c = 0; c < 2 * NSLOTS; c++)
        mmm_plot_curve_dispose(&sp->curves[c]);
    free(sp);
}

int mmm_sweep_plot_add(mmm_sweep_plot *sp, const mmm_sweep_point *pt)
{
    int ok = pt->status == 0;
    double x = pt->params[0].d;
    int rc = 0;
    if (sp->plan->naxes == 1) {
        rc |= mmm_plot_curve_add(&sp->curves[0], x, nan_unless(ok, pt->W));
        rc |= mmm_plot_curve_add(&sp->curves[1], x, nan_unless(ok, pt->S));
        rc |= mmm_plot_curve_add(&sp->curves[2], x, nan_unless(ok, pt->O));
        rc |= mmm_plot_curve_add(&sp->curves[3], x,
                                 nan_unless(ok && pt->has_p, pt->graham_brent));
        rc |= mmm_plot_curve_add(&sp->curves[4], x, nan_unless(ok, pt->corollary));
    } else {
        uint64_t j = pt->index % sp->plan->axes[1].count;
        size_t c;
        for (c = 0; c < sp->ncurves; c++)
            if (sp->curve_of_axis1[c] == j) {
                double bound = pt->has_p ? pt->graham_brent : pt->corollary;
                rc |= mmm_plot_curve_add(&sp->curves[c], x, nan_unless(ok, pt->O));
                rc |= mmm_plot_curve_add(&sp->curves[P2(c)], x,
                                         nan_unless(ok, bound));
            }
    }
    return rc ? MMM_ENOMEM : MMM_OK;
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

static int add_best_curve(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                          mmm_instance *inst, const mmm_sweep_spec *spec,
                          mmm_error *err)
{
    uint64_t jb = res->best.index % sp->plan->axes[1].count;
    mmm_sweep_spec one = *spec;
    mmm_sweep_result r;
    mmm_value v = res->best.params[1];
    best_curve bc;
    char buf[64];
    size_t c;
    int rc;

    for (c = 0; c < sp->ncurves; c++)
        if (sp->curve_of_axis1[c] == jb) {
            /* Already drawn: make it the black one. */
            snprintf(sp->curve_labels[c] + strlen(sp->curve_labels[c]),
                     sizeof sp->curve_labels[c] - strlen(sp->curve_labels[c]),
                     " (best)");
            sp->curves[c].color = sp->curves[P2(c)].color = 6;
            sp->curves[c].line = sp->curves[P2(c)].line = MMM_PLOT_SOLID;
            return MMM_OK;
        }
    snprintf(sp->curve_labels[NCURVES], sizeof sp->curve_labels[NCURVES],
             "%s = %s (best)", pname(sp, 1), mmm_value_format(v, 0, buf, sizeof buf));
    if (mmm_plot_curve_init(&sp->curves[NCURVES], sp->curve_labels[NCURVES],
                            sp->npoints, 0) < 0 ||
        mmm_plot_curve_init(&sp->curves[P2(NCURVES)], sp->curve_labels[NCURVES],
                            sp->npoints, 0) < 0)
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    sp->curves[NCURVES].color = sp->curves[P2(NCURVES)].color = 6;
    one.axes[1].values = &v;
    one.axes[1].nvalues = 1;
    one.has_baseline = 0;
    bc.o = &sp->curves[NCURVES];
    bc.bound = &sp->curves[P2(NCURVES)];
    if ((rc = mmm_sweep_run(&r, inst, &one, best_curve_point, &bc, err)) < 0)
        return rc;
    sp->ncurves++;
    return MMM_OK;
}

static void add_mark(mmm_sweep_plot *sp, size_t *nm, const char *what,
                     const mmm_sweep_point *pt, int color, mmm_plot_line line)
{
    char at[128];
    mmm_sweep_point_format(at, sizeof at, sp->prog, sp->plan, pt);
    snprintf(sp->ml[*nm], sizeof sp->ml[*nm], "%s %s", what, at);
    sp->marks[*nm] = (mmm_plot_mark){pt->params[0].d, sp->ml[*nm], color, line};
    ++*nm;
}

/* Finish the curves and lay out the figure of res in sp->plot. */
static int finish(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                  mmm_instance *inst, const mmm_sweep_spec *spec, mmm_error *err)
{
    mmm_plot_panel *pan = sp->pan;
    size_t c, nm = 0, n2 = sp->plan->naxes == 2;
    int has_gb = res->has_p, rc;
    const char *name = sp->prog->name ? sp->prog->name : "program";
    MMM__CHECK_VERSION(spec, mmm_sweep_spec, SWEEP_SPEC, err);

    if (n2 && res->has_best && (rc = add_best_curve(sp, res, inst, spec, err)) < 0)
        return rc;
    for (c = 0; c < 2 * NSLOTS; c++)
        if (mmm_plot_curve_finish(&sp->curves[c]) < 0)
            return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    memset(pan, 0, sizeof sp->pan);
    memset(&sp->plot, 0, sizeof sp->plot);
    if (!n2) {
        /* Small multiples: W, S and O each on its own axis (on one, S's
         * variation would be lost beside W's magnitude), then the bounds. */
        pan[0].ylabel = "W (operations)";
        pan[0].curves = sp->curves;
        pan[0].ncurves = 1;
        pan[1].ylabel = "S (operations)";
        pan[1].curves = sp->curves + 1;
        pan[1].ncurves = 1;
        pan[2].ylabel = "O (cycles)";
        pan[2].curves = sp->curves + 2;
        pan[2].ncurves = 1;
        pan[3].ylabel = "bound (cycles)";
        pan[3].curves = has_gb ? sp->curves + 3 : sp->curves + 4;
        pan[3].ncurves = has_gb ? 2 : 1;
    } else {
        pan[0].ylabel = "O overhead (cycles)";
        pan[0].curves = sp->curves;
        pan[0].ncurves = sp->ncurves;
        pan[1].ylabel = has_gb ? "Graham-Brent (cycles)"
                               : "corollary, p >= K (cycles)";
        pan[1].curves = sp->curves + NSLOTS;
        pan[1].ncurves = sp->ncurves;
    }
    if (res->has_best) {
        add_mark(sp, &nm, "best", &res->best, 6, MMM_PLOT_SOLID);
        if (mmm_sweep_points_differ(res, &res->baseline, &res->best))
            add_mark(sp, &nm, "baseline", &res->baseline, 6, MMM_PLOT_DOTTED);
        if (has_gb && mmm_sweep_points_differ(res, &res->min_bound, &res->best))
            add_mark(sp, &nm, "min Graham-Brent", &res->min_bound, 3,
                     MMM_PLOT_DASHED);
        if (mmm_sweep_points_differ(res, &res->min_corollary, &res->best) &&
            (!has_gb || mmm_sweep_points_differ(res, &res->min_corollary, &res->min_bound)))
            add_mark(sp, &nm, "min corollary", &res->min_corollary, 1,
                     MMM_PLOT_DASHED);
    }
    snprintf(sp->title, sizeof sp->title, "%s: sweep of %s%s%s", name,
             pname(sp, 0), n2 ? " and " : "", n2 ? pname(sp, 1) : "");
    snprintf(sp->sub, sizeof sp->sub, "best = min %s;  %llu values, %llu feasible",
             spec->objective == MMM_OBJECTIVE_OVERHEAD ? "O"
             : spec->objective == MMM_OBJECTIVE_BOUND ? "Graham-Brent bound"
             : spec->objective == MMM_OBJECTIVE_TIME  ? "predicted time"
                                                      : "corollary bound (p >= K)",
             (unsigned long long)res->npoints,
             (unsigned long long)res->nfeasible);
    if (has_gb)
        snprintf(sp->sub + strlen(sp->sub), sizeof sp->sub - strlen(sp->sub),
                 ";  p = %lld", (long long)res->best.p);
    sp->plot.title = sp->title;
    sp->plot.subtitle = sp->sub;
    sp->plot.xlabel = pname(sp, 0);
    sp->plot.panels = pan;
    sp->plot.npanels = n2 ? 2 : 4;
    sp->plot.marks = sp->marks;
    sp->plot.nmarks = nm;
    return MMM_OK;
}

int mmm_sweep_plot_write(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                         mmm_instance *inst, const mmm_sweep_spec *spec,
                         const char *path, mmm_error *err)
{
    int rc;
    if (!sp || !res || !inst || !spec || !path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_sweep_plot_write: bad argument");
    if ((rc = finish(sp, res, inst, spec, err)) < 0)
        return rc;
    return mmm_plot_write(&sp->plot, path, err);
}

int mmm__sweep_plot_svg(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                        mmm_instance *inst, const mmm_sweep_spec *spec, char **out,
                        size_t *len, mmm_error *err)
{
    int rc;
    *out = NULL;
    *len = 0;
    if ((rc = finish(sp, res, inst, spec, err)) < 0)
        return rc;
    return mmm__plot_svg(&sp->plot, out, len, err);
}

int mmm__sweep_plot_layout(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                           mmm_instance *inst, const mmm_sweep_spec *spec,
                           mmm__plot_layout *rec, char **out, size_t *len,
                           mmm_error *err)
{
    int rc;
    *out = NULL;
    *len = 0;
    if ((rc = finish(sp, res, inst, spec, err)) < 0)
        return rc;
    return mmm__plot_layout_svg(&sp->plot, rec, out, len, err);
}
