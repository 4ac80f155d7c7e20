/* antichain_prev.c: the minimum flow that computed K before the
 * incremental one of src/analysis/antichain.c (greedy start, then Dinic on the
 * implicit residual network), kept for the tests only: they compare the
 * two on DAGs too large for brute force.  The library's earlier version
 * also had a mirrored phase that searched from S backwards; it was an
 * optimisation only (the level graph is the same), and this copy keeps
 * the phase from T alone.
 *
 * The network: node v is split into v_in -> v_out with lower bound w(v),
 * every other arc is unbounded; the flow that sends w(v) along
 * s -> v_in -> v_out -> t is feasible, and the minimum flow, which equals
 * the largest antichain (Dilworth), is Σw minus a maximum flow from t to s
 * in its residual network.  Unbounded arcs are never saturated, so the
 * residual network is implicit: only flows are stored.
 */
#include <stdlib.h>
#include <string.h>

#include "antichain_prev.h"
#include "model/program_internal.h"

#define NONE UINT32_MAX

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

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

/* Predecessor lists of the CSR (duplicates kept, increasing), in s->own_*,
 * and pedge: for each predecessor entry u of x, the position of x in u's
 * successor list (where the flow on u -> x is kept). */
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
        for (uint32_t j = s->ss[u]; j < s->ss[u + 1]; j++) {
            uint32_t at = cur[s->succ[j]]++;
            pt[at] = u;
            s->pedge[at] = j;
        }
    return 0;
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

int prev_antichain_flow(int64_t *out, size_t n, const int64_t *w,
                        const uint32_t *ss, const uint32_t *succ,
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
    if (flow_alloc(&s, n, ss[n]) < 0 || flow_preds(&s) < 0) {
        flow_free(&s);
        return nomem(err);
    }
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
        flow_phase(&s, &flow);
    }
    *out = sum - flow;
    flow_free(&s);
    return 0;
}
