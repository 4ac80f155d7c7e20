/* fuzz_analyze.c: load + evaluate + every measure (the whole `mmm analyze`
 * path, output aside), with limits that cap the work of one input. */
#include <stdint.h>
#include <stdlib.h>

#include "mmm/mmm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_instance *inst = NULL;
    mmm_metrics m = {0};
    mmm_error err;
    opt.limits.max_file_bytes = 1 << 20;
    opt.limits.max_kernels = 300;
    opt.limits.max_edges = 2000;
    opt.limits.max_params = 100;
    opt.limits.max_index_repeat = 10000;
    if (mmm_program_load_memory(&prog, (const char *)data, size, "fuzz.xml",
                                &opt, &err) < 0)
        return 0;
    if (mmm_instance_new(&inst, prog, &err) == 0) {
        mmm_instance_set_p(inst, 7);
        if (mmm_instance_eval(inst, NULL, 0, &err) == 0 &&
            mmm_metrics_compute(&m, inst, 0, &err) == 0) {
            /* Invariants of the model. */
            if (m.K > m.N || m.L > m.N || (m.N > 0 && m.K < 1))
                abort();
            if (m.has_p && m.graham_brent < 0)
                abort();
        }
        mmm_metrics_dispose(&m);
        mmm_instance_free(inst);
    }
    mmm_program_free(prog);
    return 0;
}
