/* sp_plan.c: the largest weighted antichain of a series-parallel DAG.
 *
 * Series-parallel reduction (Valdes, Tarjan, Lawler 1982) of the
 * two-terminal graph (a virtual source before the sources, a virtual sink
 * after the sinks).  Each edge carries the largest antichain of the nodes
 * folded into it: a series reduction of x (a -> x -> b) gives
 * max(A, w(x), B), a parallel reduction of two a -> b edges gives A + B.
 * The reductions are recorded as a plan that depends on the structure
 * only, so that K for new weights costs one O(nodes + edges) replay.  Not
 * recursive: a 10^6-deep DAG must not overflow the stack.  A DAG that does
 * not reduce gets its K from the minimum flow (antichain.c).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/antichain.h"
#include "base/bigalloc.h"
#include "base/grow.h"

#define NONE UINT32_MAX

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

typedef struct sp_state {
    size_t nn;                  /* nodes: n kernels + source + sink */
    uint32_t src, snk;
    uint32_t *tail, *head;      /* by edge; tail NONE when dead */
    uint32_t *onext, *inext;    /* singly linked lists, lazily pruned */
    uint32_t *ohead, *ihead;    /* by node */
    uint32_t *outdeg, *indeg;   /* live degrees */
    uint32_t *slots;            /* (tail, head) -> edge + 1 */
    size_t cap;
    uint32_t *work;             /* nodes that may have in = out = 1 */
    size_t nwork, work_cap;
    size_t nalive;
    mmm__sp_plan *plan;
    size_t ops_cap;
} sp_state;

static size_t pair_hash(uint32_t a, uint32_t b, size_t mask)
{
    uint64_t h = (uint64_t)a << 32 | b; /* splitmix64's finalizer */
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    h ^= h >> 31;
    return (size_t)h & mask;
}

/* The table is never pruned: an edge that dies or changes ends leaves a
 * stale slot, which can never match a query, since a slot matches only
 * when its edge's current ends are the ones asked for.  So it has room for
 * every insertion: the first edges and one per series reduction. */
static void pair_insert(sp_state *s, uint32_t e)
{
    size_t mask = s->cap - 1;
    size_t i = pair_hash(s->tail[e], s->head[e], mask);
    while (s->slots[i])
        i = (i + 1) & mask;
    s->slots[i] = e + 1;
}

/* The live edge a -> b other than e, or NONE after inserting e (a -> b). */
static uint32_t pair_find_or_insert(sp_state *s, uint32_t a, uint32_t b,
                                    uint32_t e)
{
    size_t mask = s->cap - 1;
    for (size_t i = pair_hash(a, b, mask);; i = (i + 1) & mask) {
        uint32_t f = s->slots[i];
        if (!f) {
            s->slots[i] = e + 1;
            return NONE;
        }
        if (f - 1 != e && s->tail[f - 1] == a && s->head[f - 1] == b)
            return f - 1;
    }
}

static int push_work(sp_state *s, uint32_t v)
{
    if (v >= s->src || s->indeg[v] != 1 || s->outdeg[v] != 1)
        return 0;
    uint32_t *w = mmm__grow(s->work, &s->work_cap, s->nwork + 1, sizeof *w, 64);
    if (!w)
        return MMM_ENOMEM;
    s->work = w;
    s->work[s->nwork++] = v;
    return 0;
}

static int add_op(sp_state *s, uint32_t a, uint32_t b, uint32_t x)
{
    mmm__sp_plan *pl = s->plan;
    mmm__sp_op *o = mmm__grow(pl->ops, &s->ops_cap, pl->nops + 1, sizeof *o, 64);
    if (!o)
        return MMM_ENOMEM;
    pl->ops = o;
    pl->ops[pl->nops].a = a;
    pl->ops[pl->nops].b = b;
    pl->ops[pl->nops].x = x;
    pl->nops++;
    return 0;
}

static void add_edge(sp_state *s, uint32_t e, uint32_t a, uint32_t b)
{
    s->tail[e] = a;
    s->head[e] = b;
    s->onext[e] = s->ohead[a];
    s->ohead[a] = e;
    s->inext[e] = s->ihead[b];
    s->ihead[b] = e;
    s->outdeg[a]++;
    s->indeg[b]++;
    pair_insert(s, e);
}

/* The live edge of a list (the node has exactly one). */
static uint32_t live_edge(const sp_state *s, uint32_t e, const uint32_t *next,
                          const uint32_t *end, uint32_t v)
{
    while (s->tail[e] == NONE || end[e] != v)
        e = next[e];
    return e;
}

/* Series reduction of x (a -> x -> b), then a parallel one if a -> b
 * existed already. */
static int reduce_series(sp_state *s, uint32_t x)
{
    uint32_t e1 = live_edge(s, s->ihead[x], s->inext, s->head, x);
    uint32_t e2 = live_edge(s, s->ohead[x], s->onext, s->tail, x);
    uint32_t a = s->tail[e1], b = s->head[e2];
    int r;
    if ((r = add_op(s, e1, e2, x)) < 0)
        return r;
    s->tail[e2] = NONE;
    s->nalive--;
    s->indeg[x] = s->outdeg[x] = 0;
    /* e1 becomes a -> b: it stays in a's out-list, moves to b's in-list. */
    s->head[e1] = b;
    s->inext[e1] = s->ihead[b];
    s->ihead[b] = e1;
    uint32_t e3 = pair_find_or_insert(s, a, b, e1);
    if (e3 == NONE)
        return 0;
    if ((r = add_op(s, e3, e1, NONE)) < 0)
        return r;
    s->tail[e1] = NONE;
    s->nalive--;
    s->outdeg[a]--;
    s->indeg[b]--;
    if ((r = push_work(s, a)) < 0 || (r = push_work(s, b)) < 0)
        return r;
    return 0;
}

static void sp_free(sp_state *s)
{
    mmm__big_free(s->tail), mmm__big_free(s->head);
    mmm__big_free(s->onext), mmm__big_free(s->inext);
    mmm__big_free(s->ohead), mmm__big_free(s->ihead);
    mmm__big_free(s->outdeg), mmm__big_free(s->indeg);
    mmm__big_free(s->slots), free(s->work);
}

static int sp_alloc(sp_state *s, size_t n, size_t ne)
{
    s->nn = n + 2;
    s->src = (uint32_t)n;
    s->snk = (uint32_t)n + 1;
    s->cap = 64;
    while (s->cap < 2 * (ne + n))
        s->cap *= 2;
    s->tail = mmm__big_malloc(ne * sizeof *s->tail);
    s->head = mmm__big_malloc(ne * sizeof *s->head);
    s->onext = mmm__big_malloc(ne * sizeof *s->onext);
    s->inext = mmm__big_malloc(ne * sizeof *s->inext);
    s->ohead = mmm__big_malloc(s->nn * sizeof *s->ohead);
    s->ihead = mmm__big_malloc(s->nn * sizeof *s->ihead);
    s->outdeg = mmm__big_calloc(s->nn, sizeof *s->outdeg);
    s->indeg = mmm__big_calloc(s->nn, sizeof *s->indeg);
    s->slots = mmm__big_calloc(s->cap, sizeof *s->slots);
    if (!s->tail || !s->head || !s->onext || !s->inext || !s->ohead ||
        !s->ihead || !s->outdeg || !s->indeg || !s->slots)
        return MMM_ENOMEM;
    memset(s->ohead, 0xff, s->nn * sizeof *s->ohead);
    memset(s->ihead, 0xff, s->nn * sizeof *s->ihead);
    return 0;
}

static int sp_run(sp_state *s, size_t n, const uint32_t *ss,
                  const uint32_t *succ)
{
    uint32_t e = 0;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = ss[u]; j < ss[u + 1]; j++)
            add_edge(s, e++, u, succ[j]);
    for (uint32_t v = 0; v < n; v++) {
        if (!s->indeg[v])
            add_edge(s, e++, s->src, v);
        if (ss[v] == ss[v + 1])
            add_edge(s, e++, v, s->snk);
    }
    s->nalive = e;
    s->plan->nvals = e;
    int r;
    for (uint32_t v = 0; v < n; v++)
        if ((r = push_work(s, v)) < 0)
            return r;
    while (s->nwork) {
        uint32_t x = s->work[--s->nwork];
        if (s->indeg[x] == 1 && s->outdeg[x] == 1 &&
            (r = reduce_series(s, x)) < 0)
            return r;
    }
    if (s->nalive == 1) {
        uint32_t last = live_edge(s, s->ohead[s->src], s->onext, s->tail,
                                  s->src);
        s->plan->is_sp = s->head[last] == s->snk;
        s->plan->final_edge = last;
    }
    return 0;
}

int mmm__sp_plan_build(mmm__sp_plan *plan, size_t n, const uint32_t *ss,
                       const uint32_t *succ, mmm_error *err)
{
    memset(plan, 0, sizeof *plan);
    if (n == 0) {
        plan->is_sp = 1;
        plan->final_edge = NONE;
        return 0;
    }
    size_t ne = ss[n] + 2 * n;
    if (n > UINT32_MAX - 3 || ne >= UINT32_MAX / 2)
        return 0; /* too large for 32-bit edge ids: the flow will do */
    /* A simple two-terminal series-parallel graph on N nodes has at most
     * 2N - 3 edges (its treewidth is 2): a denser DAG fails for sure. */
    size_t ends = 0;
    for (size_t v = 0; v < n; v++)
        ends += ss[v] == ss[v + 1];
    if (ss[n] + ends + 1 > 2 * (n + 2) - 3)
        return 0;
    sp_state s;
    memset(&s, 0, sizeof s);
    s.plan = plan;
    int r = sp_alloc(&s, n, ne);
    if (r == 0)
        r = sp_run(&s, n, ss, succ);
    sp_free(&s);
    if (r < 0 || !plan->is_sp) {
        /* A failed reduction leaves no plan: free it now. */
        free(plan->ops);
        plan->ops = NULL;
        plan->nops = 0;
        if (r < 0)
            return nomem(err);
        return 0;
    }
    if (plan->nops) { /* trim */
        mmm__sp_op *o = realloc(plan->ops, plan->nops * sizeof *o);
        if (o)
            plan->ops = o;
    }
    return 0;
}

void mmm__sp_plan_dispose(mmm__sp_plan *plan)
{
    if (plan) {
        free(plan->ops);
        memset(plan, 0, sizeof *plan);
    }
}

int mmm__sp_plan_eval(int64_t *out, const mmm__sp_plan *plan,
                      const int64_t *w, mmm_error *err)
{
    *out = 0;
    if (plan->final_edge == NONE)
        return 0;
    int64_t *val = mmm__big_calloc(plan->nvals ? plan->nvals : 1, sizeof *val);
    if (!val)
        return nomem(err);
    for (size_t i = 0; i < plan->nops; i++) {
        const mmm__sp_op *o = &plan->ops[i];
        if (o->x == NONE) {
            val[o->a] += val[o->b]; /* bounded by Σw, checked by callers */
        } else {
            int64_t v = val[o->a];
            if (w[o->x] > v)
                v = w[o->x];
            if (val[o->b] > v)
                v = val[o->b];
            val[o->a] = v;
        }
    }
    *out = val[plan->final_edge];
    mmm__big_free(val);
    return 0;
}
