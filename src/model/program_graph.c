/* program_graph.c: the edges of a program and finalize, which resolves
 * the edges, builds the CSR adjacency and a topological order (Kahn).
 * (The series-parallel plan used for K is the analysis layer's: it is
 * built on the first metrics call, src/analysis/metrics.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/program_internal.h"
#include "base/csr.h"

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Edges                                                               */

struct mmm_pending_edge {
    uint32_t edge;
    const char *from, *to; /* NULL when already resolved */
};

/* The kernel named id (or -1).  A numbered id is read in one pass and
 * found by its number (mmm__kernel_find_numbered); another tries *last
 * first: the same kernel as the last edge's, at the cost of one string
 * compare. */
static long edge_end(mmm_program *p, uint32_t *last, const char *id)
{
    struct mmm_program_priv *pv = p->priv;
    long k = mmm__kernel_find_numbered(pv, id);
    if (k >= 0)
        return k;
    if (*last && strcmp(pv->kernels[*last - 1].id, id) == 0)
        return (long)*last - 1;
    k = mmm_program_find_kernel(p, id);
    *last = k >= 0 ? (uint32_t)k + 1 : 0;
    return k;
}

int mmm_program_add_edge(mmm_program *p, const char *from, const char *to,
                         long line, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    if (!from || !to)
        return mmm_error_set(err, MMM_EINVAL, p->file, line,
                             "an edge needs from and to");
    struct mmm_program_priv *pv = p->priv;
    if (p->nedges >= pv->limits.max_edges || p->nedges >= UINT32_MAX - 1)
        return mmm_error_set(err, MMM_ELIMIT, p->file, line,
                             "more than %zu edges (raise the limit with "
                             "--max-edges)",
                             pv->limits.max_edges);
    long f = edge_end(p, &pv->last_from, from);
    long t = edge_end(p, &pv->last_to, to);
    if (f >= 0 && f == t)
        return mmm_error_set(err, MMM_ECYCLE, p->file, line,
                             "cycle: %s -> %s (an edge from a kernel to "
                             "itself)",
                             from, to);
    if (f < 0 || t < 0) {
        if (!strcmp(from, to))
            return mmm_error_set(err, MMM_ECYCLE, p->file, line,
                                 "cycle: %s -> %s (an edge from a kernel to "
                                 "itself)",
                                 from, to);
        if (mmm__program_grow(&pv->pending, &pv->pending_cap, pv->npending,
                              sizeof *pv->pending) < 0)
            return nomem(err);
        struct mmm_pending_edge *pe = &pv->pending[pv->npending];
        pe->edge = (uint32_t)p->nedges;
        pe->from = f < 0 ? mmm__arena_strdup(&pv->arena, from) : NULL;
        pe->to = t < 0 ? mmm__arena_strdup(&pv->arena, to) : NULL;
        if ((f < 0 && !pe->from) || (t < 0 && !pe->to))
            return nomem(err);
    }
    if (mmm__program_grow_big(&pv->edges, &pv->edges_cap, p->nedges,
                              sizeof *pv->edges) < 0)
        return nomem(err);
    if (f < 0 || t < 0)
        pv->npending++;
    mmm_edge *e = &pv->edges[p->nedges++];
    e->from = f < 0 ? UINT32_MAX : (uint32_t)f;
    e->to = t < 0 ? UINT32_MAX : (uint32_t)t;
    e->line = line;
    mmm__program_sync_views(p);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Finalize                                                            */

static int resolve_pending(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    for (size_t i = 0; i < pv->npending; i++) {
        const struct mmm_pending_edge *pe = &pv->pending[i];
        mmm_edge *e = &pv->edges[pe->edge];
        if (pe->from) {
            long f = mmm_program_find_kernel(p, pe->from);
            if (f < 0)
                return mmm_error_set(err, MMM_EINPUT, p->file, e->line,
                                     "edge from unknown kernel '%s'",
                                     pe->from);
            e->from = (uint32_t)f;
        }
        if (pe->to) {
            long t = mmm_program_find_kernel(p, pe->to);
            if (t < 0)
                return mmm_error_set(err, MMM_EINPUT, p->file, e->line,
                                     "edge to unknown kernel '%s'", pe->to);
            e->to = (uint32_t)t;
        }
        if (e->from == e->to)
            return mmm_error_set(err, MMM_ECYCLE, p->file, e->line,
                                 "cycle: %s -> %s (an edge from a kernel to "
                                 "itself)",
                                 pv->kernels[e->from].id,
                                 pv->kernels[e->to].id);
    }
    free(pv->pending);
    pv->pending = NULL;
    pv->npending = pv->pending_cap = 0;
    return 0;
}

/* CSR adjacency without duplicate edges, successor and predecessor lists
 * sorted by kernel index (base/csr.c). */
static int build_csr(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    static const mmm_edge e0;
    const mmm_edge *edges = p->nedges ? pv->edges : &e0;
    mmm__csr c;
    if (mmm__csr_build(&c, p->nkernels, p->nedges, &edges->from, &edges->to,
                       sizeof(mmm_edge)) < 0)
        return nomem(err);
    pv->succ_start = c.succ_start, pv->succ = c.succ;
    pv->pred_start = c.pred_start, pv->pred = c.pred;
    p->succ_start = c.succ_start, p->succ = c.succ;
    p->pred_start = c.pred_start, p->pred = c.pred;
    return 0;
}

/* Append s to buf (of size cap, used *len) if it fits entirely. */
static int put(char *buf, size_t cap, size_t *len, const char *s)
{
    size_t l = strlen(s);
    if (*len + l + 1 > cap)
        return 0;
    memcpy(buf + *len, s, l + 1);
    *len += l;
    return 1;
}

/* Append a kernel id, shortened to about 60 bytes (at a UTF-8 character
 * boundary) so that a huge id cannot push the whole cycle out of the
 * message. */
static void put_id(char *buf, size_t cap, size_t *len, const char *id)
{
    char s[72];
    size_t l = strlen(id);
    if (l < 64) {
        put(buf, cap, len, id);
        return;
    }
    l = 60;
    while (l > 0 && ((unsigned char)id[l] & 0xC0) == 0x80)
        l--;
    memcpy(s, id, l);
    memcpy(s + l, "...", 4);
    put(buf, cap, len, s);
}

/* Report one cycle among the kernels Kahn could not order (indeg[v] > 0).
 * Every such kernel has a predecessor among them, so walking predecessors
 * must revisit a kernel: the walk from there is a cycle, reversed. */
static int report_cycle(mmm_program *p, const uint32_t *indeg,
                        mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t n = p->nkernels;
    uint32_t *pos = malloc(n * sizeof *pos), *walk = malloc(n * sizeof *walk);
    if (!pos || !walk) {
        free(pos), free(walk);
        return nomem(err);
    }
    for (size_t v = 0; v < n; v++)
        pos[v] = UINT32_MAX;
    uint32_t v = 0, len = 0;
    while (indeg[v] == 0)
        v++;
    while (pos[v] == UINT32_MAX) {
        pos[v] = len;
        walk[len++] = v;
        uint32_t j = pv->pred_start[v];
        while (indeg[pv->pred[j]] == 0)
            j++;
        v = pv->pred[j];
    }
    /* walk[pos[v]..len) follows edges backwards: reverse it. */
    uint32_t b = pos[v], cnt = len - b;
    char msg[900];
    size_t ml = 0;
    put(msg, sizeof msg, &ml, "cycle: ");
    put_id(msg, sizeof msg, &ml, pv->kernels[walk[b]].id);
    uint32_t shown = 1;
    for (uint32_t i = len - 1; i > b; i--, shown++) {
        if (ml > 600) /* room for the closing part */
            break;
        put(msg, sizeof msg, &ml, " -> ");
        put_id(msg, sizeof msg, &ml, pv->kernels[walk[i]].id);
    }
    if (shown < cnt) {
        char more[64];
        snprintf(more, sizeof more, " -> ... (%u kernels in all)", cnt);
        put(msg, sizeof msg, &ml, more);
    }
    put(msg, sizeof msg, &ml, " -> ");
    put_id(msg, sizeof msg, &ml, pv->kernels[walk[b]].id);
    /* The line of the cycle's first edge. */
    uint32_t a = walk[b], c = cnt > 1 ? walk[len - 1] : walk[b];
    long line = 0;
    for (size_t i = 0; i < p->nedges && !line; i++)
        if (pv->edges[i].from == a && pv->edges[i].to == c)
            line = pv->edges[i].line;
    free(pos);
    free(walk);
    return mmm_error_set(err, MMM_ECYCLE, p->file, line, "%s", msg);
}

/* Kahn's algorithm, FIFO from the sources in declaration order. */
static int build_topo(mmm_program *p, mmm_error *err)
{
    struct mmm_program_priv *pv = p->priv;
    size_t n = p->nkernels;
    uint32_t *indeg = mmm__big_malloc((n ? n : 1) * sizeof *indeg);
    uint32_t *topo = mmm__big_malloc((n ? n : 1) * sizeof *topo);
    if (!indeg || !topo) {
        mmm__big_free(indeg), mmm__big_free(topo);
        return nomem(err);
    }
    size_t tail = 0;
    pv->index_topological = 1;
    for (size_t v = 0; v < n; v++) {
        for (uint32_t e = pv->pred_start[v]; e < pv->pred_start[v + 1]; e++)
            if (pv->pred[e] >= v)
                pv->index_topological = 0;
        indeg[v] = pv->pred_start[v + 1] - pv->pred_start[v];
        if (!indeg[v])
            topo[tail++] = (uint32_t)v;
    }
    for (size_t head = 0; head < tail; head++) {
        uint32_t u = topo[head];
        for (uint32_t j = pv->succ_start[u]; j < pv->succ_start[u + 1]; j++)
            if (--indeg[pv->succ[j]] == 0)
                topo[tail++] = pv->succ[j];
    }
    int r = 0;
    if (tail < n)
        r = report_cycle(p, indeg, err);
    mmm__big_free(indeg);
    if (r < 0) {
        mmm__big_free(topo);
        return r;
    }
    pv->topo = topo;
    p->topo = topo;
    return 0;
}

int mmm_program_finalize(mmm_program *p, mmm_error *err)
{
    int r = mmm__program_check_open(p, err);
    if (r < 0)
        return r;
    struct mmm_program_priv *pv = p->priv;
    for (size_t i = 0; i < p->nkernels; i++)
        if (pv->kernels[i].nclasses == 0 &&
            pv->kernel_ext[i].copy == MMM_COPY_NONE)
            return mmm_error_set(err, MMM_EINPUT, p->file,
                                 pv->kernels[i].line,
                                 "kernel '%s' has no blocks (give blocks=... "
                                 "or <blocks> children)",
                                 pv->kernels[i].id);
    if ((r = resolve_pending(p, err)) < 0 || (r = build_csr(p, err)) < 0 ||
        (r = build_topo(p, err)) < 0)
        return r;
    /* The dedupe table is not needed any more: the entries stay. */
    free(pv->expr_slots);
    pv->expr_slots = NULL;
    pv->expr_slots_cap = 0;
    mmm__program_sync_views(p);
    p->finalized = 1;
    return 0;
}
