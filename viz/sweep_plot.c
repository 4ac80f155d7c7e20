/* sweep_plot.c: the figure of a parameter sweep (mmm/sweep_plot.h), one
 * for `mmm optimize --plot` and the report's sweeps, drawn by plot.c.
 * One parameter: the objective the sweep minimizes on top, with the
 * infeasible values shaded, then W, S and the other measures.  Two: the
 * objective as a heat map over the grid, the best point ringed. */
#include "mmm/sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_int.h"
#include "mmm/plot.h"
#include "plot_int.h"
#include "base/abi.h"

/* One parameter: the curves. */
enum { C_OBJ, C_W, C_S, C_O, C_GB, C_COR, NC };
/* Shaded ranges kept at most (past them the last one grows). */
#define MAX_SPANS 256
/* Cells of a heat map along an axis at most (each the least objective of
 * the points it covers). */
#define MAX_CELLS 200

struct mmm_sweep_plot {
    const mmm_program *prog;
    const mmm_sweep_result *plan;   /* resolved axes */
    uint64_t npoints;               /* values of the first parameter */
    mmm_objective objective;        /* known at the first point */
    mmm_plot_curve curves[NC];
    mmm_plot_curve rest[3];         /* the last panel's: copies */
    /* infeasible ranges (one parameter) */
    mmm_plot_span spans[MAX_SPANS];
    size_t nspans;
    int have_prev, prev_ok, open;
    double prev_x;
    /* the heat map (two parameters) */
    size_t nx, ny;
    double *hx, *hy, *hz;
    /* the figure, once finished */
    mmm_plot_heat heat;
    mmm_plot_panel pan[4];
    mmm_plot_mark marks[4];
    mmm_plot plot;
    char title[256], sub[512], ml[4][160], objlabel[64], zlabel[80];
};

static const char *pname(const mmm_sweep_plot *sp, size_t a)
{
    return sp->prog->params[sp->plan->axes[a].slot].name;
}

static double nan_unless(int ok, double v)
{
    return ok ? v : NAN;
}

/* The objective's name in a legend and on an axis. */
static const char *objective_label(mmm_objective o)
{
    return o == MMM_OBJECTIVE_TIME        ? "predicted time (s)"
           : o == MMM_OBJECTIVE_BOUND     ? "Graham-Brent (N/p+L)C"
           : o == MMM_OBJECTIVE_COROLLARY ? "corollary (N/K+L)C"
                                          : "O overhead";
}

static int curves_init(mmm_sweep_plot *sp)
{
    static const char *labels[NC] = {
        "objective", "W  work", "S  span", "O  overhead",
        "Graham-Brent (N/p + L)C", "corollary (N/K+L)C, p>=K"};
    static const int colors[NC] = {6, 0, 3, 1, 2, 5};
    size_t c;
    for (c = 0; c < NC; c++) {
        if (mmm_plot_curve_init(&sp->curves[c], labels[c], sp->npoints, 0) < 0)
            return MMM_ENOMEM;
        sp->curves[c].color = colors[c];
    }
    sp->curves[C_COR].line = MMM_PLOT_DASHED;
    return MMM_OK;
}

/* The cells of an axis of n values: at most MAX_CELLS, each covering
 * consecutive values; its x the value in the middle of those. */
static size_t cells(uint64_t n)
{
    return n < MAX_CELLS ? (size_t)n : MAX_CELLS;
}

static size_t cell_of(uint64_t i, uint64_t n, size_t nc)
{
    return (size_t)((double)i * (double)nc / (double)n);
}

static int heat_init(mmm_sweep_plot *sp)
{
    uint64_t n0 = sp->plan->axes[0].count, n1 = sp->plan->axes[1].count;
    size_t i;
    sp->nx = cells(n0);
    sp->ny = cells(n1);
    sp->hx = malloc(sp->nx * sizeof *sp->hx);
    sp->hy = malloc(sp->ny * sizeof *sp->hy);
    sp->hz = malloc(sp->nx * sp->ny * sizeof *sp->hz);
    if (!sp->hx || !sp->hy || !sp->hz)
        return MMM_ENOMEM;
    for (i = 0; i < sp->nx; i++)
        sp->hx[i] = mmm_sweep_range_value(&sp->plan->axes[0],
                                          (uint64_t)((i + 0.5) * (double)n0 / (double)sp->nx)).d;
    for (i = 0; i < sp->ny; i++)
        sp->hy[i] = mmm_sweep_range_value(&sp->plan->axes[1],
                                          (uint64_t)((i + 0.5) * (double)n1 / (double)sp->ny)).d;
    for (i = 0; i < sp->nx * sp->ny; i++)
        sp->hz[i] = NAN;
    return MMM_OK;
}

int mmm_sweep_plot_new(mmm_sweep_plot **out, const mmm_program *prog,
                       const mmm_sweep_result *plan, uint64_t npoints,
                       mmm_error *err)
{
    mmm_sweep_plot *sp;
    int rc;
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
    rc = plan->naxes == 1 ? curves_init(sp) : heat_init(sp);
    if (rc < 0) {
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
    for (c = 0; c < NC; c++)
        mmm_plot_curve_dispose(&sp->curves[c]);
    free(sp->hx);
    free(sp->hy);
    free(sp->hz);
    free(sp);
}

/* The infeasible ranges, point by point in sweep order. */
static void track_span(mmm_sweep_plot *sp, double x, int ok)
{
    if (!ok && !sp->open) {
        if (sp->nspans == MAX_SPANS) {
            sp->nspans--; /* the last one grows instead */
        } else {
            mmm_plot_span *s = &sp->spans[sp->nspans];
            s->x0 = x;
            s->before = sp->have_prev ? sp->prev_x : NAN;
        }
        sp->open = 1;
        sp->nspans++;
    }
    if (!ok) {
        sp->spans[sp->nspans - 1].x1 = x;
        sp->spans[sp->nspans - 1].after = NAN;
    } else if (sp->open) {
        sp->spans[sp->nspans - 1].after = x;
        sp->open = 0;
    }
    sp->have_prev = 1;
    sp->prev_x = x;
    sp->prev_ok = ok;
}

int mmm_sweep_plot_add(mmm_sweep_plot *sp, const mmm_sweep_point *pt)
{
    int ok = pt->status == 0;
    double x = pt->params[0].d;
    double obj = pt->objective;
    int rc = 0;
    if (sp->plan->naxes == 1) {
        rc |= mmm_plot_curve_add(&sp->curves[C_OBJ], x, nan_unless(ok, obj));
        rc |= mmm_plot_curve_add(&sp->curves[C_W], x, nan_unless(ok, pt->W));
        rc |= mmm_plot_curve_add(&sp->curves[C_S], x, nan_unless(ok, pt->S));
        rc |= mmm_plot_curve_add(&sp->curves[C_O], x, nan_unless(ok, pt->O));
        rc |= mmm_plot_curve_add(&sp->curves[C_GB], x,
                                 nan_unless(ok && pt->has_p, pt->graham_brent));
        rc |= mmm_plot_curve_add(&sp->curves[C_COR], x, nan_unless(ok, pt->corollary));
        track_span(sp, x, ok);
    } else if (ok) {
        uint64_t n1 = sp->plan->axes[1].count;
        size_t i = cell_of(pt->index / n1, sp->plan->axes[0].count, sp->nx);
        size_t j = cell_of(pt->index % n1, n1, sp->ny);
        double *z = &sp->hz[i * sp->ny + j];
        if (isnan(*z) || obj < *z)
            *z = obj;
    }
    return rc ? MMM_ENOMEM : MMM_OK;
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

/* A heat map's axis must ascend: a range that descends, or a list out of
 * order, is sorted (its cells and the z rows or columns with it). */
static void sort_axis(double *v, size_t n, double *z, size_t stride, size_t step, size_t m)
{
    size_t i, j, k;
    /* insertion sort: at most MAX_CELLS values */
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
            for (k = 0; k < m; k++) {
                double *a = &z[(j - 1) * stride + k * step], *b = &z[j * stride + k * step];
                t = *a;
                *a = *b;
                *b = t;
            }
        }
}

/* The unit of the predicted seconds: that of the best time, so that the
 * labels have a few digits.  Sets the objective's label; returns the
 * factor from seconds. */
static double time_unit(mmm_sweep_plot *sp, const mmm_sweep_result *res)
{
    static const char *unit[] = {"s", "ms", "us", "ns"};
    double best = res->has_best ? res->best.seconds : 1, f = 1;
    size_t u = 0;
    while (u < 3 && best * f < 1) {
        f *= 1000;
        u++;
    }
    snprintf(sp->objlabel, sizeof sp->objlabel, "predicted time (%s)", unit[u]);
    return f;
}

/* Finish the curves and lay out the figure of res in sp->plot. */
static int finish(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                  const mmm_sweep_spec *spec, mmm_error *err)
{
    mmm_plot_panel *pan = sp->pan;
    size_t c, nm = 0, n2 = sp->plan->naxes == 2;
    int has_gb = res->has_p;
    const char *name = sp->prog->name ? sp->prog->name : "program";
    mmm_objective o;
    char at[160];
    MMM__CHECK_VERSION(spec, mmm_sweep_spec, SWEEP_SPEC, err);

    o = spec->objective;
    for (c = 0; c < NC; c++)
        if (mmm_plot_curve_finish(&sp->curves[c]) < 0)
            return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    memset(pan, 0, sizeof sp->pan);
    memset(&sp->plot, 0, sizeof sp->plot);
    snprintf(sp->objlabel, sizeof sp->objlabel, "%s", objective_label(o));
    at[0] = '\0';
    if (res->has_best)
        mmm_sweep_point_format(at, sizeof at, sp->prog, sp->plan, &res->best);
    if (!n2) {
        /* The objective on top, then W and S each on its own axis (on
         * one, S's variation would be lost beside W's magnitude), then
         * the other measures in cycles. */
        size_t nrest = 0;
        sp->curves[C_OBJ].label = sp->objlabel;
        sp->curves[C_OBJ].color = o == MMM_OBJECTIVE_TIME        ? 10
                                  : o == MMM_OBJECTIVE_BOUND     ? 2
                                  : o == MMM_OBJECTIVE_COROLLARY ? 5
                                                                 : 1;
        pan[0].ylabel = "objective (cycles)";
        if (o == MMM_OBJECTIVE_TIME) {
            double f = time_unit(sp, res);
            size_t i;
            for (i = 0; i < sp->curves[C_OBJ].n; i++)
                sp->curves[C_OBJ].y[i] *= f;
            pan[0].ylabel = sp->objlabel + strlen("predicted ");
        }
        pan[0].curves = &sp->curves[C_OBJ];
        pan[0].ncurves = 1;
        pan[1].ylabel = "W (operations)";
        pan[1].curves = &sp->curves[C_W];
        pan[1].ncurves = 1;
        pan[2].ylabel = "S (operations)";
        pan[2].curves = &sp->curves[C_S];
        pan[2].ncurves = 1;
        /* O, Graham-Brent (when p is known) and the corollary, less the
         * objective (shallow copies: the curves stay sp->curves'). */
        if (o != MMM_OBJECTIVE_OVERHEAD)
            sp->rest[nrest++] = sp->curves[C_O];
        if (has_gb && o != MMM_OBJECTIVE_BOUND)
            sp->rest[nrest++] = sp->curves[C_GB];
        if (o != MMM_OBJECTIVE_COROLLARY)
            sp->rest[nrest++] = sp->curves[C_COR];
        pan[3].ylabel = "cycles";
        pan[3].curves = sp->rest;
        pan[3].ncurves = nrest;
        sp->plot.spans = sp->spans;
        sp->plot.nspans = sp->nspans;
        sp->plot.span_label = "infeasible";
        if (res->has_best) {
            add_mark(sp, &nm, "best", &res->best, 6, MMM_PLOT_SOLID);
            if (mmm_sweep_points_differ(res, &res->baseline, &res->best))
                add_mark(sp, &nm, "baseline", &res->baseline, 7, MMM_PLOT_DOTTED);
            if (has_gb && o != MMM_OBJECTIVE_BOUND &&
                mmm_sweep_points_differ(res, &res->min_bound, &res->best))
                add_mark(sp, &nm, "min Graham-Brent", &res->min_bound, 2,
                         MMM_PLOT_DASHED);
            if (o != MMM_OBJECTIVE_COROLLARY &&
                mmm_sweep_points_differ(res, &res->min_corollary, &res->best) &&
                (!has_gb || mmm_sweep_points_differ(res, &res->min_corollary, &res->min_bound)))
                add_mark(sp, &nm, "min corollary", &res->min_corollary, 5,
                         MMM_PLOT_DASHED);
        }
        snprintf(sp->sub, sizeof sp->sub, "best: %s;  %llu of %llu values feasible",
                 at[0] ? at : "none", (unsigned long long)res->nfeasible,
                 (unsigned long long)res->npoints);
    } else {
        if (o == MMM_OBJECTIVE_TIME) {
            double f = time_unit(sp, res);
            size_t i;
            for (i = 0; i < sp->nx * sp->ny; i++)
                sp->hz[i] *= f;
        }
        sort_axis(sp->hx, sp->nx, sp->hz, sp->ny, 1, sp->ny);
        sort_axis(sp->hy, sp->ny, sp->hz, 1, sp->ny, sp->nx);
        snprintf(sp->zlabel, sizeof sp->zlabel, "%s%s", sp->objlabel,
                 o == MMM_OBJECTIVE_TIME ? "" : " (cycles)");
        sp->heat.nx = sp->nx;
        sp->heat.ny = sp->ny;
        sp->heat.x = sp->hx;
        sp->heat.y = sp->hy;
        sp->heat.z = sp->hz;
        sp->heat.zlabel = sp->zlabel;
        if (res->has_best) {
            sp->heat.has_best = 1;
            sp->heat.best_x = res->best.params[0].d;
            sp->heat.best_y = res->best.params[1].d;
        }
        pan[0].ylabel = pname(sp, 1);
        pan[0].heat = &sp->heat;
        snprintf(sp->sub, sizeof sp->sub, "ringed: best %s;  %s%llu of %llu feasible",
                 at[0] ? at : "none",
                 res->nfeasible < res->npoints ? "grey: infeasible;  " : "",
                 (unsigned long long)res->nfeasible, (unsigned long long)res->npoints);
    }
    if (has_gb)
        snprintf(sp->sub + strlen(sp->sub), sizeof sp->sub - strlen(sp->sub),
                 ";  p = %lld", (long long)res->best.p);
    snprintf(sp->title, sizeof sp->title, "%s: %s over %s%s%s", name,
             o == MMM_OBJECTIVE_TIME ? "predicted time" : mmm_objective_name(o),
             pname(sp, 0), n2 ? " and " : "", n2 ? pname(sp, 1) : "");
    sp->plot.title = sp->title;
    sp->plot.subtitle = sp->sub;
    sp->plot.xlabel = pname(sp, 0);
    sp->plot.panels = pan;
    sp->plot.npanels = n2 ? 1 : 4;
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
    if ((rc = finish(sp, res, spec, err)) < 0)
        return rc;
    return mmm_plot_write(&sp->plot, path, err);
}

int mmm__sweep_plot_svg(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                        mmm_instance *inst, const mmm_sweep_spec *spec, char **out,
                        size_t *len, mmm_error *err)
{
    int rc;
    (void)inst;
    *out = NULL;
    *len = 0;
    if ((rc = finish(sp, res, spec, err)) < 0)
        return rc;
    return mmm__plot_svg(&sp->plot, out, len, err);
}

int mmm__sweep_plot_layout(mmm_sweep_plot *sp, const mmm_sweep_result *res,
                           mmm_instance *inst, const mmm_sweep_spec *spec,
                           mmm__plot_layout *rec, char **out, size_t *len,
                           mmm_error *err)
{
    int rc;
    (void)inst;
    *out = NULL;
    *len = 0;
    if ((rc = finish(sp, res, spec, err)) < 0)
        return rc;
    return mmm__plot_layout_svg(&sp->plot, rec, out, len, err);
}
