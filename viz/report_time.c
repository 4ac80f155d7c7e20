/* report_time.c: the report's "Predicted time" section (docs/time.md),
 * present when the machine gives the time model's constants. */
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

int mmm__report_time(mmm__text *t, const mmm_instance *inst, mmm_error *err)
{
    const mmm_program *p = inst->program;
    mmm_time_machine m;
    mmm_time tm;
    mmm_error e;
    char a[64], b[64];
    if (mmm_time_machine_get(&m, inst, 1, &e) < 0)
        return 0; /* no time-model machine: no section */
    mmm__text_put(t, "<section id=\"time\">\n<h2>Predicted time</h2>\n");
    int rc = mmm_time_compute(&tm, inst, &m, &e);
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
    mmm__text_put(t, "<table>\n<tr><th>kernel</th><th>launches</th>"
                     "<th>seconds</th><th>execution</th><th>waves</th>"
                     "<th>resident blocks</th><th>limit</th>"
                     "<th>dominant</th></tr>\n");
    for (size_t i = 0; i < p->nkernels && i < 500; i++) {
        size_t k = p->topo[i];
        const mmm_time_kernel *tk = &tm.kernels[k];
        seconds(a, sizeof a, tk->seconds);
        seconds(b, sizeof b, tk->exec_seconds);
        mmm__text_put(t, "<tr><td>");
        mmm__text_put_xml(t, p->kernels[k].id);
        if (mmm_kernel_copy(p, k) != MMM_COPY_NONE) {
            /* a copy: no waves or blocks; its kind as the limit */
            mmm__text_printf(t,
                             "</td><td class=\"n\">%lld</td><td class=\"n\">"
                             "%s</td><td class=\"n\">%s</td><td class=\"n\">"
                             "</td><td class=\"n\"></td><td>%s copy</td><td>"
                             "%s</td></tr>\n",
                             (long long)tk->launches, a, b,
                             mmm_copy_kind_name(mmm_kernel_copy(p, k)),
                             mmm_time_term_name(tk->dominant));
            continue;
        }
        mmm__text_printf(t,
                         "</td><td class=\"n\">%lld</td><td class=\"n\">%s"
                         "</td><td class=\"n\">%s</td><td class=\"n\">%lld"
                         "</td><td class=\"n\">%lld</td><td>%s</td><td>%s"
                         "</td></tr>\n",
                         (long long)tk->launches, a, b, (long long)tk->waves,
                         (long long)tk->resident,
                         mmm_time_limit_name(tk->limit),
                         mmm_time_term_name(tk->dominant));
    }
    mmm__text_put(t, "</table>\n");
    if (p->nkernels > 500)
        mmm__report_note(t, "(the first 500 kernels of %zu)", p->nkernels);
    mmm__text_put(t, "</section>\n");
    mmm_time_dispose(&tm);
    return 0;
}
