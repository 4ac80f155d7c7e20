/* base/csr.h: compressed sparse row adjacency of a DAG given as an edge
 * list.  Internal to the library.
 *
 * One builder for every graph of mmm: src/model/program_graph.c builds the kernel
 * DAG's successor and predecessor lists with it, src/analysis/antichain.c those of
 * the edge lists given to mmm__max_antichain. */
#ifndef MMM_BASE_CSR_H
#define MMM_BASE_CSR_H

#include <stddef.h>
#include <stdint.h>

typedef struct mmm__csr {
    uint32_t *succ_start, *succ; /* succ[succ_start[u] .. succ_start[u+1]) */
    uint32_t *pred_start, *pred; /* likewise, predecessors */
    uint32_t nedges;             /* after duplicates are dropped */
} mmm__csr;

/* Build the lists of n nodes from m edges, dropping duplicate edges: edge
 * i goes from the uint32_t at (char *)from + i * stride to the one at
 * (char *)to + i * stride (stride in bytes: sizeof(uint32_t) for two
 * arrays, the size of the struct for an array of structs); each list is sorted by node index.
 * Two counting-sort passes, O(n + m).  The arrays are allocated with
 * mmm__big_malloc (free them with mmm__big_free).  Every end must be < n
 * and n, m < 2^32.  Returns 0 or MMM_ENOMEM (nothing allocated then). */
int mmm__csr_build(mmm__csr *out, size_t n, size_t m, const void *from,
                   const void *to, size_t stride);

/* Free what mmm__csr_build allocated (a zeroed struct is fine). */
void mmm__csr_dispose(mmm__csr *c);

#endif
