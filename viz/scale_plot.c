/* scale_plot.c: Cilkview's speedup picture of a sweep over p (mmm/scale.h),
 * drawn with mmm/plot.h into a file or, for the report, into memory. */
#include <stdio.h>
#include <stdlib.h>

#include "mmm/plot.h"
#include "mmm/scale.h"
#include "figure_int.h"

#define MAX_CURVES 16 /* perfect, two bounds, and the policies */

/* The figure, written into path or, when path is NULL, into *svg. */
static int speedup_plot(const mmm_speedup *s, const char *program_name,
                        const char *path, char **svg, size_t *len, mmm_error *err)
{
    mmm_plot_curve c[MAX_CURVES];
    char labels[MAX_CURVES][64];
    mmm_plot_panel panel;
    mmm_plot_mark marks[2];
    mmm_plot plot;
    char title[256], subtitle[256];
    size_t nc = 0, i, j, npol;
    double top = 1;
    int rc = MMM_OK, perfect_done = 0;

    if (!s || s->nrows == 0)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "nothing to plot");
    npol = s->npolicies < MAX_CURVES - 3 ? s->npolicies : MAX_CURVES - 3;
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
            snprintf(labels[i], sizeof labels[i], "%s (simulated)",
                     s->policies[i - 3]->name);
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
    if (rc < 0) {
        rc = mmm_error_set(err, rc, NULL, 0, "out of memory");
        goto done;
    }
    panel.ylabel = "speedup T1 / T(p)";
    panel.yscale = MMM_PLOT_LOG;
    panel.curves = c;
    panel.ncurves = nc;
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
             "T1 = %.6g, critical path = %.6g, T1 / critical path = %.4g",
             s->T1, s->critical_path,
             s->critical_path > 0 ? s->T1 / s->critical_path : 1.0);
    plot.title = title;
    plot.subtitle = subtitle;
    plot.xlabel = "p (SMs)";
    plot.xscale = MMM_PLOT_LOG;
    plot.panels = &panel;
    plot.npanels = 1;
    plot.marks = marks;
    rc = path ? mmm_plot_write(&plot, path, err) : mmm__plot_svg(&plot, svg, len, err);
done:
    for (i = 0; i < nc; i++)
        mmm_plot_curve_dispose(&c[i]);
    return rc;
}

int mmm_speedup_plot_write(const mmm_speedup *s, const char *program_name,
                           const char *path, mmm_error *err)
{
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    return speedup_plot(s, program_name, path, NULL, NULL, err);
}

int mmm__speedup_plot_svg(const mmm_speedup *s, const char *program_name, char **svg,
                          size_t *len, mmm_error *err)
{
    *svg = NULL;
    *len = 0;
    return speedup_plot(s, program_name, NULL, svg, len, err);
}
