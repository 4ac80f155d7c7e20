/* policy_critical_path.c: the 'critical-path' policy.
 * Highest level first (HLFET, Hu's algorithm for unit costs): the
 * remaining path of a block is its own cost plus the longest path of
 * launch costs after its launch (a launch weighs its largest block). */
#include "mmm/sim.h"

static double priority(const mmm_sim_group *g)
{
    return g->cost + g->tail;
}

const mmm_sim_policy mmm_sim_policy_critical_path = {
    "critical-path",
    "longest remaining path first: block cost + longest launch path after it",
    priority,
    0
};
