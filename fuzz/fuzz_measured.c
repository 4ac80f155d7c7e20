/* fuzz_measured.c: the measured speedups of `mmm scale --measured`
 * (schedulers/scale_measured.c) on arbitrary bytes.  A file that does not
 * read must leave nothing and say where (a FILE:LINE message); one that
 * reads must satisfy the reader's contract (rows by increasing p, each
 * p >= 1 with a positive finite speedup at a line past the header; one
 * median per p within its rows' range; from times a row of p = 1), and a
 * small one goes through the sweep and the JSON and text writers. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/mmm.h"
#include "mmm/scale.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char measured_prog[] =
    "<program name='f'>"
    "<kernel id='a' blocks='6' work='3' span='3' reads='0' writes='0'/>"
    "<kernel id='z' blocks='1' work='5' span='5' reads='0' writes='0'/>"
    "<edge from='a' to='z'/></program>";

static void check_measured(const mmm_speedup_measured *m)
{
    size_t i, k = 0;
    if (!m->file || m->n == 0 || m->nmedians == 0 || m->nmedians > m->n)
        abort();
    if (m->from_seconds ? !(m->t1 > 0) || !isfinite(m->t1) || m->points[0].p != 1
                        : m->t1 != 0)
        abort();
    for (i = 0; i < m->n; i++) {
        const mmm_speedup_point *pt = &m->points[i];
        if (pt->p < 1 || !(pt->speedup > 0) || isnan(pt->speedup) || pt->line < 2 ||
            (i && pt->p < m->points[i - 1].p))
            abort();
    }
    for (i = 0; i < m->nmedians; i++) {
        double lo = INFINITY, hi = -INFINITY;
        if (i && m->medians[i].p <= m->medians[i - 1].p)
            abort();
        for (; k < m->n && m->points[k].p == m->medians[i].p; k++) {
            lo = fmin(lo, m->points[k].speedup);
            hi = fmax(hi, m->points[k].speedup);
        }
        if (!(m->medians[i].speedup >= lo && m->medians[i].speedup <= hi))
            abort();
    }
    if (k != m->n)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static mmm_program *prog;
    static mmm_instance *inst;
    mmm_speedup_measured *m = (mmm_speedup_measured *)&m;
    mmm_error err;
    if (!prog && (mmm_program_load_memory(&prog, measured_prog, sizeof measured_prog - 1, "f.xml",
                                          NULL, &err) < 0 ||
                  mmm_instance_new(&inst, prog, &err) < 0 ||
                  mmm_instance_eval(inst, NULL, 0, &err) < 0))
        abort();
    if (mmm_speedup_measured_read_memory(&m, (const char *)data, size, "f.csv", &err) < 0) {
        if (m || err.code >= 0 || !err.message[0] || strcmp(err.file, "f.csv") ||
            err.line < 0)
            abort();
        return 0;
    }
    if (!m)
        abort();
    check_measured(m);
    if (m->nmedians <= 8 && m->medians[m->nmedians - 1].p <= 1000) {
        mmm_speedup_options o = MMM_SPEEDUP_OPTIONS_INIT;
        mmm_speedup s;
        mmm_writer *w = NULL;
        o.measured = m;
        if (mmm_speedup_compute(&s, inst, NULL, 0, &o, &err) < 0 ||
            s.nrows < m->nmedians)
            abort();
        for (int f = MMM_FORMAT_TEXT; f <= MMM_FORMAT_JSON; f++) {
            if (mmm_writer_new_memory(&w, (mmm_format)f, &err) < 0 ||
                mmm_write_speedup_measured(w, prog, "f.xml", &s, 0, m, &err) < 0 ||
                !mmm_writer_data(w, NULL))
                abort();
            mmm_writer_free(w);
        }
        mmm_speedup_dispose(&s);
    }
    mmm_speedup_measured_free(m);
    return 0;
}
