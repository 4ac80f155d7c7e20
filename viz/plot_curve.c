/* plot_curve.c: the curves of a line plot and their streaming decimation
 * (mmm_plot_curve_*): a curve of millions of points keeps, per bucket of
 * consecutive points, the first, the lowest, the highest and the last, in
 * input order.  Needs no PLplot; plot.c draws the curves. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/plot.h"
#include "base/grow.h"

int mmm_plot_curve_init(mmm_plot_curve *c, const char *label,
                        uint64_t expected, size_t max_points)
{
    uint64_t buckets;
    memset(c, 0, sizeof *c);
    c->label = label;
    if (max_points < 8)
        max_points = MMM_PLOT_DEFAULT_MAX_POINTS;
    /* A bucket emits at most 4 points (first, min, max, last). */
    buckets = max_points / 4;
    c->bucket = expected <= max_points ? 1 : (expected + buckets - 1) / buckets;
    c->markers = expected <= 60;
    return MMM_OK;
}

static int push(mmm_plot_curve *c, double x, double y)
{
    if (mmm__grow2(&c->x, &c->y, &c->cap, c->n + 1, sizeof *c->x, sizeof *c->y,
                   256) < 0)
        return MMM_ENOMEM;
    c->x[c->n] = x;
    c->y[c->n] = y;
    c->n++;
    return MMM_OK;
}

/* A break in the line, never two in a row nor at the start. */
static int push_gap(mmm_plot_curve *c)
{
    if (c->n == 0 || isnan(c->y[c->n - 1]))
        return MMM_OK;
    return push(c, c->x[c->n - 1], NAN);
}

static int keep_cmp(const void *a, const void *b)
{
    const mmm_plot_keep_ *p = a, *q = b;
    return (p->i > q->i) - (p->i < q->i);
}

/* Emit the kept points of the bucket in input order, with breaks where the
 * bucket had infeasible points (approximately: between the kept points
 * whose index range meets the NaNs'). */
static int flush_bucket(mmm_plot_curve *c)
{
    mmm_plot_keep_ k[4];
    size_t nk = 0, j;
    int rc = MMM_OK;
    const mmm_plot_keep_ *all[4] = {&c->first, &c->lo, &c->hi, &c->last};

    for (j = 0; j < 4; j++)
        if (all[j]->set)
            k[nk++] = *all[j];
    qsort(k, nk, sizeof k[0], keep_cmp);
    if (nk == 0 && c->gap)
        rc = push_gap(c);
    for (j = 0; j < nk && rc == MMM_OK; j++) {
        if (j > 0 && k[j].i == k[j - 1].i)
            continue;
        if (c->gap && (j == 0 ? c->gap_lo < k[j].i
                              : c->gap_lo < k[j].i && c->gap_hi > k[j - 1].i))
            rc = push_gap(c);
        if (rc == MMM_OK)
            rc = push(c, k[j].x, k[j].y);
    }
    if (rc == MMM_OK && nk > 0 && c->gap && c->gap_hi > k[nk - 1].i)
        rc = push_gap(c);
    c->first.set = c->lo.set = c->hi.set = c->last.set = 0;
    c->gap = 0;
    return rc;
}

int mmm_plot_curve_add(mmm_plot_curve *c, double x, double y)
{
    uint64_t i = c->seen++;
    mmm_plot_keep_ p;
    if (c->bucket <= 1)
        return isnan(y) ? push_gap(c) : push(c, x, y);
    p.x = x;
    p.y = y;
    p.i = i;
    p.set = 1;
    if (isnan(y)) {
        if (!c->gap)
            c->gap_lo = i;
        c->gap_hi = i;
        c->gap = 1;
    } else {
        if (!c->first.set)
            c->first = p;
        if (!c->lo.set || y < c->lo.y)
            c->lo = p;
        if (!c->hi.set || y > c->hi.y)
            c->hi = p;
        c->last = p;
    }
    if (c->seen % c->bucket == 0)
        return flush_bucket(c);
    return MMM_OK;
}

int mmm_plot_curve_finish(mmm_plot_curve *c)
{
    if (c->bucket <= 1)
        return MMM_OK;
    return flush_bucket(c);
}

void mmm_plot_curve_dispose(mmm_plot_curve *c)
{
    free(c->x);
    free(c->y);
    c->x = c->y = NULL;
    c->n = c->cap = 0;
}
