/* policy_random.c: the 'random' policy.
 * A random priority list: each block class gets a uniform priority drawn
 * from the seed (the same for all launches of a repeat chain), so the same
 * seed gives the same schedule. */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return g->random;
}

const mmm_sim_policy mmm_sim_policy_random = {
    "random",
    "a random priority per block class (--seed N; deterministic)",
    priority,
    1
};
