/* policy_longest_block.c: the 'longest-block' policy.
 * Longest processing time first (LPT), Graham 1969: among ready blocks,
 * the one with the largest S(B) + O(B). */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return g->cost;
}

const mmm_sim_policy mmm_sim_policy_longest_block = {
    "longest-block",
    "the most expensive blocks first (LPT)",
    priority,
    0
};
