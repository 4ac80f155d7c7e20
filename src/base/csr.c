/* base/csr.c: CSR adjacency from an edge list (see base/csr.h). */
#include "base/csr.h"

#include <string.h>

#include "mmm/error.h"
#include "base/bigalloc.h"

void mmm__csr_dispose(mmm__csr *c)
{
    mmm__big_free(c->succ_start), mmm__big_free(c->succ);
    mmm__big_free(c->pred_start), mmm__big_free(c->pred);
    memset(c, 0, sizeof *c);
}

/* The i-th end of a strided edge list. */
static uint32_t end_at(const void *base, size_t i, size_t stride)
{
    return *(const uint32_t *)((const char *)base + i * stride);
}

int mmm__csr_build(mmm__csr *out, size_t n, size_t m, const void *from,
                   const void *to, size_t stride)
{
    uint32_t *ss = mmm__big_calloc(n + 1, sizeof *ss);
    uint32_t *ps = mmm__big_calloc(n + 1, sizeof *ps);
    uint32_t *succ = mmm__big_malloc((m ? m : 1) * sizeof *succ);
    uint32_t *pred = mmm__big_malloc((m ? m : 1) * sizeof *pred);
    uint32_t *cur = mmm__big_malloc((n ? n : 1) * sizeof *cur);
    memset(out, 0, sizeof *out);
    if (!ss || !ps || !succ || !pred || !cur) {
        mmm__big_free(ss), mmm__big_free(ps), mmm__big_free(succ);
        mmm__big_free(pred), mmm__big_free(cur);
        return MMM_ENOMEM;
    }
    /* Pass 1: predecessors in edge order (duplicates included). */
    for (size_t i = 0; i < m; i++)
        ps[end_at(to, i, stride) + 1]++, ss[end_at(from, i, stride) + 1]++;
    for (size_t v = 0; v < n; v++)
        ps[v + 1] += ps[v], ss[v + 1] += ss[v];
    memcpy(cur, ps, n * sizeof *cur);
    for (size_t i = 0; i < m; i++)
        pred[cur[end_at(to, i, stride)]++] = end_at(from, i, stride);
    /* Pass 2: successors, sorted because v grows. */
    memcpy(cur, ss, n * sizeof *cur);
    for (size_t v = 0; v < n; v++)
        for (uint32_t j = ps[v]; j < ps[v + 1]; j++)
            succ[cur[pred[j]]++] = (uint32_t)v;
    /* Drop duplicates in place. */
    uint32_t w = 0;
    for (size_t u = 0; u < n; u++) {
        uint32_t b = ss[u], e = ss[u + 1];
        ss[u] = w;
        for (uint32_t j = b; j < e; j++)
            if (j == b || succ[j] != succ[j - 1])
                succ[w++] = succ[j];
    }
    ss[n] = w;
    /* Pass 3: predecessors from the clean successor lists, sorted. */
    memset(ps, 0, (n + 1) * sizeof *ps);
    for (uint32_t j = 0; j < w; j++)
        ps[succ[j] + 1]++;
    for (size_t v = 0; v < n; v++)
        ps[v + 1] += ps[v];
    memcpy(cur, ps, n * sizeof *cur);
    for (size_t u = 0; u < n; u++)
        for (uint32_t j = ss[u]; j < ss[u + 1]; j++)
            pred[cur[succ[j]]++] = (uint32_t)u;
    mmm__big_free(cur);
    if (w < m && w > 0) { /* give back what duplicates took */
        uint32_t *s2 = mmm__big_realloc(succ, w * sizeof *succ,
                                        w * sizeof *succ);
        uint32_t *p2 = mmm__big_realloc(pred, w * sizeof *pred,
                                        w * sizeof *pred);
        if (s2)
            succ = s2;
        if (p2)
            pred = p2;
    }
    out->succ_start = ss, out->succ = succ;
    out->pred_start = ps, out->pred = pred;
    out->nedges = w;
    return 0;
}
