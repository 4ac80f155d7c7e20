/* sim_options.c: the defaults of the simulator's options struct, for
 * callers that cannot use the designated-initializer macro (C++, bindings). */
#include "mmm/sim.h"

void mmm_sim_options_init(mmm_sim_options *opt)
{
    static const mmm_sim_options defaults = MMM_SIM_OPTIONS_INIT;
    if (opt)
        *opt = defaults;
}
