/* policy_fifo.c: the 'fifo' policy.
 * All priorities are equal, so the engine's tie-break decides: earlier
 * ready launch first, then kernel declaration order, then class order. */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    (void)g;
    return 0.0; /* every group ties: the engine's order decides */
}

const mmm_sim_policy mmm_sim_policy_fifo = {
    "fifo",
    "launch order: the launch that became ready first (then declaration order)",
    priority,
    0
};
