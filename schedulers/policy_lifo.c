/* policy_lifo.c: the 'lifo' policy.
 * The most recently readied launch goes first, which follows a DAG
 * depth-first and finishes chains before starting new branches. */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return g->ready_time;
}

const mmm_sim_policy mmm_sim_policy_lifo = {
    "lifo",
    "the launch that became ready last first (depth-first flavour)",
    priority,
    0
};
