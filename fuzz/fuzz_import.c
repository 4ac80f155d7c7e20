/* fuzz_import.c: every task-graph reader on arbitrary bytes.  The first
 * byte picks the format (0: told by the content, as the CLI does; 1..5:
 * STG, WfCommons, DAX, DOT, CUDA graph DOT forced) and the time unit and
 * negative-cost mode; the rest is the file.  A program that loads is
 * evaluated and measured, and written back as XML that must load again
 * with the same W, N and K. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/import.h"
#include "mmm/mmm.h"
#ifdef MMM_HAVE_DOT
#include "mmm/import_dot.h"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fi_measure(const mmm_program *p, mmm_metrics *m, mmm_instance **inst)
{
    mmm_error err;
    memset(m, 0, sizeof *m);
    *inst = NULL;
    if (mmm_instance_new(inst, p, &err) < 0)
        return -1;
    if (mmm_instance_eval(*inst, NULL, 0, &err) < 0 ||
        mmm_metrics_compute(m, *inst, 0, &err) < 0)
        return -1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const mmm_input_format forced[] = {
        MMM_INPUT_UNKNOWN, MMM_INPUT_STG, MMM_INPUT_WFCOMMONS, MMM_INPUT_DAX,
        MMM_INPUT_DOT, MMM_INPUT_CUDA_DOT};
    mmm_import_options io = MMM_IMPORT_OPTIONS_INIT;
    mmm_import_report rep;
    mmm_program *p = NULL, *q = NULL;
    mmm_instance *inst = NULL, *inst2 = NULL;
    mmm_metrics m, m2;
    mmm_error err;
    if (size < 1)
        return 0;
    io.format = forced[(data[0] & 7) % 6];
    io.time_unit = (mmm_time_unit)((data[0] >> 3) & 3);
    io.negative_to_zero = (data[0] >> 5) & 1;
    io.load.limits.max_kernels = 100000;
    io.load.limits.max_edges = 400000;
#ifdef MMM_HAVE_DOT
    io.dot_reader = mmm_dot_read;
    io.cuda_dot_reader = mmm_cuda_dot_read;
#endif
    if (mmm_program_read_memory(&p, (const char *)data + 1, size - 1,
                                "fuzz.in", &io, &rep, &err) < 0)
        return 0;
    if (fi_measure(p, &m, &inst) == 0) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f && mmm_program_write_xml(f, inst, "fuzz", &err) == 0) {
            mmm_import_options xo = MMM_IMPORT_OPTIONS_INIT;
            fclose(f);
            f = NULL;
            xo.format = MMM_INPUT_MMM;
            if (mmm_program_read_memory(&q, buf, len, "fuzz.xml", &xo, NULL,
                                        &err) < 0)
                abort(); /* what convert writes must load */
            if (fi_measure(q, &m2, &inst2) < 0 || m.W != m2.W || m.N != m2.N ||
                m.K != m2.K)
                abort();
        }
        if (f)
            fclose(f);
        free(buf);
        mmm_metrics_dispose(&m2);
        mmm_instance_free(inst2);
        mmm_program_free(q);
    }
    mmm_metrics_dispose(&m);
    mmm_instance_free(inst);
    mmm_program_free(p);
    return 0;
}
