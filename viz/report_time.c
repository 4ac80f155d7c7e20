/* report_time.c: the report's "Predicted time" section (docs/time.md),
 * present when the machine gives the time model's constants. */
#include <math.h>
#include <stdio.h>

#include "mmm/timemodel.h"
#include "report_int.h"

static void seconds(char *buf, size_t size, double s)
{
    if (s >= 1)
        snprintf(buf, size, "%.4g s", s);
    else if (s >= 1e-3)
        snprintf(buf, size, "%.4g ms", s * 1e3);
    else
        snprintf(buf, size, "%.4g &micro;s", s * 1e6);
}

int mmm__report_time(mmm__text *t, const mmm_instance *inst,
                     const mmm_report_options *opt, mmm_error *err)
{
    const mmm_program *p = inst->program;
    size_t max_rows = opt->max_rows ? opt->max_rows : MMM__REPORT_MAX_ROWS;
    mmm_time_machine m;
    mmm_time tm;
    mmm__tab tb;
    mmm_error e;
    char a[64];
    int rc;
    if (mmm_time_machine_get(&m, inst, 1, &e) < 0)
        return 0; /* no time-model machine: no section */
    mmm__text_put(t, "<section id=\"time\">\n<h2>Predicted time</h2>\n");
    rc = mmm_time_compute(&tm, inst, &m, &e);
    if (rc == MMM_ENOMEM)
        return mmm_error_set(err, rc, NULL, 0, "out of memory");
    if (rc < 0) {
        mmm__report_note(t, "(no prediction: %s)", e.message);
        mmm__text_put(t, "</section>\n");
        return 0;
    }
    seconds(a, sizeof a, tm.seconds);
    mmm__text_printf(t,
                     "<p>The time model (docs/time.md) predicts <b>%s</b> "
                     "with %s launches (%lld launches; dominant term: %s). "
                     "Seconds are floating-point predictions from the "
                     "machine's fitted constants, not exact counts.</p>\n",
                     a, m.graph ? "CUDA graph" : "stream",
                     (long long)tm.launches, mmm_time_term_name(tm.dominant));
    mmm__tab_init(&tb, NULL);
    mmm__tab_col(&tb, "kernel", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "launches", MMM__TAB_NUM);
    mmm__tab_col(&tb, "time", MMM__TAB_SECONDS);
    mmm__tab_col(&tb, "execution", MMM__TAB_SECONDS);
    mmm__tab_col(&tb, "waves", MMM__TAB_NUM);
    mmm__tab_col(&tb, "resident blocks", MMM__TAB_NUM);
    mmm__tab_col(&tb, "limit", MMM__TAB_TEXT);
    mmm__tab_col(&tb, "dominant", MMM__TAB_TEXT);
    for (size_t i = 0; i < p->nkernels && i < max_rows; i++) {
        size_t k = p->topo[i];
        const mmm_time_kernel *tk = &tm.kernels[k];
        mmm__tab_row(&tb, NULL);
        mmm__tab_text(&tb, NAN, p->kernels[k].id, 0);
        mmm__tab_num(&tb, (double)tk->launches);
        mmm__tab_num(&tb, tk->seconds);
        mmm__tab_num(&tb, tk->exec_seconds);
        if (mmm_kernel_copy(p, k) != MMM_COPY_NONE) {
            /* a copy: no waves or blocks; its kind as the limit */
            mmm__tab_empty(&tb);
            mmm__tab_empty(&tb);
            mmm__tab_html(&tb, NAN, "%s copy", mmm_copy_kind_name(mmm_kernel_copy(p, k)));
        } else {
            mmm__tab_num(&tb, (double)tk->waves);
            mmm__tab_num(&tb, (double)tk->resident);
            mmm__tab_html(&tb, NAN, "%s", mmm_time_limit_name(tk->limit));
        }
        mmm__tab_html(&tb, NAN, "%s", mmm_time_term_name(tk->dominant));
    }
    mmm_time_dispose(&tm);
    if ((rc = mmm__tab_end(&tb, t, err)) < 0)
        return rc;
    if (p->nkernels > max_rows)
        mmm__report_note(t, "(the first %zu kernels of %zu)", max_rows, p->nkernels);
    mmm__text_put(t, "</section>\n");
    return 0;
}
