/* policy_shortest_block.c: the 'shortest-block' policy.
 * Shortest processing time first (SPT): among ready blocks, the one with
 * the smallest S(B) + O(B). */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return -g->cost;
}

const mmm_sim_policy mmm_sim_policy_shortest_block = {
    "shortest-block",
    "the cheapest blocks first (SPT)",
    priority,
    0
};
