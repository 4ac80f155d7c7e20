/* analysis/longest_path.h: longest weighted paths of the kernel DAG, over its
 * topological order.  Internal to the library (src/analysis/metrics.c: S and L,
 * src/tmm/tmm.c: the TMM span, schedulers/sim_prep.c: the critical path). */
#ifndef MMM_ANALYSIS_LONGEST_PATH_H
#define MMM_ANALYSIS_LONGEST_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "mmm/program.h"

/* No vertex (an empty graph, a path's start). */
#define MMM__NO_VERTEX UINT32_MAX

/* Flags. */
enum {
    MMM__LP_BACKWARD = 1u, /* over the successors, in reverse order */
    MMM__LP_LAST_END = 2u  /* *end: the last of the heaviest, not the first */
};

/* Forward: dist[v] = w(v) + the largest dist[u] over the predecessors u
 * of v (0 when it has none), in topological order, so that dist[v] is the
 * heaviest path ending at v.  MMM__LP_BACKWARD: the same over the
 * successors, in reverse order: the heaviest path starting at v.  from[v]
 * (from may be NULL) is the first neighbour, in list order, whose dist is
 * the largest, or MMM__NO_VERTEX.  *end is the first vertex in that order
 * whose dist is the largest (with MMM__LP_LAST_END the last one): the end
 * of a heaviest path, from which following from[] walks the path
 * backwards; MMM__NO_VERTEX when p has no kernel.  w(v) is the weight at
 * (char *)w + v * wstride (wstride in bytes: sizeof *w for an array, the
 * size of the struct for a field of an array of structs).
 * Returns 0.  The _i64 form sums integers exactly and returns
 * MMM_EOVERFLOW (dist, from and *end then unspecified) when a sum leaves
 * the int64_t range. */
int mmm__longest_path(const mmm_program *p, unsigned flags, const double *w,
                      size_t wstride, double *dist, uint32_t *from, uint32_t *end);
int mmm__longest_path_i64(const mmm_program *p, unsigned flags, const int64_t *w,
                          size_t wstride, int64_t *dist, uint32_t *from,
                          uint32_t *end);

/* The path that ends at end, following from[] back to its start, in
 * order: *out (malloc'ed) and *len; an empty path for MMM__NO_VERTEX.
 * 0 or MMM_ENOMEM. */
int mmm__longest_path_walk(uint32_t **out, size_t *len, const uint32_t *from,
                           uint32_t end);

#endif
