/* scale_plot.c: Cilkview's speedup picture of a sweep over p (mmm/scale.h),
 * drawn with mmm/plot.h into a file or, for the report, into memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/plot.h"
#include "mmm/scale.h"
#include "figure_int.h"
#include "plot_int.h"

#define MAX_CURVES 16 /* perfect, two bounds, and the policies */
/* Measured runs drawn one dot each up to this many (the medians always). */
#define MAX_MEASURED_DOTS 10000

/* The legend of policy j: its name, or with the policies of equal
 * makespans that it stands for ("all 8 policies" when they all agree). */
static void policy_label(const mmm_speedup *s, const size_t *same, size_t npol,
                         size_t j, char *buf, size_t size)
{
    size_t k, n = 0, len;
    for (k = 0; k < npol; k++)
        n += same[k] == j;
    if (n <= 1 || same[j] != j) {
        snprintf(buf, size, "%s (simulated)", s->policies[j]->name);
        return;
    }
    if (n == npol) {
        snprintf(buf, size, "all %zu policies (simulated, equal)", n);
        return;
    }
    len = (size_t)snprintf(buf, size, "%s", s->policies[j]->name);
    for (k = j + 1; k < npol && len < size; k++)
        if (same[k] == j)
            len += (size_t)snprintf(buf + len, size - len, " = %s",
                                    s->policies[k]->name);
    if (len < size)
        snprintf(buf + len, size - len, " (simulated)");
}

/* The measured speedups as two curves: each run a dot (a point, then a
 * gap), and the medians per p joined by a line.  0 or MMM_ENOMEM. */
static int measured_curves(const mmm_speedup_measured *m, mmm_plot_curve *dots,
                           mmm_plot_curve *med, char *label, size_t size)
{
    size_t i, nd = m->n <= MAX_MEASURED_DOTS ? m->n : 0;
    int rc;
    snprintf(label, size, "measured (%zu run%s)", m->n, m->n == 1 ? "" : "s");
    if ((rc = mmm_plot_curve_init(dots, nd ? label : NULL, 2 * nd, 2 * nd + 2)) < 0)
        return rc;
    if ((rc = mmm_plot_curve_init(med, nd ? "measured, median per p" : label, m->nmedians,
                                  m->nmedians + 1)) < 0) {
        mmm_plot_curve_dispose(dots);
        return rc;
    }
    for (i = 0; i < nd && rc == MMM_OK; i++)
        if ((rc = mmm_plot_curve_add(dots, (double)m->points[i].p, m->points[i].speedup)) == 0)
            rc = mmm_plot_curve_add(dots, (double)m->points[i].p, NAN);
    for (i = 0; i < m->nmedians && rc == MMM_OK; i++)
        rc = mmm_plot_curve_add(med, (double)m->medians[i].p, m->medians[i].speedup);
    if (rc == MMM_OK && (rc = mmm_plot_curve_finish(dots)) == MMM_OK)
        rc = mmm_plot_curve_finish(med);
    dots->color = med->color = 6; /* black */
    dots->markers = 1;
    med->markers = nd == 0; /* the runs' dots show where the medians join */
    dots->line = med->line = MMM_PLOT_SOLID;
    return rc;
}

/* The figure, written into path or, when path is NULL, into *svg. */
static int speedup_plot(const mmm_speedup *s, const mmm_speedup_measured *m,
                        const char *program_name, const char *path, char **svg,
                        size_t *len, mmm__plot_layout *rec, mmm_error *err)
{
    mmm_plot_curve c[MAX_CURVES], d[MAX_CURVES + 2], meas[2];
    char labels[MAX_CURVES][160], mlabel[64];
    size_t same[MAX_CURVES]; /* a policy drawn by an earlier equal one */
    mmm_plot_panel panel;
    mmm_plot_mark marks[2];
    mmm_plot plot;
    char title[256], subtitle[256], t1[40], cp[40];
    size_t nc = 0, i, j, npol;
    double top = 1;
    int rc = MMM_OK, perfect_done = 0, nmeas = 0;

    memset(&panel, 0, sizeof panel);
    memset(&plot, 0, sizeof plot);
    if (!s || s->nrows == 0)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "nothing to plot");
    npol = s->npolicies < MAX_CURVES - 3 ? s->npolicies : MAX_CURVES - 3;
    /* Policies with the same makespan at every p would hide each other
     * behind the last one drawn: the first of each such group is drawn,
     * labelled with the whole group, and the others are left out. */
    for (j = 0; j < npol; j++) {
        size_t k, r;
        same[j] = j;
        for (k = 0; k < j && same[j] == j; k++) {
            if (same[k] != k)
                continue;
            for (r = 0; r < s->nrows; r++)
                if (s->rows[r].makespan[k] != s->rows[r].makespan[j])
                    break;
            if (r == s->nrows)
                same[j] = k;
        }
    }
    /* The band of the speedup range: T1/lower bound above, T1/Graham
     * below (every greedy schedule lies between them). */
    for (i = 0; i < 3 + npol; i++) {
        const char *label;
        if (i == 0)
            label = "perfect speedup (= p)";
        else if (i == 1)
            label = "T1 / lower bound";
        else if (i == 2)
            label = "T1 / Graham's bound";
        else {
            policy_label(s, same, npol, i - 3, labels[i], sizeof labels[i]);
            label = labels[i];
        }
        if ((rc = mmm_plot_curve_init(&c[i], label, s->nrows, 0)) < 0) {
            rc = mmm_error_set(err, rc, NULL, 0, "out of memory");
            goto done;
        }
        nc = i + 1;
    }
    c[0].color = 7; /* grey */
    c[0].line = MMM_PLOT_DOTTED;
    c[0].markers = 0;
    c[1].color = 0;
    c[1].line = MMM_PLOT_DASHED;
    c[1].markers = 0;
    c[2].color = 1;
    c[2].line = MMM_PLOT_DASHED;
    c[2].markers = 0;
    c[1].band_with = 3; /* the band between the two bounds, filled */
    /* Policies: green, purple, sky blue, black, orange, wine, olive,
     * indigo, teal (the bounds are blue and vermillion, perfect grey, the
     * mark of K brown), then the same colours dashed. */
    for (j = 0; j < npol; j++) {
        static const int pal[] = {2, 3, 5, 6, 4, 8, 9, 10, 11};
        c[3 + j].color = pal[j % 9];
        if (m && c[3 + j].color == 6)
            c[3 + j].color = 11; /* black is the measured runs' */
        c[3 + j].line = j < 9 ? MMM_PLOT_SOLID : MMM_PLOT_DASHED;
    }
    /* Perfect speedup only up to a little past the best possible one, so
     * that it does not squash the rest. */
    for (i = 0; i < s->nrows; i++)
        if (s->rows[i].speedup_max > top)
            top = s->rows[i].speedup_max;
    for (i = 0; i < s->nrows && rc == MMM_OK; i++) {
        const mmm_speedup_row *r = &s->rows[i];
        double x = (double)r->p;
        if (!perfect_done && (rc = mmm_plot_curve_add(&c[0], x, x)) < 0)
            break;
        perfect_done = x >= 2 * top;
        if ((rc = mmm_plot_curve_add(&c[1], x, r->speedup_max)) < 0 ||
            (rc = mmm_plot_curve_add(&c[2], x, r->speedup_min)) < 0)
            break;
        for (j = 0; j < npol && rc == MMM_OK; j++)
            rc = mmm_plot_curve_add(&c[3 + j], x,
                                    r->makespan[j] > 0 ? r->T1 / r->makespan[j]
                                                       : 1.0);
    }
    for (i = 0; i < nc && rc == MMM_OK; i++)
        rc = mmm_plot_curve_finish(&c[i]);
    /* Leave out the policies drawn by an equal one (kept in order). */
    for (i = j = 3; i < nc; i++) {
        if (same[i - 3] != i - 3) {
            mmm_plot_curve_dispose(&c[i]);
            continue;
        }
        if (j != i) {
            c[j] = c[i];
            c[j].label = labels[j];
            memmove(labels[j], labels[i], sizeof labels[j]);
        }
        j++;
    }
    nc = j;
    if (rc < 0) {
        rc = mmm_error_set(err, rc, NULL, 0, "out of memory");
        goto done;
    }
    if (m) {
        if ((rc = measured_curves(m, &meas[0], &meas[1], mlabel, sizeof mlabel)) < 0) {
            rc = mmm_error_set(err, rc, NULL, 0, "out of memory");
            goto done;
        }
        nmeas = 2;
    }
    panel.ylabel = "speedup T1 / T(p)";
    panel.yscale = MMM_PLOT_LOG;
    /* Drawn in this order: perfect speedup, the policies, then the two
     * bounds, dashed, over them: a schedule that meets a bound (often) no
     * longer hides the bound's line. */
    d[0] = c[0];
    for (i = 3; i < nc; i++)
        d[i - 2] = c[i];
    d[nc - 2] = c[1];
    d[nc - 1] = c[2];
    d[nc - 2].band_with = (int)nc; /* 1 + the index of T1/Graham */
    /* the measured runs over everything */
    for (i = 0; i < (size_t)nmeas; i++)
        d[nc + i] = meas[i];
    panel.curves = d;
    panel.ncurves = nc + (size_t)nmeas;
    plot.nmarks = 0;
    if (s->K > 0) {
        marks[plot.nmarks].x = (double)s->K;
        marks[plot.nmarks].label = "p = K: the corollary holds from here";
        marks[plot.nmarks].color = 12;
        marks[plot.nmarks].line = MMM_PLOT_DOTTED;
        plot.nmarks++;
    }
    if (s->has_p) {
        marks[plot.nmarks].x = (double)s->p;
        marks[plot.nmarks].label = "the program's p";
        marks[plot.nmarks].color = 6;
        marks[plot.nmarks].line = MMM_PLOT_DOTTED;
        plot.nmarks++;
    }
    snprintf(title, sizeof title, "%s: speedup over p", program_name ? program_name : "");
    snprintf(subtitle, sizeof subtitle,
             "T1 = %s, critical path = %s, T1 / critical path = %.4g",
             mmm__fig_num(s->T1, t1, sizeof t1),
             mmm__fig_num(s->critical_path, cp, sizeof cp),
             s->critical_path > 0 ? s->T1 / s->critical_path : 1.0);
    plot.title = title;
    plot.subtitle = subtitle;
    plot.xlabel = "p (SMs)";
    plot.xscale = MMM_PLOT_LOG;
    plot.panels = &panel;
    plot.npanels = 1;
    plot.marks = marks;
    rc = path ? mmm_plot_write(&plot, path, err)
              : mmm__plot_layout_svg(&plot, rec, svg, len, err);
done:
    for (i = 0; i < nc; i++)
        mmm_plot_curve_dispose(&c[i]);
    for (i = 0; i < (size_t)nmeas; i++)
        mmm_plot_curve_dispose(&meas[i]);
    return rc;
}

int mmm_speedup_plot_write_measured(const mmm_speedup *s, const mmm_speedup_measured *m,
                                    const char *program_name, const char *path,
                                    mmm_error *err)
{
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    return speedup_plot(s, m, program_name, path, NULL, NULL, NULL, err);
}

int mmm_speedup_plot_write(const mmm_speedup *s, const char *program_name,
                           const char *path, mmm_error *err)
{
    return mmm_speedup_plot_write_measured(s, NULL, program_name, path, err);
}

int mmm__speedup_plot_svg(const mmm_speedup *s, const char *program_name, char **svg,
                          size_t *len, mmm_error *err)
{
    *svg = NULL;
    *len = 0;
    return speedup_plot(s, NULL, program_name, NULL, svg, len, NULL, err);
}

int mmm__speedup_plot_layout(const mmm_speedup *s, const mmm_speedup_measured *m,
                             const char *program_name, mmm__plot_layout *rec, char **svg,
                             size_t *len, mmm_error *err)
{
    *svg = NULL;
    *len = 0;
    return speedup_plot(s, m, program_name, NULL, svg, len, rec, err);
}
