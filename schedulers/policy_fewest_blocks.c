/* policy_fewest_blocks.c: the 'fewest-blocks' policy.
 * Narrow launches first: they finish their barrier quickly. */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return -(double)g->launch_blocks;
}

const mmm_sim_policy mmm_sim_policy_fewest_blocks = {
    "fewest-blocks",
    "the launch with the fewest blocks first",
    priority,
    0
};
