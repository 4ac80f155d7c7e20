/* roofline_plot.c: the roofline figure (mmm/roofline.h): the machine's
 * roofs and each kernel at its intensity and predicted throughput, drawn
 * by plot.c on log-log axes. */
#include "mmm/roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure_int.h"
#include "mmm/plot.h"
#include "base/path.h"

/* Kernels drawn at most (each its own curve and legend entry). */
#define MAX_KERNELS 20

typedef struct fig {
    mmm_plot_curve c[3 + 2 * MAX_KERNELS];
    char label[MAX_KERNELS][160], roofs[3][96], sub[256], title[256];
    mmm_plot_note notes[3 + MAX_KERNELS];
    mmm_plot_panel pan;
    mmm_plot plot;
    size_t nc;
} fig;

/* A rate with an SI prefix: "61.5 Top/s". */
static void rate(char *buf, size_t size, const char *what, double v, const char *unit)
{
    static const char pre[] = " kMGTPE";
    int i = 0;
    while (v >= 1000 && i < 6) {
        v /= 1000;
        i++;
    }
    snprintf(buf, size, "%s %.3g %s%s", what, v, i ? (char[]){pre[i], 0} : "", unit);
}

static int line2(mmm_plot_curve *c, const char *label, double x0, double y0, double x1,
                 double y1)
{
    if (mmm_plot_curve_init(c, label, 2, 0) < 0 || mmm_plot_curve_add(c, x0, y0) < 0 ||
        mmm_plot_curve_add(c, x1, y1) < 0 || mmm_plot_curve_finish(c) < 0)
        return MMM_ENOMEM;
    c->markers = 0;
    return MMM_OK;
}

static int build(fig *f, const mmm_roofline *r, const mmm_program *prog, const char *title)
{
    double lo = r->ridge, hi = r->ridge, peak = r->peak_ops_per_s;
    size_t i, nk = r->nkernels < MAX_KERNELS ? r->nkernels : MAX_KERNELS, nn = 0;
    static const int colors[] = {0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12};
    for (i = 0; i < r->nkernels; i++) {
        double a = r->kernels[i].intensity, b = r->kernels[i].l2_intensity;
        if (isfinite(a)) {
            lo = fmin(lo, a);
            hi = fmax(hi, a);
        }
        if (isfinite(b) && r->l2_bytes_per_s > 0) {
            lo = fmin(lo, b);
            hi = fmax(hi, b);
        }
    }
    if (r->l2_ridge > 0)
        lo = fmin(lo, r->l2_ridge);
    lo /= 4;
    hi *= 4;
    rate(f->roofs[0], sizeof f->roofs[0], "compute", peak, "op/s");
    rate(f->roofs[1], sizeof f->roofs[1], "DRAM", r->dram_bytes_per_s, "B/s");
    if (line2(&f->c[0], f->roofs[0], fmin(r->ridge, r->l2_ridge > 0 ? r->l2_ridge : r->ridge),
              peak, hi, peak) < 0 ||
        line2(&f->c[1], f->roofs[1], lo, lo * r->dram_bytes_per_s, r->ridge, peak) < 0)
        return MMM_ENOMEM;
    f->c[0].color = f->c[1].color = 6;
    f->nc = 2;
    f->notes[nn++] = (mmm_plot_note){0, hi, peak, f->roofs[0], 6, 1, 0, -1.0};
    f->notes[nn++] = (mmm_plot_note){0, lo, lo * r->dram_bytes_per_s, f->roofs[1], 6, 0, 1, 1.0};
    if (r->l2_bytes_per_s > 0) {
        rate(f->roofs[2], sizeof f->roofs[2], "L2", r->l2_bytes_per_s, "B/s");
        if (line2(&f->c[2], f->roofs[2], lo, lo * r->l2_bytes_per_s, r->l2_ridge, peak) < 0)
            return MMM_ENOMEM;
        f->c[2].color = 7;
        f->c[2].line = MMM_PLOT_DASHED;
        f->notes[nn++] = (mmm_plot_note){0, lo, lo * r->l2_bytes_per_s, f->roofs[2], 7, 0, 1, 1.0};
        f->nc = 3;
    }
    for (i = 0; i < nk; i++) {
        const mmm_roofline_kernel *k = &r->kernels[i];
        mmm_plot_curve *c = &f->c[f->nc];
        const char *id = prog->kernels[k->kernel].id;
        snprintf(f->label[i], sizeof f->label[i], "%s: %.*f%% of %s roof, %s", id,
                 k->fraction >= 0.1 ? 0 : k->fraction >= 0.01 ? 1 : 2, 100 * k->fraction,
                 k->bound == MMM_ROOFLINE_COMPUTE ? "compute"
                 : k->bound == MMM_ROOFLINE_L2    ? "L2"
                                                  : "DRAM",
                 mmm_time_term_name(k->dominant));
        if (mmm_plot_curve_init(c, f->label[i], 1, 0) < 0 ||
            mmm_plot_curve_add(c, isfinite(k->intensity) ? k->intensity : hi, k->throughput) < 0 ||
            mmm_plot_curve_finish(c) < 0)
            return MMM_ENOMEM;
        c->color = colors[i % (sizeof colors / sizeof colors[0])];
        /* Right of the point; below it when a level roof (compute) is
         * within a factor 1.5 above, so that the text stays off the line
         * (a bandwidth roof rises to the right, away from the text). */
        f->notes[nn++] = (mmm_plot_note){0, isfinite(k->intensity) ? k->intensity : hi,
                                         k->throughput, id, c->color, 0, 0,
                                         k->bound == MMM_ROOFLINE_COMPUTE &&
                                                 k->throughput * 1.5 > peak
                                             ? -1.1
                                             : 0};
        f->nc++;
    }
    f->pan.ylabel = "operations per second (predicted)";
    f->pan.yscale = MMM_PLOT_LOG;
    f->pan.curves = f->c;
    f->pan.ncurves = f->nc;
    snprintf(f->title, sizeof f->title, "%s", title ? title : prog->name ? prog->name : "roofline");
    snprintf(f->sub, sizeof f->sub, "ridge at %.3g op/byte%s%s", r->ridge,
             r->nkernels > nk ? ";  the first kernels only" : "",
             r->nskipped ? ";  copies and sets left out" : "");
    f->plot.title = f->title;
    f->plot.subtitle = f->sub;
    f->plot.xlabel = "arithmetic intensity (operations per DRAM byte)";
    f->plot.xscale = MMM_PLOT_LOG;
    f->plot.panels = &f->pan;
    f->plot.npanels = 1;
    f->plot.notes = f->notes;
    f->plot.nnotes = nn;
    return MMM_OK;
}

static int draw(const mmm_roofline *r, const mmm_program *prog, const char *title,
                const char *path, char **out, size_t *len, mmm_error *err)
{
    fig *f;
    size_t i;
    int rc;
    if (!r || !prog || r->nkernels == 0)
        return mmm_error_set(err, MMM_EINVAL, path, 0, "no kernel with operations to draw");
    if (!(f = calloc(1, sizeof *f)))
        return mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    if ((rc = build(f, r, prog, title)) < 0)
        rc = mmm_error_set(err, MMM_ENOMEM, path, 0, "out of memory");
    else
        rc = path ? mmm_plot_write(&f->plot, path, err) : mmm__plot_svg(&f->plot, out, len, err);
    for (i = 0; i < sizeof f->c / sizeof f->c[0]; i++)
        mmm_plot_curve_dispose(&f->c[i]);
    free(f);
    return rc;
}

int mmm_roofline_plot_write(const mmm_roofline *r, const mmm_program *prog,
                            const char *title, const char *path, mmm_error *err)
{
    if (!path)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "no file name");
    return draw(r, prog, title, path, NULL, NULL, err);
}

int mmm_roofline_plot_svg(const mmm_roofline *r, const mmm_program *prog, const char *title,
                          char **out, size_t *len, mmm_error *err)
{
    if (!out || !len)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0, "mmm_roofline_plot_svg: bad argument");
    *out = NULL;
    *len = 0;
    return draw(r, prog, title, NULL, out, len, err);
}
