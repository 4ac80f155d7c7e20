/* fuzz_load.c: the XML loader (parse, schema, builder, finalize) on an
 * arbitrary file held in memory, with small limits so one input stays fast. */
#include <stdint.h>

#include "mmm/mmm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_program *prog = NULL;
    mmm_error err;
    opt.limits.max_file_bytes = 1 << 20;
    opt.limits.max_kernels = 1000;
    opt.limits.max_edges = 5000;
    opt.limits.max_params = 200;
    if (mmm_program_load_memory(&prog, (const char *)data, size, "fuzz.xml",
                                &opt, &err) == 0)
        mmm_program_free(prog);
    return 0;
}
