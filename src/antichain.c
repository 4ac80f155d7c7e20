/* antichain.c: the largest weighted antichain of a DAG (K of the MMM).
 *
 * Two methods, neither recursive (a 10^6-deep DAG must not overflow the
 * stack):
 *  - series-parallel reduction (Valdes, Tarjan, Lawler 1982) of the
 *    two-terminal graph (a virtual source before the sources, a virtual
 *    sink after the sinks).  Each edge carries the largest antichain of the
 *    nodes folded into it: a series reduction of x (a -> x -> b) gives
 *    max(A, w(x), B), a parallel reduction of two a -> b edges gives A + B.
 *    The reductions are recorded as a plan that depends on the structure
 *    only, so that K for new weights costs one O(nodes + edges) replay.
 *  - otherwise a minimum flow with lower bounds (Dilworth): node v is split
 *    into v_in -> v_out with lower bound w(v), every other arc is
 *    unbounded; the flow that sends w(v) along s -> v_in -> v_out -> t is
 *    feasible, and the minimum flow, which equals the largest antichain, is
 *    Σw minus a maximum flow from t to s in its residual network (Dinic,
 *    after a greedy start).  Unbounded arcs are never saturated, so the
 *    residual network is implicit: only flows are stored.
 */
#include <stdlib.h>
#include <string.h>

#include "program_internal.h"

#define NONE UINT32_MAX

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Series-parallel plan                                                */

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
    mmm_sp_plan *plan;
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
    if (s->nwork == s->work_cap) {
        size_t cap = s->work_cap * 2 + 64;
        uint32_t *w = realloc(s->work, cap * sizeof *w);
        if (!w)
            return MMM_ENOMEM;
        s->work = w;
        s->work_cap = cap;
    }
    s->work[s->nwork++] = v;
    return 0;
}

static int add_op(sp_state *s, uint32_t a, uint32_t b, uint32_t x)
{
    mmm_sp_plan *pl = s->plan;
    if (pl->nops == s->ops_cap) {
        size_t cap = s->ops_cap * 2 + 64;
        mmm_sp_op *o = realloc(pl->ops, cap * sizeof *o);
        if (!o)
            return MMM_ENOMEM;
        pl->ops = o;
        s->ops_cap = cap;
    }
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

int mmm__sp_plan_build(mmm_sp_plan *plan, size_t n, const uint32_t *ss,
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
        mmm_sp_op *o = realloc(plan->ops, plan->nops * sizeof *o);
        if (o)
            plan->ops = o;
    }
    return 0;
}

void mmm__sp_plan_dispose(mmm_sp_plan *plan)
{
    if (plan) {
        free(plan->ops);
        memset(plan, 0, sizeof *plan);
    }
}

int mmm__sp_plan_eval(int64_t *out, const mmm_sp_plan *plan,
                      const int64_t *w, mmm_error *err)
{
    *out = 0;
    if (plan->final_edge == NONE)
        return 0;
    int64_t *val = mmm__big_calloc(plan->nvals ? plan->nvals : 1, sizeof *val);
    if (!val)
        return nomem(err);
    for (size_t i = 0; i < plan->nops; i++) {
        const mmm_sp_op *o = &plan->ops[i];
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

/* ------------------------------------------------------------------ */
/* Minimum flow (Dinic on the implicit residual network)               */

/* Nodes: out(v) = 2v, in(v) = 2v + 1, plus the virtual T (flow source,
 * the original sink) and S.  Arcs, with their residual capacities:
 *   T -> out(v)        rt[v]     (what v may still end)
 *   out(u) -> in(x)    unbounded (DAG edge u -> x; f[e] is its flow)
 *   out(v) -> in(v)    pf[v]     (undoing pass-through flow)
 *   in(v) -> S         rs[v]     (what v may still start)
 *   in(v) -> out(v)    unbounded (passing through v once more)
 *   in(x) -> out(u)    f[e]      (undoing flow on u -> x)
 * The arcs of out(v) are numbered: succ 0..d+-1, then the reverse pass;
 * those of in(v): S 0, the pass 1, preds 2..d-+1.
 *
 * Each phase of Dinic labels the nodes by a bidirectional breadth-first
 * search: from T (distance from T) and from S (distance to S), always
 * growing the smaller frontier, until the two meet on a shortest path.
 * When the work left is local (late phases: a few chains to reroute in one
 * region of a large DAG) the side that starts there stays small, so a
 * phase costs what that region costs, not the whole graph.  All per-node
 * marks are stamped with the phase number: nothing is cleared.  The marks
 * of a node are kept together (label, walk), and those of out(v) and in(v)
 * side by side: a phase touches one cache line per node, not one per
 * array. */

#define INF INT64_MAX
#define TO_S (UINT32_MAX - 1) /* distinct from NONE */
#define FROM_T (UINT32_MAX - 2)

/* The labels of a node in the current phase. */
typedef struct flow_label {
    uint32_t st_t, st_s; /* phase stamps of dt, ds */
    int32_t dt, ds;      /* distance from T, to S */
} flow_label;

/* The depth-first search of a phase at a node. */
typedef struct flow_walk {
    uint32_t st_v;    /* stamp: visited (it is valid) */
    uint32_t st_dead; /* stamp: a dead end */
    uint32_t it;      /* current arc */
} flow_walk;

typedef struct flow_state {
    size_t n;
    const uint32_t *ss, *succ;
    const uint32_t *ps, *ptail;   /* predecessor lists */
    uint32_t *own_ps, *own_ptail; /* ... when built here */
    uint32_t *pedge;              /* position in succ of each pred entry */
    int64_t *f, *pf, *rt, *rs;
    flow_label *lab;              /* by node */
    flow_walk *wk;                /* by node */
    uint32_t *qf, *qb, *stk;      /* stk shares qf (see flow_alloc) */
    uint32_t *ends, *starts;      /* v with rt > 0, x with rs > 0 */
    size_t nends, nstarts;
    uint32_t stamp;
    int32_t D;                    /* length of a shortest path T -> S */
    size_t nt, ns;                /* nodes labeled from T, from S */
} flow_state;

static uint32_t arc_count(const flow_state *s, uint32_t u)
{
    uint32_t v = u >> 1;
    if (u & 1)
        return s->ps[v + 1] - s->ps[v] + 2;
    return s->ss[v + 1] - s->ss[v] + 1;
}

/* Target and residual capacity of arc k of node u. */
static uint32_t arc(const flow_state *s, uint32_t u, uint32_t k, int64_t *cap)
{
    uint32_t v = u >> 1;
    if (!(u & 1)) {
        uint32_t d = s->ss[v + 1] - s->ss[v];
        if (k < d) {
            *cap = INF;
            return 2 * s->succ[s->ss[v] + k] + 1;
        }
        *cap = s->pf[v];
        return u + 1;
    }
    if (k == 0) {
        *cap = s->rs[v];
        return TO_S;
    }
    if (k == 1) {
        *cap = INF;
        return u - 1;
    }
    uint32_t j = s->ps[v] + k - 2;
    *cap = s->f[s->pedge[j]];
    return 2 * s->ptail[j];
}

static void arc_push(flow_state *s, uint32_t u, uint32_t k, int64_t b)
{
    uint32_t v = u >> 1;
    if (!(u & 1)) {
        uint32_t d = s->ss[v + 1] - s->ss[v];
        if (k < d)
            s->f[s->ss[v] + k] += b;
        else
            s->pf[v] -= b;
    } else if (k == 0) {
        s->rs[v] -= b;
    } else if (k == 1) {
        s->pf[v] += b;
    } else {
        s->f[s->pedge[s->ps[v] + k - 2]] -= b;
    }
}

/* The residual arcs into y, numbered: into in(v): preds 0..d--1, then the
 * reverse pass; into out(v): from T 0, the pass 1, succs 2..d++1. */
static uint32_t rarc_count(const flow_state *s, uint32_t y)
{
    uint32_t v = y >> 1;
    if (y & 1)
        return s->ps[v + 1] - s->ps[v] + 1;
    return s->ss[v + 1] - s->ss[v] + 2;
}

/* Source and residual capacity of arc k into y. */
static uint32_t rarc(const flow_state *s, uint32_t y, uint32_t k,
                     int64_t *cap)
{
    uint32_t v = y >> 1;
    if (y & 1) {
        uint32_t d = s->ps[v + 1] - s->ps[v];
        if (k < d) {
            *cap = INF;
            return 2 * s->ptail[s->ps[v] + k];
        }
        *cap = s->pf[v];
        return y - 1;
    }
    if (k == 0) {
        *cap = s->rt[v];
        return FROM_T;
    }
    if (k == 1) {
        *cap = INF;
        return y + 1;
    }
    uint32_t j = s->ss[v] + k - 2;
    *cap = s->f[j];
    return 2 * s->succ[j] + 1;
}

static void rarc_push(flow_state *s, uint32_t y, uint32_t k, int64_t b)
{
    uint32_t v = y >> 1;
    if (y & 1) {
        uint32_t d = s->ps[v + 1] - s->ps[v];
        if (k < d)
            s->f[s->pedge[s->ps[v] + k]] += b;
        else
            s->pf[v] -= b;
    } else if (k == 0) {
        s->rt[v] -= b;
    } else if (k == 1) {
        s->pf[v] += b;
    } else {
        s->f[s->ss[v] + k - 2] -= b;
    }
}

/* Record a meeting of the two searches at node w. */
static void meet(const flow_state *s, uint32_t w, int32_t *best)
{
    const flow_label *l = &s->lab[w];
    if (l->st_t == s->stamp && l->st_s == s->stamp && l->dt + l->ds < *best)
        *best = l->dt + l->ds;
}

static void label_t(flow_state *s, uint32_t w, int32_t d, size_t *qt,
                    int32_t *best)
{
    flow_label *l = &s->lab[w];
    if (l->st_t == s->stamp)
        return;
    l->st_t = s->stamp;
    l->dt = d;
    s->qf[(*qt)++] = w;
    meet(s, w, best);
}

static void label_s(flow_state *s, uint32_t w, int32_t d, size_t *qt,
                    int32_t *best)
{
    flow_label *l = &s->lab[w];
    if (l->st_s == s->stamp)
        return;
    l->st_s = s->stamp;
    l->ds = d;
    s->qb[(*qt)++] = w;
    meet(s, w, best);
}

/* Expand one level from T: the nodes qf[*h..*t), all at distance d. */
static void grow_t(flow_state *s, size_t *h, size_t *t, int32_t d,
                   int32_t *best)
{
    size_t end = *t;
    for (; *h < end; (*h)++) {
        uint32_t u = s->qf[*h], na = arc_count(s, u);
        for (uint32_t k = 0; k < na; k++) {
            int64_t cap;
            uint32_t w = arc(s, u, k, &cap);
            if (cap > 0 && w != TO_S)
                label_t(s, w, d + 1, t, best);
        }
    }
}

/* Expand one level towards S: the residual arcs into qb[*h..*t). */
static void grow_s(flow_state *s, size_t *h, size_t *t, int32_t d,
                   int32_t *best)
{
    size_t end = *t;
    for (; *h < end; (*h)++) {
        uint32_t y = s->qb[*h], v = y >> 1;
        if (y & 1) { /* into in(v): out(u) for each pred u, out(v) */
            for (uint32_t j = s->ps[v]; j < s->ps[v + 1]; j++)
                label_s(s, 2 * s->ptail[j], d + 1, t, best);
            if (s->pf[v] > 0)
                label_s(s, y - 1, d + 1, t, best);
        } else { /* into out(v): in(v), in(x) for succ x carrying flow */
            label_s(s, y + 1, d + 1, t, best);
            for (uint32_t j = s->ss[v]; j < s->ss[v + 1]; j++)
                if (s->f[j] > 0)
                    label_s(s, 2 * s->succ[j] + 1, d + 1, t, best);
        }
    }
}

/* Drop the ends and starts that are used up. */
static void compact_lists(flow_state *s)
{
    size_t w = 0;
    for (size_t i = 0; i < s->nends; i++)
        if (s->rt[s->ends[i]] > 0)
            s->ends[w++] = s->ends[i];
    s->nends = w;
    w = 0;
    for (size_t i = 0; i < s->nstarts; i++)
        if (s->rs[s->starts[i]] > 0)
            s->starts[w++] = s->starts[i];
    s->nstarts = w;
}

/* Label the nodes of a new phase; returns 1 when S is reachable. */
static int flow_levels(flow_state *s)
{
    size_t fh = 0, ft = 0, bh = 0, bt = 0;
    int32_t a = 1, b = 1, best = INT32_MAX;
    compact_lists(s);
    s->stamp++;
    for (size_t i = 0; i < s->nends; i++)
        label_t(s, 2 * s->ends[i], 1, &ft, &best);
    for (size_t i = 0; i < s->nstarts; i++)
        label_s(s, 2 * s->starts[i] + 1, 1, &bt, &best);
    while (best > a + b && fh < ft && bh < bt) {
        if (ft - fh <= bt - bh)
            grow_t(s, &fh, &ft, a++, &best);
        else
            grow_s(s, &bh, &bt, b++, &best);
    }
    s->D = best;
    s->nt = ft;
    s->ns = bt;
    return best != INT32_MAX;
}

/* Level of node v in this phase (-1: not on a shortest path). */
static int32_t level(const flow_state *s, uint32_t v)
{
    const flow_label *l = &s->lab[v];
    if (l->st_t == s->stamp)
        return l->dt;
    if (l->st_s == s->stamp)
        return s->D - l->ds;
    return -1;
}

/* The first admissible arc of u from it[u] on; its target or NONE. */
static uint32_t flow_advance(flow_state *s, uint32_t u, int32_t lu)
{
    uint32_t na = arc_count(s, u);
    for (uint32_t k = s->wk[u].it; k < na; k++) {
        int64_t cap;
        uint32_t t = arc(s, u, k, &cap);
        if (cap <= 0)
            continue;
        if (t == TO_S ? lu + 1 == s->D
                      : lu + 1 < s->D && s->wk[t].st_dead != s->stamp &&
                            level(s, t) == lu + 1) {
            s->wk[u].it = k;
            return t;
        }
    }
    s->wk[u].it = na;
    return NONE;
}

/* Augment along the stack (T -> stk[0] -> ... -> stk[top-1] -> S) and
 * return the new stack height: up to the first saturated arc. */
static size_t flow_augment(flow_state *s, size_t top, int64_t *total)
{
    uint32_t v0 = s->stk[0] >> 1;
    int64_t b = s->rt[v0], cap;
    for (size_t i = 0; i < top; i++) {
        arc(s, s->stk[i], s->wk[s->stk[i]].it, &cap);
        if (cap < b)
            b = cap;
    }
    s->rt[v0] -= b;
    for (size_t i = 0; i < top; i++)
        arc_push(s, s->stk[i], s->wk[s->stk[i]].it, b);
    *total += b;
    if (s->rt[v0] == 0)
        return 0;
    for (size_t i = 0; i < top; i++) {
        arc(s, s->stk[i], s->wk[s->stk[i]].it, &cap);
        if (cap == 0)
            return i + 1;
    }
    return top; /* not reached: some arc saturated */
}

static void visit(flow_state *s, uint32_t u)
{
    if (s->wk[u].st_v != s->stamp) {
        s->wk[u].st_v = s->stamp;
        s->wk[u].it = 0;
    }
}

/* One blocking flow on the level graph, one path at a time, iterative:
 * a depth-first search with current-arc pointers from each end. */
static void flow_phase(flow_state *s, int64_t *total)
{
    for (size_t e = 0; e < s->nends; e++) {
        uint32_t r = 2 * s->ends[e];
        size_t top = 0;
        while (s->rt[r >> 1] > 0 && s->wk[r].st_dead != s->stamp) {
            if (top == 0) {
                visit(s, r);
                s->stk[top++] = r;
            }
            uint32_t u = s->stk[top - 1];
            uint32_t t = flow_advance(s, u, level(s, u));
            if (t == NONE) {
                s->wk[u].st_dead = s->stamp; /* prune it for this phase */
                if (--top > 0)
                    s->wk[s->stk[top - 1]].it++;
            } else if (t == TO_S) {
                top = flow_augment(s, top, total);
            } else {
                visit(s, t);
                s->stk[top++] = t;
            }
        }
    }
}

/* The same from S backwards, along the arcs into each node: used when
 * the search from S labeled more nodes than the one from T, since every
 * step into a node labeled from T is then sure to lead to T. */
static uint32_t flow_advance_rev(flow_state *s, uint32_t y, int32_t ly)
{
    uint32_t na = rarc_count(s, y);
    for (uint32_t k = s->wk[y].it; k < na; k++) {
        int64_t cap;
        uint32_t z = rarc(s, y, k, &cap);
        if (cap <= 0)
            continue;
        if (z == FROM_T ? ly == 1
                        : ly > 1 && s->wk[z].st_dead != s->stamp &&
                              level(s, z) == ly - 1) {
            s->wk[y].it = k;
            return z;
        }
    }
    s->wk[y].it = na;
    return NONE;
}

static size_t flow_augment_rev(flow_state *s, size_t top, int64_t *total)
{
    uint32_t x0 = s->stk[0] >> 1;
    int64_t b = s->rs[x0], cap;
    for (size_t i = 0; i < top; i++) {
        rarc(s, s->stk[i], s->wk[s->stk[i]].it, &cap);
        if (cap < b)
            b = cap;
    }
    s->rs[x0] -= b;
    for (size_t i = 0; i < top; i++)
        rarc_push(s, s->stk[i], s->wk[s->stk[i]].it, b);
    *total += b;
    if (s->rs[x0] == 0)
        return 0;
    for (size_t i = 0; i < top; i++) {
        rarc(s, s->stk[i], s->wk[s->stk[i]].it, &cap);
        if (cap == 0)
            return i + 1;
    }
    return top;
}

static void flow_phase_rev(flow_state *s, int64_t *total)
{
    for (size_t e = 0; e < s->nstarts; e++) {
        uint32_t r = 2 * s->starts[e] + 1;
        size_t top = 0;
        if (level(s, r) != s->D - 1)
            continue;
        while (s->rs[r >> 1] > 0 && s->wk[r].st_dead != s->stamp) {
            if (top == 0) {
                visit(s, r);
                s->stk[top++] = r;
            }
            uint32_t y = s->stk[top - 1];
            uint32_t z = flow_advance_rev(s, y, level(s, y));
            if (z == NONE) {
                s->wk[y].st_dead = s->stamp;
                if (--top > 0)
                    s->wk[s->stk[top - 1]].it++;
            } else if (z == FROM_T) {
                top = flow_augment_rev(s, top, total);
            } else {
                visit(s, z);
                s->stk[top++] = z;
            }
        }
    }
}

/* Greedy start, two passes.  (1) A chain ending at u continues into a
 * direct successor x that still starts chains.  (2) For each u that still
 * ends chains, in reverse index order, a bounded breadth-first search among
 * its descendants finds kernels that still start chains, and the chain
 * goes on to them through the kernels between (pass-through flow). */
#define GREEDY_BUDGET 64

static void flow_greedy_direct(flow_state *s, int64_t *total)
{
    for (uint32_t u = 0; u < s->n; u++)
        for (uint32_t j = s->ss[u]; j < s->ss[u + 1] && s->rt[u] > 0; j++) {
            uint32_t x = s->succ[j];
            int64_t d = s->rt[u] < s->rs[x] ? s->rt[u] : s->rs[x];
            if (d > 0) {
                s->f[j] += d;
                s->rt[u] -= d;
                s->rs[x] -= d;
                *total += d;
            }
        }
}

/* Pass (2); mark[] (zero at first) stamps the nodes seen from u, from[x]
 * and via[x] are the node and edge position x was reached by. */
static void flow_greedy_descend(flow_state *s, int64_t *total, uint32_t *mark,
                                uint32_t *from, uint32_t *via, uint32_t *q)
{
    uint32_t stamp = 0;
    for (uint32_t u = (uint32_t)s->n; u-- > 0;) {
        if (s->rt[u] == 0)
            continue;
        size_t qh = 0, qt = 0;
        mark[u] = ++stamp;
        q[qt++] = u;
        while (qh < qt && s->rt[u] > 0) {
            uint32_t y = q[qh++];
            for (uint32_t j = s->ss[y]; j < s->ss[y + 1] && s->rt[u] > 0;
                 j++) {
                uint32_t x = s->succ[j];
                if (mark[x] == stamp)
                    continue;
                mark[x] = stamp;
                from[x] = y;
                via[x] = j;
                if (s->rs[x] > 0) {
                    int64_t d = s->rt[u] < s->rs[x] ? s->rt[u] : s->rs[x];
                    s->rt[u] -= d;
                    s->rs[x] -= d;
                    *total += d;
                    for (uint32_t z = x; z != u; z = from[z]) {
                        s->f[via[z]] += d;
                        if (from[z] != u)
                            s->pf[from[z]] += d;
                    }
                }
                if (qt < GREEDY_BUDGET)
                    q[qt++] = x;
            }
        }
    }
}

/* The greedy passes run before the phases and borrow their queues, so as
 * not to raise the peak memory: qb (zeroed) holds the marks and from, qf
 * holds via. */
static void flow_greedy(flow_state *s, int64_t *total)
{
    uint32_t q[GREEDY_BUDGET];
    flow_greedy_direct(s, total);
    flow_greedy_descend(s, total, s->qb, s->qb + s->n, s->qf, q);
}

static void flow_free(flow_state *s)
{
    void *arrays[] = {s->own_ps, s->own_ptail, s->pedge, s->f,
                      s->pf,     s->rt,        s->rs,    s->lab,
                      s->wk,     s->qf,        s->qb,    s->ends,
                      s->starts};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        mmm__big_free(arrays[i]);
}

/* Predecessor lists of the CSR (duplicates kept), in s->own_*. */
static int flow_preds(flow_state *s)
{
    size_t n = s->n, m = s->ss[n];
    uint32_t *ps = mmm__big_calloc(n + 1, sizeof *ps);
    uint32_t *pt = mmm__big_malloc((m ? m : 1) * sizeof *pt);
    s->own_ps = ps, s->own_ptail = pt;
    s->ps = ps, s->ptail = pt;
    if (!ps || !pt)
        return MMM_ENOMEM;
    for (size_t j = 0; j < m; j++)
        ps[s->succ[j] + 1]++;
    for (size_t v = 0; v < n; v++)
        ps[v + 1] += ps[v];
    uint32_t *cur = s->qf; /* a scratch cursor */
    memcpy(cur, ps, n * sizeof *cur);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = s->ss[u]; j < s->ss[u + 1]; j++)
            pt[cur[s->succ[j]]++] = u;
    return 0;
}

/* pedge: for each predecessor entry u of x, the position of x in u's
 * successor list (where the flow on u -> x is kept).  The predecessor
 * lists are in increasing u, like the walk below. */
static void flow_pedges(flow_state *s)
{
    uint32_t *cur = s->qf; /* a scratch cursor */
    memcpy(cur, s->ps, s->n * sizeof *cur);
    for (uint32_t u = 0; u < s->n; u++)
        for (uint32_t j = s->ss[u]; j < s->ss[u + 1]; j++)
            s->pedge[cur[s->succ[j]]++] = j;
}

static int flow_alloc(flow_state *s, size_t n, size_t m)
{
    size_t m1 = m ? m : 1, n2 = 2 * n;
    s->pedge = mmm__big_malloc(m1 * sizeof *s->pedge);
    s->f = mmm__big_calloc(m1, sizeof *s->f);
    s->pf = mmm__big_calloc(n, sizeof *s->pf);
    s->rt = mmm__big_malloc(n * sizeof *s->rt);
    s->rs = mmm__big_malloc(n * sizeof *s->rs);
    s->lab = mmm__big_calloc(n2, sizeof *s->lab);
    s->wk = mmm__big_calloc(n2, sizeof *s->wk);
    /* The path stack of a phase (at most 2n nodes and S) reuses the queue
     * of the labeling, which is done by then. */
    s->qf = mmm__big_malloc((n2 + 1) * sizeof *s->qf);
    s->stk = s->qf;
    s->qb = mmm__big_calloc(n2, sizeof *s->qb); /* zero: see flow_greedy */
    s->ends = mmm__big_malloc(n * sizeof *s->ends);
    s->starts = mmm__big_malloc(n * sizeof *s->starts);
    if (!s->pedge || !s->f || !s->pf || !s->rt || !s->rs || !s->lab ||
        !s->wk || !s->qf || !s->qb || !s->ends || !s->starts)
        return MMM_ENOMEM;
    return 0;
}

int mmm__antichain_flow_preds(int64_t *out, size_t n, const int64_t *w,
                              const uint32_t *ss, const uint32_t *succ,
                              const uint32_t *ps, const uint32_t *pred,
                              mmm_error *err)
{
    *out = 0;
    if (n == 0)
        return 0;
    if (n > ((size_t)1 << 30)) /* levels are int32: 2n + 1 must fit */
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                             "too many kernels for the antichain flow");
    flow_state s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.ss = ss;
    s.succ = succ;
    s.ps = ps;
    s.ptail = pred;
    if (flow_alloc(&s, n, ss[n]) < 0 || (!ps && flow_preds(&s) < 0)) {
        flow_free(&s);
        return nomem(err);
    }
    flow_pedges(&s);
    int64_t sum = 0, flow = 0;
    for (size_t v = 0; v < n; v++) {
        s.rt[v] = s.rs[v] = w[v];
        sum += w[v];
    }
    flow_greedy(&s, &flow);
    /* A sink can end chains but pass none on (out(v) has no arc left but
     * the reverse pass, and nothing ever flows through a sink), a source
     * likewise can only start them: neither can be on an augmenting path,
     * so the phases leave them out (in a random DAG they are most of the
     * ends left after the greedy). */
    for (uint32_t v = 0; v < n; v++) {
        if (s.rt[v] > 0 && ss[v] != ss[v + 1])
            s.ends[s.nends++] = v;
        if (s.rs[v] > 0 && s.ps[v] != s.ps[v + 1])
            s.starts[s.nstarts++] = v;
    }
    while (flow_levels(&s)) {
        /* Start from the side that labeled fewer nodes (see above). */
        if (s.nt <= s.ns)
            flow_phase(&s, &flow);
        else
            flow_phase_rev(&s, &flow);
    }
    *out = sum - flow;
    flow_free(&s);
    return 0;
}

int mmm__antichain_flow(int64_t *out, size_t n, const int64_t *w,
                        const uint32_t *ss, const uint32_t *succ,
                        mmm_error *err)
{
    return mmm__antichain_flow_preds(out, n, w, ss, succ, NULL, NULL, err);
}

/* ------------------------------------------------------------------ */
/* Public entry                                                        */

/* CSR without duplicates from an edge list; checks ids and acyclicity. */
static int edges_to_csr(uint32_t **ss_out, uint32_t **succ_out, size_t n,
                        size_t m, const uint32_t *from, const uint32_t *to,
                        mmm_error *err)
{
    uint32_t *ss = calloc(n + 1, sizeof *ss);
    uint32_t *succ = malloc((m ? m : 1) * sizeof *succ);
    uint32_t *cur = malloc((n ? n : 1) * sizeof *cur);
    uint32_t *mark = malloc((n ? n : 1) * sizeof *mark);
    if (!ss || !succ || !cur || !mark) {
        free(ss), free(succ), free(cur), free(mark);
        return nomem(err);
    }
    for (size_t i = 0; i < m; i++)
        ss[from[i] + 1]++;
    for (size_t v = 0; v < n; v++)
        ss[v + 1] += ss[v];
    memcpy(cur, ss, n * sizeof *cur);
    for (size_t i = 0; i < m; i++)
        succ[cur[from[i]]++] = to[i];
    /* Drop duplicates with a last-seen mark per target. */
    memset(mark, 0xff, n * sizeof *mark);
    uint32_t wpos = 0;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t b = ss[u], e = ss[u + 1];
        ss[u] = wpos;
        for (uint32_t j = b; j < e; j++)
            if (mark[succ[j]] != u) {
                mark[succ[j]] = u;
                succ[wpos++] = succ[j];
            }
    }
    ss[n] = wpos;
    /* Kahn: every node must come out. */
    memset(cur, 0, n * sizeof *cur);
    for (uint32_t j = 0; j < wpos; j++)
        cur[succ[j]]++;
    size_t tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!cur[v])
            mark[tail++] = v;
    for (size_t h = 0; h < tail; h++)
        for (uint32_t j = ss[mark[h]]; j < ss[mark[h] + 1]; j++)
            if (--cur[succ[j]] == 0)
                mark[tail++] = succ[j];
    free(cur);
    free(mark);
    if (tail < n) {
        free(ss), free(succ);
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "the graph has a cycle");
    }
    *ss_out = ss;
    *succ_out = succ;
    return 0;
}

int mmm__max_antichain(int64_t *out, mmm_k_method *method_out, size_t n,
                       const int64_t *weight, size_t nedges,
                       const uint32_t *from, const uint32_t *to,
                       mmm_error *err)
{
    if (!out || (n && !weight) || (nedges && (!from || !to)))
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm__max_antichain: missing argument");
    *out = 0;
    if (method_out)
        *method_out = MMM_K_SERIES_PARALLEL;
    if (n > UINT32_MAX - 3 || nedges > UINT32_MAX / 2)
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                             "graph too large for mmm__max_antichain");
    int64_t sum = 0;
    for (size_t v = 0; v < n; v++) {
        if (weight[v] < 0)
            return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                 "negative weight of node %zu", v);
        if (weight[v] > INT64_MAX - sum)
            return mmm_error_set(err, MMM_EOVERFLOW, NULL, 0,
                                 "the total weight overflows 64 bits");
        sum += weight[v];
    }
    for (size_t i = 0; i < nedges; i++)
        if (from[i] >= n || to[i] >= n || from[i] == to[i])
            return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                                 "bad edge %zu: %u -> %u", i, from[i], to[i]);
    uint32_t *ss = NULL, *succ = NULL;
    int r = edges_to_csr(&ss, &succ, n, nedges, from, to, err);
    if (r < 0)
        return r;
    mmm_sp_plan plan;
    r = mmm__sp_plan_build(&plan, n, ss, succ, err);
    if (r == 0 && plan.is_sp) {
        r = mmm__sp_plan_eval(out, &plan, weight, err);
    } else if (r == 0) {
        if (method_out)
            *method_out = MMM_K_FLOW;
        r = mmm__antichain_flow(out, n, weight, ss, succ, err);
    }
    mmm__sp_plan_dispose(&plan);
    free(ss);
    free(succ);
    return r;
}
