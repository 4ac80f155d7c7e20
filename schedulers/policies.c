/* policies.c: the table of built-in scheduling policies (--policy NAME,
 * --policy all runs them in this order). */
#include <string.h>

#include "mmm/sim.h"

static const mmm_sim_policy *const table[] = {
    &mmm_sim_policy_fifo,          &mmm_sim_policy_lifo,
    &mmm_sim_policy_critical_path, &mmm_sim_policy_most_blocks,
    &mmm_sim_policy_fewest_blocks, &mmm_sim_policy_longest_block,
    &mmm_sim_policy_shortest_block, &mmm_sim_policy_random,
};

size_t mmm_sim_policy_count(void)
{
    return sizeof table / sizeof table[0];
}

const mmm_sim_policy *mmm_sim_policy_at(size_t i)
{
    return i < mmm_sim_policy_count() ? table[i] : NULL;
}

const mmm_sim_policy *mmm_sim_policy_find(const char *name)
{
    size_t i;
    for (i = 0; i < mmm_sim_policy_count(); i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}
