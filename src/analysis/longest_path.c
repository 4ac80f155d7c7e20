/* analysis/longest_path.c: longest weighted paths over the topological order
 * (see analysis/longest_path.h).  One body, for double and for int64_t
 * weights (the integer sums overflow-checked). */
#include "analysis/longest_path.h"

#include <stdlib.h>

#include "mmm/error.h"

#define ADD_DOUBLE(a, b, out) (*(out) = (a) + (b), 0)
#define ADD_INT64(a, b, out) __builtin_add_overflow(a, b, out)

#define LONGEST_PATH(NAME, T, ADD)                                             \
    int NAME(const mmm_program *p, unsigned flags, const T *w, size_t wstride, \
             T *dist, uint32_t *from, uint32_t *end)                           \
    {                                                                          \
        int backward = (flags & MMM__LP_BACKWARD) != 0;                        \
        int last = (flags & MMM__LP_LAST_END) != 0;                            \
        const uint32_t *start = backward ? p->succ_start : p->pred_start;      \
        const uint32_t *adj = backward ? p->succ : p->pred;                    \
        size_t n = p->nkernels;                                                \
        uint32_t e = MMM__NO_VERTEX;                                           \
        for (size_t i = 0; i < n; i++) {                                       \
            uint32_t v = p->topo[backward ? n - 1 - i : i];                    \
            uint32_t best = MMM__NO_VERTEX;                                    \
            T d = 0;                                                           \
            for (uint32_t j = start[v]; j < start[v + 1]; j++) {               \
                uint32_t u = adj[j];                                           \
                if (best == MMM__NO_VERTEX || dist[u] > d)                     \
                    d = dist[u], best = u;                                     \
            }                                                                  \
            if (ADD(d, *(const T *)((const char *)w + v * wstride), &dist[v])) \
                return MMM_EOVERFLOW;                                          \
            if (from)                                                          \
                from[v] = best;                                                \
            if (e == MMM__NO_VERTEX ||                                         \
                (last ? dist[v] >= dist[e] : dist[v] > dist[e]))               \
                e = v;                                                         \
        }                                                                      \
        *end = e;                                                              \
        return 0;                                                              \
    }

LONGEST_PATH(mmm__longest_path, double, ADD_DOUBLE)
LONGEST_PATH(mmm__longest_path_i64, int64_t, ADD_INT64)

int mmm__longest_path_walk(uint32_t **out, size_t *len, const uint32_t *from,
                           uint32_t end)
{
    size_t n = 0;
    for (uint32_t v = end; v != MMM__NO_VERTEX; v = from[v])
        n++;
    uint32_t *path = malloc((n ? n : 1) * sizeof *path);
    if (!path)
        return MMM_ENOMEM;
    size_t i = n;
    for (uint32_t v = end; v != MMM__NO_VERTEX; v = from[v])
        path[--i] = v;
    *out = path;
    *len = n;
    return 0;
}
