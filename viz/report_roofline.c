/* report_roofline.c: the report's roofline section (mmm/roofline.h): the
 * picture and a table of each kernel's numbers, present when the machine
 * gives the time model's constants (as the "Predicted time" section). */
#include <math.h>
#include <stdio.h>

#include "mmm/roofline.h"
#include "mmm/timemodel.h"
#include "numfmt.h"
#include "report_int.h"

typedef struct roof_fig {
    const mmm_roofline *r;
    const mmm_program *prog;
} roof_fig;

static int draw_roofline(char **svg, size_t *len, const void *arg, mmm_error *err)
{
    const roof_fig *f = arg;
    return mmm_roofline_plot_svg(f->r, f->prog, NULL, svg, len, err);
}

/* A rate with an SI prefix ("30.75 Top/s"), 4 significant digits. */
static char *rate(double v, const char *unit, char *buf, size_t size)
{
    static const char pre[] = " kMGTPE";
    int i = 0;
    while (fabs(v) >= 1000 && i < 6) {
        v /= 1000;
        i++;
    }
    if (i == 0)
        snprintf(buf, size, "%.4g %s", v, unit);
    else
        snprintf(buf, size, "%.4g %c%s", v, pre[i], unit);
    return buf;
}

/* A cell of 4 significant digits, sorted by v: the rates and intensities
 * of one column span many orders of magnitude, which one number of
 * decimals per column would round to 0 ("1 739", "74.17", "0.01035";
 * m·10ⁿ below 10⁻³). */
static void sig4(mmm__tab *tb, double v)
{
    char buf[64];
    int mag = v > 0 ? (int)floor(log10(v)) : 0;
    if (v > 0 && v < 1e-3)
        mmm__fmt_sci(v, 4, buf, sizeof buf);
    else
        mmm__fmt_grouped(v, mag >= 3 ? 0 : 3 - mag, buf, sizeof buf);
    mmm__tab_html(tb, v, "%s", buf);
}

static int put_table(mmm__text *t, const mmm_roofline *r, const mmm_program *p,
                     size_t max_rows, mmm_error *err)
{
    mmm__tab tb;
    size_t i;
    int rc;
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "kernel", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "launches", MMM__TAB_NUM);
    mmm__tab_col(&tb, "operations", MMM__TAB_NUM);
    mmm__tab_col(&tb, "DRAM bytes", MMM__TAB_NUM);
    mmm__tab_col(&tb, "ops/byte", MMM__TAB_RATIO);
    mmm__tab_col(&tb, "attained (Gop/s)", MMM__TAB_RATIO);
    mmm__tab_col(&tb, "roof (Gop/s)", MMM__TAB_RATIO);
    mmm__tab_col(&tb, "of roof", MMM__TAB_PERCENT);
    mmm__tab_col(&tb, "bound", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "dominant", MMM__TAB_TEXT);
    for (i = 0; i < r->nkernels && i < max_rows; i++) {
        const mmm_roofline_kernel *k = &r->kernels[i];
        mmm__tab_row(&tb, NULL);
        mmm__tab_text(&tb, NAN, p->kernels[k->kernel].id, 0);
        mmm__tab_num(&tb, (double)k->launches);
        mmm__tab_num(&tb, k->work);
        mmm__tab_num(&tb, k->dram_bytes);
        if (isfinite(k->intensity))
            sig4(&tb, k->intensity);
        else
            mmm__tab_empty(&tb); /* no DRAM bytes */
        sig4(&tb, k->throughput / 1e9);
        sig4(&tb, k->roof / 1e9);
        mmm__tab_num(&tb, 100 * k->fraction);
        mmm__tab_html(&tb, NAN, "%s", mmm_roofline_bound_name(k->bound));
        mmm__tab_html(&tb, NAN, "%s", mmm_time_term_name(k->dominant));
    }
    if ((rc = mmm__tab_end(&tb, t, err)) < 0)
        return rc;
    if (r->nkernels > max_rows)
        mmm__report_note(t, "(the first %zu kernels of %zu)", max_rows, r->nkernels);
    if (r->nskipped)
        mmm__report_note(t, "(%zu kernel%s without operations left out: copies, sets)",
                         r->nskipped, r->nskipped == 1 ? "" : "s");
    return 0;
}

int mmm__report_roofline(mmm__text *t, const mmm_instance *inst,
                         const mmm_report_options *opt, mmm_error *err)
{
    const mmm_program *p = inst->program;
    size_t max_rows = opt->max_rows ? opt->max_rows : MMM__REPORT_MAX_ROWS;
    mmm_time_machine m;
    mmm_time tm;
    mmm_roofline r;
    mmm_error e;
    roof_fig fig;
    char a[32], b[32], c[32];
    int rc;
    if (mmm_time_machine_get(&m, inst, 1, &e) < 0)
        return 0; /* no time-model machine: no section */
    mmm__text_put(t, "<section id=\"roofline\">\n<h2>Roofline</h2>\n");
    rc = mmm_time_compute(&tm, inst, &m, &e);
    if (rc == 0) {
        rc = mmm_roofline_compute(&r, &tm, inst, &e);
        mmm_time_dispose(&tm);
    }
    if (rc == MMM_ENOMEM)
        return mmm_error_set(err, rc, NULL, 0, "out of memory");
    if (rc < 0) {
        mmm__report_note(t, "(no roofline: %s)", e.message);
        mmm__text_put(t, "</section>\n");
        return 0;
    }
    mmm__text_printf(t,
                     "<p>Each kernel at its arithmetic intensity (operations per DRAM "
                     "byte) and the throughput the time model predicts for it, under "
                     "the machine's roofs (docs/roofline.md): compute %s, DRAM %s",
                     rate(r.peak_ops_per_s, "op/s", a, sizeof a),
                     rate(r.dram_bytes_per_s, "B/s", b, sizeof b));
    if (r.l2_bytes_per_s > 0)
        mmm__text_printf(t, ", L2 %s", rate(r.l2_bytes_per_s, "B/s", c, sizeof c));
    else
        mmm__text_put(t, " (no L2 roof: the machine gives no l2_bytes_per_cycle)");
    mmm__text_put(t, ". Predicted throughputs, not measured ones.</p>\n");
    if (r.nkernels == 0) {
        mmm__report_note(t, "(no kernel with operations)");
    } else {
        fig.r = &r;
        fig.prog = p;
        if ((rc = mmm__report_figure(t, draw_roofline, &fig, "roofline", err)) < 0 ||
            (rc = put_table(t, &r, p, max_rows, err)) < 0) {
            mmm_roofline_dispose(&r);
            return rc;
        }
    }
    mmm_roofline_dispose(&r);
    mmm__text_put(t, "</section>\n");
    return 0;
}
