/* policy_most_blocks.c: the 'most-blocks' policy.
 * Wide launches first: they keep many SMs busy, narrow ones fill gaps. */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return (double)g->launch_blocks;
}

const mmm_sim_policy mmm_sim_policy_most_blocks = {
    "most-blocks",
    "the launch with the most blocks first",
    priority,
    0
};
