/* fit_plot.c: the figure of `mmm fit --plot` (mmm_fit_plot_write,
 * mmm/output.h): each run's predicted time against its measured time on
 * log axes, with the line y = x and the band of ±15 %, a colour per
 * program; below, the relative error against the measured time. */
#include "mmm/output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/plot.h"

/* Programs with a colour of their own; the others share the last. */
#define MAX_PROGS 11
#define BAND 0.15

typedef struct fig {
    mmm_plot_curve top[4 + MAX_PROGS], bottom[4 + MAX_PROGS];
    char label[MAX_PROGS][160], sub[256];
    mmm_plot_panel pan[2];
    mmm_plot plot;
} fig;

static int line2(mmm_plot_curve *c, const char *label, double x0, double y0, double x1,
                 double y1, int color, mmm_plot_line style)
{
    if (mmm_plot_curve_init(c, label, 2, 0) < 0 || mmm_plot_curve_add(c, x0, y0) < 0 ||
        mmm_plot_curve_add(c, x1, y1) < 0 || mmm_plot_curve_finish(c) < 0)
        return MMM_ENOMEM;
    c->markers = 0;
    c->color = color;
    c->line = style;
    return MMM_OK;
}

/* The program of run i: its index among the first MAX_PROGS named, or
 * MAX_PROGS - 1 for the rest. */
static size_t prog_of(const mmm_fit_report *r, size_t i, const mmm_program **seen,
                      size_t *nseen)
{
    size_t k;
    for (k = 0; k < *nseen; k++)
        if (seen[k] == r->runs[i].program)
            return k;
    if (*nseen < MAX_PROGS)
        seen[(*nseen)++] = r->runs[i].program;
    return *nseen - 1;
}

static int build(fig *f, const mmm_fit_report *r)
{
    const mmm_program *seen[MAX_PROGS];
    size_t i, k, np = 0;
    double lo = INFINITY, hi = 0;
    static const int colors[] = {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12};
    for (i = 0; i < r->nruns; i++) {
        double m = r->runs[i].runs->rows[r->runs[i].row].seconds,
               p = r->result->predicted[i];
        lo = fmin(lo, fmin(m, p > 0 ? p : m));
        hi = fmax(hi, fmax(m, p));
        (void)prog_of(r, i, seen, &np);
    }
    lo /= 1.3;
    hi *= 1.3;
    if (line2(&f->top[0], "predicted = measured", lo, lo, hi, hi, 6, MMM_PLOT_SOLID) < 0 ||
        line2(&f->top[1], "within 15 %", lo, lo * (1 + BAND), hi, hi * (1 + BAND), 7,
              MMM_PLOT_DASHED) < 0 ||
        line2(&f->top[2], NULL, lo, lo * (1 - BAND), hi, hi * (1 - BAND), 7,
              MMM_PLOT_DASHED) < 0 ||
        line2(&f->bottom[0], NULL, lo, 0, hi, 0, 6, MMM_PLOT_SOLID) < 0 ||
        line2(&f->bottom[1], NULL, lo, 100 * BAND, hi, 100 * BAND, 7, MMM_PLOT_DASHED) < 0 ||
        line2(&f->bottom[2], NULL, lo, -100 * BAND, hi, -100 * BAND, 7, MMM_PLOT_DASHED) < 0)
        return MMM_ENOMEM;
    f->top[1].band_with = 3;    /* the ±15 % band, filled */
    f->bottom[1].band_with = 3;
    for (k = 0; k < np; k++) {
        mmm_plot_curve *t = &f->top[3 + k], *b = &f->bottom[3 + k];
        if (k == MAX_PROGS - 1 && r->nprograms > MAX_PROGS)
            snprintf(f->label[k], sizeof f->label[k], "%zu other programs",
                     r->nprograms - (MAX_PROGS - 1));
        else
            snprintf(f->label[k], sizeof f->label[k], "%s", seen[k]->name);
        /* 2 points a run: it, then a gap (a NaN), so that no line joins
         * two runs: each is a dot */
        if (mmm_plot_curve_init(t, f->label[k], 2 * r->nruns, 2 * r->nruns + 2) < 0 ||
            mmm_plot_curve_init(b, NULL, 2 * r->nruns, 2 * r->nruns + 2) < 0)
            return MMM_ENOMEM;
        for (i = 0; i < r->nruns; i++) {
            double m = r->runs[i].runs->rows[r->runs[i].row].seconds,
                   p = r->result->predicted[i];
            size_t n = np;
            if (prog_of(r, i, seen, &n) != k)
                continue;
            if (mmm_plot_curve_add(t, m, p) < 0 || mmm_plot_curve_add(t, m, NAN) < 0 ||
                mmm_plot_curve_add(b, m, 100 * (p - m) / m) < 0 ||
                mmm_plot_curve_add(b, m, NAN) < 0)
                return MMM_ENOMEM;
        }
        if (mmm_plot_curve_finish(t) < 0 || mmm_plot_curve_finish(b) < 0)
            return MMM_ENOMEM;
        t->color = b->color = colors[k];
        t->markers = b->markers = 1;
    }
    f->pan[0].ylabel = "predicted time (s)";
    f->pan[0].yscale = MMM_PLOT_LOG;
    f->pan[0].curves = f->top;
    f->pan[0].ncurves = 3 + np;
    f->pan[1].ylabel = "relative error, %";
    f->pan[1].yscale = MMM_PLOT_LINEAR;
    f->pan[1].curves = f->bottom;
    f->pan[1].ncurves = 3 + np;
    snprintf(f->sub, sizeof f->sub, "%zu run%s of %zu program%s; |error| median %.3g %%, "
             "largest %.3g %%", r->nruns, r->nruns == 1 ? "" : "s", r->nprograms,
             r->nprograms == 1 ? "" : "s", 100 * r->result->median_rel_error,
             100 * r->result->max_rel_error);
    f->plot.title = "measured and predicted times (mmm fit)";
    f->plot.subtitle = f->sub;
    f->plot.xlabel = "measured time (s)";
    f->plot.xscale = MMM_PLOT_LOG;
    f->plot.panels = f->pan;
    f->plot.npanels = 2;
    return MMM_OK;
}

int mmm_fit_plot_write(const mmm_fit_report *r, const char *path, mmm_error *err)
{
    fig *f;
    size_t i;
    int rc;
    if (!r || !path || !r->result || (r->nruns && (!r->runs || !r->result->predicted)))
        return mmm_error_set(err, MMM_EINVAL, path, 0, "mmm_fit_plot_write: bad argument");
    if (r->nruns == 0)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "no run to draw");
    if (!(f = calloc(1, sizeof *f)))
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    if ((rc = build(f, r)) < 0)
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    else
        rc = mmm_plot_write(&f->plot, path, err);
    for (i = 0; i < sizeof f->top / sizeof f->top[0]; i++) {
        mmm_plot_curve_dispose(&f->top[i]);
        mmm_plot_curve_dispose(&f->bottom[i]);
    }
    free(f);
    return rc;
}
