/* antichain_prev.h: the earlier minimum flow for K (greedy start + Dinic),
 * kept for the tests to compare the library's K with on medium DAGs. */
#ifndef MMM_TEST_ANTICHAIN_PREV_H
#define MMM_TEST_ANTICHAIN_PREV_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/error.h"

/* K of the DAG in CSR form (duplicates allowed), as mmm__antichain_flow. */
int prev_antichain_flow(int64_t *out, size_t n, const int64_t *weight,
                        const uint32_t *succ_start, const uint32_t *succ,
                        mmm_error *err);

#endif
