/* options.c: the defaults of the core's options structs, for callers that
 * cannot use the designated-initializer macros (C++, bindings). */
#include "mmm/program.h"
#include "mmm/sim.h"

void mmm_load_options_init(mmm_load_options *opt)
{
    static const mmm_load_options defaults = MMM_LOAD_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}

void mmm_sim_options_init(mmm_sim_options *opt)
{
    static const mmm_sim_options defaults = MMM_SIM_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}
