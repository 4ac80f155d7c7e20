/* antichain.c: the largest weighted antichain of a DAG (K of the MMM) by a
 * minimum flow, for the DAGs that are not series-parallel (sp_plan.c), and
 * the edge-list entry mmm__max_antichain.
 *
 * The minimum flow with lower bounds (Dilworth) is Σw minus a maximum flow
 * from T to S in the residual network of the flow that sends w(v) along
 * s -> in(v) -> out(v) -> t; its arcs, implicit (only flows are stored):
 *   T -> out(v)       w(v) at first: rt[v]  (what v may still end)
 *   out(u) -> in(x)   unbounded (DAG edge u -> x; f[j] is its flow)
 *   in(v) -> out(v)   unbounded (passing through v once more)
 *   in(v) -> S        w(v) at first          (what v may still start)
 *   and the reverse arcs of the flow: in(x) -> out(u) f[j], out(v) ->
 *   in(v) pf[v] (the flow passing through v).
 * The maximum flow is built one node at a time in a topological order:
 * the greedy part, the breadth-first and the labelled searches, the
 * hand-on of free ends, dead and STUCK nodes, the memory layout, why it
 * is exact, what was tried and why this is one file: docs/model.md, §4
 * "How it is computed" (K, method 2), and the measures there.
 * tests/helpers/antichain_prev.c is the earlier algorithm, frozen as the
 * tests' independent oracle.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/antichain.h"
#include "base/bigalloc.h"
#include "base/csr.h"

#define NONE UINT32_MAX

static int nomem(mmm_error *err)
{
    return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Minimum flow                                                        */

/* Nodes of the residual network: out(v) = 2v, in(v) = 2v + 1.  Marks
 * (below 2^32 - 2: search stamps) of nodes no longer worth a search:
 * DEAD, reached by a failed breadth-first search (no free end reaches
 * them); STUCK, reached by a failed hand-on search (they reach no node
 * with successors to join, see hand_on_from). */
#define DEAD UINT32_MAX
#define STUCK (UINT32_MAX - 1)

/* Tuning (measured on the shapes of bench/gen_dag.py, docs/model.md). */
enum {
    LONG_SEARCH = 1024, /* breadth-first work per path above: long */
    CHOOSE_EVERY = 256, /* searches between two choices of the method */
    RETRY_AFTER = 64,   /* rounds before the other method is tried again
                         * (times its cost over this one's, up to
                         * RETRY_RATIO) */
    RETRY_RATIO = 64,
    LABEL_SPANS = 4,    /* the global labelling: kernels from x back
                         * this many times the longest edge */
    SAP_STEPS = 1024,   /* steps of one labelled search before it gives up */
    RELABEL_AFTER = 4,  /* search work between two global labellings, in
                         * units of the latest one's work */
    FAR_SLACK = 16,     /* labels above far + FAR_SLACK: given up */
    GREEDY_SORT = 32,   /* in-degree up to which the greedy picks */
    FS_BITS = 32,       /* successors of a kernel with a flow flag */
    PREFETCH_AHEAD = 16 /* joins between a prefetch and its join */
};

/* What a kernel v holds, together (a search touches one cache line per
 * kernel, not one per array); side 0 is out(v), side 1 in(v). */
typedef struct knode {
    int64_t rt;      /* chain ends of v still free (T -> out(v)) */
    int64_t pf;      /* flow passing through v (out(v) -> in(v)) */
    uint32_t mark[2]; /* search stamp, DEAD or STUCK */
    uint32_t left;    /* successors not joined yet */
    uint32_t fsm;     /* bit k: the edge to successor k carries flow
                       * (k < fs_bits; the others: read f) */
} knode;

/* What the labelled search keeps of a network node, together. */
typedef struct lnode {
    uint32_t lab; /* label */
    uint32_t gs;  /* the epoch of the label */
    uint32_t cur; /* current arc */
} lnode;

typedef struct kflow {
    size_t n;
    const uint32_t *ss, *succ;    /* successor lists (CSR) */
    const uint32_t *ps, *pred;    /* predecessor lists, increasing */
    uint32_t *own_ps, *own_pred;  /* ... when built here */
    uint8_t *ke;       /* by pred entry: the edge's succ slot (its
                        * position in u's list) when < fs_bits, else
                        * 0xff */
    uint32_t fs_bits;  /* FS_BITS (1 for MMM__FLOW_ONE_FLAG) */
    int succ_sorted;   /* every successor list is increasing */
    uint32_t *order;   /* a topological order (NULL: index order is one) */
    int64_t *f;        /* by edge (pred entry): its flow */
    knode *nd;
    uint32_t *q;       /* the search queue (and the global labelling's) */
    uint32_t *qp, *qe; /* by queue entry i: q[i] was reached from q[qp[i]]
                        * by the edge qe[i] (NONE: a pass arc, or an edge
                        * that edge_of finds) */
    /* The labelled search (below): */
    int mode;          /* MMM__FLOW_* */
    /* The choice of the method (adaptive): searches and paths found in
     * this round, work at its start, each method's cost per path in its
     * latest round (0: not tried) and rounds since. */
    int labelled;
    uint32_t tries, paths, since[2];
    uint64_t work0;
    double cost[2];    /* (moving averages over rounds) */
    uint32_t stk[SAP_STEPS + 2], stkj[SAP_STEPS + 2]; /* its path, and the
                        * edges (NONE: a pass arc, or found when needed) */
    lnode *ln;         /* by network node: label, its epoch, current arc
                        * (these arrays: NULL until first used) */
    uint32_t *jep;     /* by kernel: the epoch it joined in */
    uint8_t *fp;       /* by pred entry: its edge's flow is positive */
    uint32_t epoch, far; /* of the latest global labelling */
    uint32_t *ends;    /* kernels that got free ends (some may not hold
                        * any now), for the next global labelling */
    size_t nends, ends_cap;
    uint64_t work;      /* all search work: nodes reached, arcs looked at */
    uint64_t work_next; /* when the next global labelling is due */
    uint8_t *joined;   /* by kernel: it has joined */
    uint32_t stamp;
    uint32_t x;        /* the kernel joining (or the latest joined) */
    uint32_t jn;       /* kernels joined, when index order is topological */
    uint32_t span;     /* longest edge v - u when index order is
                        * topological, else 0 */
    uint32_t label_spans; /* LABEL_SPANS (1 for MMM__FLOW_NARROW) */
    uint32_t hand_budget; /* HAND_ON_BUDGET (8 for MMM__FLOW_SHORT_HAND) */
    int stuck;         /* failed hand-on searches mark STUCK (not with
                        * MMM__FLOW_NO_STUCK) */
    mmm__flow_stats *st; /* counts, when asked for (tests) */
} kflow;

#define MARK(s, z) ((s)->nd[(z) >> 1].mark[(z) & 1])

/* A new search stamp; stamps wrap after 2^32 - 3 searches. */
static uint32_t next_stamp(kflow *s)
{
    if (++s->stamp == STUCK) {
        for (size_t i = 0; i < s->n; i++)
            for (int k = 0; k < 2; k++)
                if (s->nd[i].mark[k] < STUCK)
                    s->nd[i].mark[k] = 0;
        s->stamp = 1;
    }
    return s->stamp;
}

/* The edge of the arc a -> b between out(u) and in(v) (u -> v, or back
 * along it): u's entry in v's predecessor list (increasing: a binary
 * search), and when the arc goes back (in(v) -> out(u)) and u -> v is
 * repeated, the first of u's entries whose flow is positive. */
static uint32_t edge_of(const kflow *s, uint32_t a, uint32_t b)
{
    uint32_t back = a & 1, u = back ? b >> 1 : a >> 1;
    uint32_t v = back ? a >> 1 : b >> 1;
    uint32_t lo = s->ps[v], hi = s->ps[v + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->pred[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (back)
        for (uint32_t e = lo; e < s->ps[v + 1] && s->pred[e] == u; e++)
            if (s->f[e] > 0)
                return e;
    return lo;
}

/* Residual capacity of the arc a -> b (e: the edge when a DAG edge or its
 * flow is involved, NONE: found by edge_of; INT64_MAX: unbounded). */
static int64_t arc_cap(const kflow *s, uint32_t a, uint32_t b, uint32_t e)
{
    if (!(a & 1)) /* out(v) -> in(x): a DAG edge, or back along the pass */
        return b == a + 1 ? s->nd[a >> 1].pf : INT64_MAX;
    /* in(v) -> out(v): a pass; in(v) -> out(u): back along u -> v */
    if (b == a - 1)
        return INT64_MAX;
    return s->f[e != NONE ? e : edge_of(s, a, b)];
}

/* Add amount to the flow of edge e, and keep the flags in step: the
 * successor bit of its tail, fp. */
static void flow_add(kflow *s, uint32_t e, int64_t amount)
{
    int64_t old = s->f[e];
    s->f[e] = old + amount;
    if ((old > 0) != (s->f[e] > 0)) {
        if (s->ke[e] != 0xff)
            s->nd[s->pred[e]].fsm ^= (uint32_t)1 << s->ke[e];
        if (s->fp)
            s->fp[e] = s->f[e] > 0;
    }
}

static void arc_push(kflow *s, uint32_t a, uint32_t b, uint32_t e,
                     int64_t amount)
{
    if (!(a & 1)) {
        if (b == a + 1)
            s->nd[a >> 1].pf -= amount;
        else
            flow_add(s, e != NONE ? e : edge_of(s, a, b), amount);
    } else if (b == a - 1) {
        s->nd[a >> 1].pf += amount;
    } else {
        flow_add(s, e != NONE ? e : edge_of(s, a, b), -amount);
    }
}

/* The edge of the arc a -> b of queue entry k (a DAG arc whose edge the
 * search did not know: edge_of finds it, once). */
static uint32_t queue_edge(kflow *s, size_t k, uint32_t a, uint32_t b)
{
    if (s->qe[k] == NONE && a >> 1 != b >> 1)
        s->qe[k] = edge_of(s, a, b);
    return s->qe[k];
}

/* Send what the path from out(u) = q[i] back to in(x) = q[0] carries,
 * at most want; returns the amount. */
static int64_t augment(kflow *s, size_t i, int64_t want)
{
    const uint32_t *q = s->q, *qp = s->qp, *qe = s->qe;
    knode *a = &s->nd[q[i] >> 1];
    int64_t b = a->rt < want ? a->rt : want;
    for (size_t k = i; k; k = qp[k]) {
        int64_t cap =
            arc_cap(s, q[k], q[qp[k]], queue_edge(s, k, q[k], q[qp[k]]));
        if (cap < b)
            b = cap;
    }
    a->rt -= b;
    for (size_t k = i; k; k = qp[k])
        arc_push(s, q[k], q[qp[k]], qe[k], b);
    return b;
}

/* Reach network node z from queue entry from by the edge e: queue entry
 * *qt. */
static void reach(kflow *s, size_t *qt, uint32_t z, size_t from, uint32_t e)
{
    s->nd[z >> 1].mark[z & 1] = s->stamp;
    s->q[*qt] = z;
    s->qp[*qt] = (uint32_t)from;
    s->qe[*qt] = e;
    ++*qt;
}

#define FRESH(s, z)                                                       \
    ((s)->nd[(z) >> 1].mark[(z) & 1] != (s)->stamp &&                    \
     (s)->nd[(z) >> 1].mark[(z) & 1] < STUCK)

/* What a breadth-first search found: the amount sent, after counting
 * the nodes it reached (qt) as work. */
static int64_t found(kflow *s, size_t qt, int64_t sent)
{
    s->work += qt;
    return sent;
}

/* A breadth-first search backwards along residual arcs from in(x) for
 * the nearest out(u) with a free end, then an augmentation along the path
 * found.  Returns what was sent (> 0), or 0 after marking every node the
 * search reached dead. */
static int64_t search(kflow *s, uint32_t x, int64_t want)
{
    size_t qh = 0, qt = 0;
    next_stamp(s);
    reach(s, &qt, 2 * x + 1, 0, NONE);
    while (qh < qt) {
        size_t yi = qh++;
        uint32_t y = s->q[yi], v = y >> 1;
        if (y & 1) { /* into in(v): out(p) of each predecessor p, and
                      * out(v) when flow passes through v */
            for (uint32_t e = s->ps[v]; e < s->ps[v + 1]; e++) {
                uint32_t z = 2 * s->pred[e];
                if (!FRESH(s, z))
                    continue;
                reach(s, &qt, z, yi, e);
                if (s->nd[z >> 1].rt > 0)
                    return found(s, qt - 1, augment(s, qt - 1, want));
            }
            if (s->nd[v].pf > 0 && FRESH(s, y - 1)) {
                reach(s, &qt, y - 1, yi, NONE);
                if (s->nd[v].rt > 0)
                    return found(s, qt - 1, augment(s, qt - 1, want));
            }
        } else { /* into out(v): in(v) (a pass), and in(z) of each
                  * successor z that v's flow goes to */
            if (FRESH(s, y + 1))
                reach(s, &qt, y + 1, yi, NONE);
            uint32_t b = s->ss[v], e = s->ss[v + 1];
            for (uint32_t m = s->nd[v].fsm; m; m &= m - 1) {
                uint32_t c = 2 * s->succ[b + (uint32_t)__builtin_ctz(m)] + 1;
                if (FRESH(s, c))
                    reach(s, &qt, c, yi, NONE);
            }
            for (uint32_t j = b + s->fs_bits; j < e; j++)
                if (s->f[edge_of(s, 2 * s->succ[j] + 1, y)] > 0 &&
                    FRESH(s, 2 * s->succ[j] + 1))
                    reach(s, &qt, 2 * s->succ[j] + 1, yi, NONE);
        }
    }
    found(s, qt, 0);
    for (size_t i = 0; i < qt; i++)
        MARK(s, s->q[i]) = DEAD;
    return 0;
}

/* ------------------------------------------------------------------ */
/* The labelled search                                                 */


static int is_dead(const kflow *s, uint32_t z)
{
    return MARK(s, z) == DEAD;
}

/* The label of z: set by the latest global labelling or since, else 0 for
 * a kernel that joined after it, else far (it did not reach z). */
static uint32_t get_lab(const kflow *s, uint32_t z)
{
    if (s->ln[z].gs == s->epoch)
        return s->ln[z].lab;
    return s->jep[z >> 1] == s->epoch ? 0 : s->far;
}

static void set_lab(kflow *s, uint32_t z, uint32_t d)
{
    s->ln[z].lab = d;
    s->ln[z].gs = s->epoch;
}

/* A new labelling epoch; after 2^32 - 1 of them every stamp is cleared. */
static void next_epoch(kflow *s)
{
    if (++s->epoch == UINT32_MAX) {
        for (size_t i = 0; i < 2 * s->n; i++)
            s->ln[i].gs = 0;
        memset(s->jep, 0, s->n * sizeof *s->jep);
        s->epoch = 1;
    }
}

static uint32_t sap_arc(const kflow *s, uint32_t y, uint32_t k, uint32_t *j);
static uint32_t sap_narcs(const kflow *s, uint32_t y);

/* For the tests: the nodes q[0..qt) of the global labelling just done,
 * checked against the residual network itself (the flows f, not fp; the
 * joined flags, not jn): a node labelled 0 has free ends, any other one
 * is 1 + the least label among the heads of its arcs (those labelled in
 * this epoch, not dead, from lo on), and its kernel has joined. */
static void check_labels(kflow *s, size_t qt, uint32_t lo)
{
    for (size_t i = 0; i < qt; i++) {
        uint32_t c = s->q[i], d = s->ln[c].lab, least = UINT32_MAX, j;
        int ok = s->joined[c >> 1];
        if (d == 0) {
            ok = ok && !(c & 1) && s->nd[c >> 1].rt > 0;
        } else {
            for (uint32_t k = 0; k < sap_narcs(s, c); k++) {
                uint32_t z = sap_arc(s, c, k, &j);
                if (z != NONE && z >> 1 >= lo && !is_dead(s, z) &&
                    s->ln[z].gs == s->epoch && s->ln[z].lab < least)
                    least = s->ln[z].lab;
            }
            ok = ok && least != UINT32_MAX && least + 1 == d;
        }
        s->st->label_errors += !ok;
    }
}

/* Global labelling: lab = the distance in the search graph to the nearest
 * free end, by a breadth-first search from all free ends (the list ends,
 * compacted on the way: nodes without free ends now, dead ones and
 * repeats leave it) backwards along the search graph's arcs.
 *
 * When edges are short (index order topological, the longest edge span),
 * it labels only the kernels from x - LABEL_SPANS * span on, and ends
 * before that leave the list for good (x only grows): a path that wanders
 * further back is long, and labelling the whole joined graph made the
 * labellings most of the work on the wide shape of bench/gen_dag.py (their
 * reach grew with the graph).  Kernels left out keep the label far, so
 * the labelled search does not go there; the breadth-first search still
 * does when it gives up. */
static void global_label(kflow *s)
{
    size_t qh = 0, qt = 0, k = 0;
    uint64_t reach = (uint64_t)s->label_spans * s->span;
    uint32_t lo = s->span && s->x > reach ? s->x - (uint32_t)reach : 0;
    next_epoch(s);
    for (size_t i = 0; i < s->nends; i++) {
        uint32_t x = s->ends[i];
        if (x >= lo && s->nd[x].rt > 0 && !is_dead(s, 2 * x) &&
            s->ln[2 * x].gs != s->epoch) {
            s->ends[k++] = x;
            set_lab(s, 2 * x, 0);
            s->ln[2 * x].cur = 0;
            s->q[qt++] = 2 * x;
        }
    }
    s->nends = k;
    /* (locals: the stores below may alias the fields of s) */
    const uint32_t *ss = s->ss, *succ = s->succ, *ps = s->ps, *pred = s->pred;
    const uint8_t *joined = s->order ? s->joined : NULL, *fp = s->fp;
    const knode *nd = s->nd;
    lnode *ln = s->ln;
    uint32_t *q = s->q, epoch = s->epoch, jn = s->jn;
    uint32_t d = 1; /* the label of the next layer */
    for (size_t layer = qt; qh < qt;) {
        if (qh == layer)
            d++, layer = qt;
        uint32_t z = q[qh++], v = z >> 1;
#define SEE(c)                                                            \
    do {                                                                  \
        if ((c) >> 1 >= lo && ln[c].gs != epoch &&                        \
            nd[(c) >> 1].mark[(c) & 1] != DEAD) {                         \
            ln[c].lab = d;                                                \
            ln[c].gs = epoch;                                             \
            ln[c].cur = 0;                                                \
            q[qt++] = c;                                                  \
        }                                                                 \
    } while (0)
        if (!(z & 1)) { /* out(v): from in(c) of joined successors c (the
                         * edge, backwards), from in(v) when v passes */
            for (uint32_t j = ss[v]; j < ss[v + 1]; j++) {
                uint32_t c = succ[j];
                if (joined ? joined[c] : c < jn)
                    SEE(2 * c + 1);
            }
            if (nd[v].pf > 0)
                SEE(z + 1);
        } else { /* in(v): from out(v) (a pass), from out(p) of each
                  * predecessor p whose flow goes to v */
            SEE(z - 1);
            for (size_t e = ps[v]; e < ps[v + 1]; e++)
                if (fp[e])
                    SEE(2 * pred[e]);
        }
#undef SEE
    }
    s->far = qt ? s->ln[s->q[qt - 1]].lab + 1 : 1;
    if (s->st) {
        if (s->st->check_labels)
            check_labels(s, qt, lo);
        s->st->labellings++;
        if (qt > s->st->labelled_most)
            s->st->labelled_most = qt;
    }
    /* The next one when the searches have done RELABEL_AFTER times its
     * work. */
    s->work += qt + s->nends;
    s->work_next = s->work + RELABEL_AFTER * (qt + s->nends) + 1024;
}

/* A node got free ends: label 0, and the next global labelling starts
 * from it. */
static void end_added(kflow *s, uint32_t v)
{
    if (!s->ln)
        return;
    if (s->nends == s->ends_cap)
        global_label(s); /* compacts the list (to at most n nodes) */
    set_lab(s, 2 * v, 0);
    s->ends[s->nends++] = v;
}

/* Search arc k of y (the arcs of search, in its order): its head, NONE
 * when not residual now; *j the edge (NONE: a pass arc). */
static uint32_t sap_arc(const kflow *s, uint32_t y, uint32_t k, uint32_t *j)
{
    uint32_t v = y >> 1;
    if (y & 1) {
        uint32_t np = s->ps[v + 1] - s->ps[v];
        if (k < np) {
            *j = s->ps[v] + k;
            return 2 * s->pred[*j];
        }
        *j = NONE;
        return s->nd[v].pf > 0 ? y - 1 : NONE;
    }
    if (k == 0) {
        *j = NONE;
        return y + 1;
    }
    uint32_t z = 2 * s->succ[s->ss[v] + k - 1] + 1;
    *j = edge_of(s, z, y);
    return s->f[*j] > 0 ? z : NONE;
}

static uint32_t sap_narcs(const kflow *s, uint32_t y)
{
    uint32_t v = y >> 1;
    return y & 1 ? s->ps[v + 1] - s->ps[v] + 1 : s->ss[v + 1] - s->ss[v] + 1;
}

/* Send along the path stk[0] = in(x), ..., stk[top] = out(u) (u has free
 * ends), at most want; returns the amount. */
static int64_t sap_augment(kflow *s, size_t top, int64_t want)
{
    uint32_t z = s->stk[top];
    int64_t b = s->nd[z >> 1].rt < want ? s->nd[z >> 1].rt : want;
    for (size_t i = top; i > 0; i--) {
        uint32_t a = s->stk[i], c = s->stk[i - 1];
        if (s->stkj[i] == NONE && a >> 1 != c >> 1) /* found once */
            s->stkj[i] = edge_of(s, a, c);
        int64_t cap = arc_cap(s, a, c, s->stkj[i]);
        if (cap < b)
            b = cap;
    }
    s->nd[z >> 1].rt -= b;
    for (size_t i = top; i > 0; i--)
        arc_push(s, s->stk[i], s->stk[i - 1], s->stkj[i], b);
    return b;
}

/* After an augmentation along stk[0..top]: the part of the path up to its
 * first saturated arc from in(x), or without its end when the end's free
 * ends are used up; the search goes on from there. */
static size_t sap_keep(const kflow *s, size_t top)
{
    for (size_t i = 1; i <= top; i++)
        if (arc_cap(s, s->stk[i], s->stk[i - 1], s->stkj[i]) == 0)
            return i - 1;
    return top - 1;
}

/* A depth-first search from in(x) along admissible arcs (lab[z] + 1 ==
 * lab[y]), relabelling each node it leaves (1 + the least label of its
 * heads), with a look-ahead for free ends one arc away; after each
 * augmentation it goes on from the path's unsaturated part.  Returns what
 * it sent, or 0 when it gives up at once (SAP_STEPS spent, or the root's
 * label past far + FAR_SLACK): the breadth-first search decides then. */
static int64_t sap(kflow *s, uint32_t x, int64_t want)
{
    size_t top = 0;
    int64_t sent = 0;
    s->stk[0] = 2 * x + 1;
    for (uint32_t step = 0; step < SAP_STEPS && want > 0; step++) {
        uint32_t y = s->stk[top], v = y >> 1, j = NONE, z, k;
        uint32_t ly = get_lab(s, y), cur = s->ln[y].cur;
        uint32_t best = s->far + FAR_SLACK, adm = NONE, admk = 0, admj = 0;
        int ahead = y & 1; /* look-ahead (free ends are out(u) nodes) */
        /* The arcs of sap_arc, in its order: in(v): out(p) of each
         * predecessor entry from base, then out(v) when v passes; out(v):
         * in(v), then in(c) of each successor entry from base whose edge
         * carries flow. */
        uint32_t base = ahead ? s->ps[v] : s->ss[v];
        uint32_t np = (ahead ? s->ps[v + 1] : s->ss[v + 1]) - base;
        uint32_t na = np + 1;
        const uint32_t *pe = s->pred + base;
        s->work += na;
        /* One pass over the arcs: a free end one arc away (in(v) only),
         * else the first admissible arc from the current one, else the
         * least label of the heads (relabel).  Locals: nothing is stored
         * through s until the pass ends. */
        const knode *nd = s->nd;
        const lnode *ln = s->ln;
        const uint32_t *jep = s->jep;
        uint32_t epoch = s->epoch, far = s->far;
        int found = 0;
#define LAB(z)                                                            \
    (ln[z].gs == epoch ? ln[z].lab : jep[(z) >> 1] == epoch ? 0 : far)
        if (ahead) {
            for (k = 0; k <= np; k++) {
                if (k < np)
                    z = 2 * pe[k], j = base + k;
                else if (nd[v].pf > 0)
                    z = y - 1, j = NONE;
                else
                    break;
                const knode *a = &nd[z >> 1];
                if (a->mark[z & 1] == DEAD)
                    continue;
                if (a->rt > 0) {
                    found = 1;
                    break;
                }
                if (adm != NONE)
                    continue; /* only free ends matter now */
                uint32_t lz = LAB(z);
                if (k >= cur && lz + 1 == ly)
                    adm = z, admk = k, admj = j;
                else if (lz < best)
                    best = lz;
            }
        } else {
            for (k = 0; k < na; k++) {
                if (k == 0) {
                    z = y + 1, j = NONE;
                } else {
                    uint32_t slot = k - 1;
                    z = 2 * s->succ[base + slot] + 1;
                    if (slot < s->fs_bits ? !(nd[v].fsm >> slot & 1)
                                          : s->f[edge_of(s, z, y)] <= 0)
                        continue;
                    j = NONE; /* sap_augment finds it */
                }
                if (nd[z >> 1].mark[z & 1] == DEAD)
                    continue;
                uint32_t lz = LAB(z);
                if (k >= cur && lz + 1 == ly) {
                    adm = z, admk = k, admj = j;
                    break;
                }
                if (lz < best)
                    best = lz;
            }
        }
#undef LAB
        if (found) { /* augment along the path and z */
            s->stk[++top] = z;
            s->stkj[top] = j;
            int64_t b = sap_augment(s, top, want);
            if (s->st && b == 0)
                s->st->empty_paths++;
            s->paths += sent > 0; /* the caller counts one */
            sent += b;
            want -= b;
            top = sap_keep(s, top);
            continue;
        }
        if (adm != NONE) { /* advance */
            s->ln[y].cur = admk;
            s->stk[++top] = adm;
            s->stkj[top] = admj;
            continue;
        }
        set_lab(s, y, best + 1); /* relabel, retreat */
        s->ln[y].cur = 0;
        if (top > 0)
            top--;
        else if (best >= s->far + FAR_SLACK)
            return sent;
    }
    return sent;
}

/* The labelled search's arrays, on its first use: every kernel joined
 * so far is unlabelled (far), and the free ends held now start the first
 * global labelling, which comes at once. */
static int labelled_init(kflow *s)
{
    size_t n = s->n, n2 = 2 * n;
    s->ln = mmm__big_calloc(n2, sizeof *s->ln);
    s->jep = mmm__big_calloc(n, sizeof *s->jep);
    size_t m = s->ss[n];
    uint8_t *fp = mmm__big_malloc(m ? m : 1);
    s->ends_cap = n2 + 1;
    s->ends = mmm__big_malloc(s->ends_cap * sizeof *s->ends);
    if (!s->ln || !s->jep || !s->ends || !fp) {
        void *arrays[] = {s->ln, s->jep, s->ends, fp};
        for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
            mmm__big_free(arrays[i]);
        s->ln = NULL;
        s->jep = s->ends = NULL;
        return MMM_ENOMEM;
    }
    for (size_t e = 0; e < m; e++)
        fp[e] = s->f[e] > 0;
    s->fp = fp;
    s->epoch = 1;
    s->far = 1;
    for (uint32_t v = 0; v < n; v++)
        if (s->joined[v] && s->nd[v].rt > 0)
            s->ends[s->nends++] = v;
    s->work_next = s->work;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Joining                                                             */

/* What predecessor a has to spare when x wants want: its free ends less
 * want for each of its successors left to join (INT64_MIN when that
 * product overflows). */
static int64_t spare(const knode *a, int64_t want)
{
    int64_t need;
    if (__builtin_mul_overflow(want, (int64_t)a->left, &need))
        return INT64_MIN;
    return a->rt - need;
}

/* The greedy part of x's join: the free ends of its predecessors, those
 * with the most to spare first (ties: the latest); beyond GREEDY_SORT
 * predecessors, the latest first.  Returns what x still wants. */
static int64_t greedy(kflow *s, uint32_t x, int64_t want)
{
    const uint32_t *pred = s->pred;
    uint32_t b = s->ps[x], e = s->ps[x + 1];
    if (e - b > GREEDY_SORT) {
        for (; e > b && want > 0; e--) {
            knode *a = &s->nd[pred[e - 1]];
            int64_t d = a->rt < want ? a->rt : want;
            if (d > 0) {
                a->rt -= d;
                flow_add(s, e - 1, d);
                want -= d;
            }
        }
        return want;
    }
    while (want > 0) {
        uint32_t best = NONE;
        int64_t most = 0;
        for (uint32_t q = b; q < e; q++) {
            const knode *a = &s->nd[pred[q]];
            if (a->rt == 0)
                continue;
            int64_t sp = spare(a, want);
            if (best == NONE || sp > most ||
                (sp == most && pred[q] > pred[best]))
                best = q, most = sp;
        }
        if (best == NONE)
            break;
        knode *a = &s->nd[pred[best]];
        int64_t d = a->rt < want ? a->rt : want;
        a->rt -= d;
        flow_add(s, best, d);
        want -= d;
    }
    return want;
}

/* The end of a round of CHOOSE_EVERY searches (adaptive): its method's
 * cost per path found, averaged over its rounds (a new round weighs 1/4:
 * single rounds swing, one long breadth-first search or one global
 * labelling can be most of a round); the next round takes the cheaper
 * method, the labelled search first tried when breadth-first searches
 * reach more than LONG_SEARCH nodes per path, and a method left for
 * RETRY_AFTER rounds times its cost ratio (at most RETRY_RATIO) tried
 * again (the shape of the graph can change on the way; on the wide shape
 * a round of breadth-first searches costs ten of the labelled search). */
static void choose(kflow *s)
{
    int m = s->labelled, o = !m;
    double c = (double)(s->work - s->work0) / (s->paths ? s->paths : 1);
    s->cost[m] = s->cost[m] == 0 ? c : 0.75 * s->cost[m] + 0.25 * c;
    s->since[m] = 0;
    s->since[o]++;
    double ratio = s->cost[m] > 0 ? s->cost[o] / s->cost[m] : 1;
    ratio = ratio < 1 ? 1 : ratio > RETRY_RATIO ? RETRY_RATIO : ratio;
    if (s->cost[o] == 0)
        s->labelled = !m && s->cost[m] > LONG_SEARCH;
    else if (s->since[o] >= RETRY_AFTER * ratio || s->cost[o] < s->cost[m])
        s->labelled = o;
    s->tries = s->paths = 0;
    s->work0 = s->work;
}

/* Node x joins: returns the part of w(x) that no chain reaches (x's
 * share of K).  After the greedy part, each augmenting path comes from
 * the labelled search when it is the method of the round, else (or when
 * it gives up) from the breadth-first search, whose failure alone ends
 * the join. */
static int64_t join(kflow *s, uint32_t x, int64_t want)
{
    s->x = x;
    want = greedy(s, x, want);
    while (want > 0) {
        int64_t got = 0;
        if (s->mode != MMM__FLOW_ADAPTIVE && s->mode != MMM__FLOW_ALTERNATE)
            s->labelled = s->mode != MMM__FLOW_BFS;
        if (s->labelled && !s->ln && labelled_init(s) < 0)
            s->mode = MMM__FLOW_BFS; /* no memory for it: without */
        if (s->labelled && s->ln) {
            if (s->work >= s->work_next)
                global_label(s);
            got = sap(s, x, want);
        }
        if (!got) {
            got = search(s, x, want);
            if (s->st && got)
                s->st->bfs_paths++;
        } else if (s->st) {
            s->st->labelled_paths++;
        }
        s->paths += got > 0;
        s->tries++;
        if (s->mode == MMM__FLOW_ALTERNATE && s->tries >= 3) {
            s->labelled = !s->labelled; /* for the tests */
            s->tries = 0;
        } else if (s->mode == MMM__FLOW_ADAPTIVE && s->tries >= CHOOSE_EVERY) {
            choose(s);
        }
        if (!got)
            break;
        want -= got;
    }
    return want;
}

/* After x joined: a predecessor u whose last successor x is leaves its
 * free ends to x (its chains pass through x and end there: the same flow
 * value).  The ends stay near the latest nodes, where the searches start,
 * instead of waiting far back for a descendant that reaches them; a
 * search can still take them back along the reverse arcs. */
#ifndef HAND_ON_BUDGET
#define HAND_ON_BUDGET 4096
#endif

/* Move the free ends of u (all of whose successors have joined) to the
 * nearest node z that still has successors to join, along a path of the
 * residual network out(u) ~> out(z) found by a short breadth-first
 * search (forward along edges and passes, back along flows): the flow
 * keeps its value, the chains that ended at u now end at z.  The ends
 * stay near the latest nodes, where the searches start, instead of
 * waiting far back for a descendant that reaches them.
 *
 * A search that reached everything it could (not stopped by the budget)
 * and found no such z marks what it reached STUCK, and later hand-on
 * searches skip it.  That set R is closed: every residual arc leaving
 * one of its nodes ends in R (the search followed them all; none enters
 * a dead node, no arc does), and each out(v) in R has no successor left
 * to join (else it was a z), so all of v's edges are in the network
 * already.  R stays closed for good: a new kernel adds arcs from its
 * predecessors, none in R (their successor x was not joined); an
 * augmenting path ends at the kernel joining, outside R, so it cannot
 * pass through R or start there (it would have to leave R), and neither
 * can a hand-on path, whose end z has successors to join; so no flow on
 * an arc of R ever changes.  Hence R never reaches a node with
 * successors to join, and skipping it loses no z.  (Nor does it reach
 * any in(x) to come: the searches for augmenting paths never get into
 * R, and skip it too.)  On the uniform shape of bench/gen_dag.py, 60 %
 * of hand-on searches find nothing, mostly among the last kernels to
 * join, and crossed the same regions again and again: the nodes they
 * reach fall by half (docs/model.md). */
static void check_stuck(kflow *s);

static int hand_on_from(kflow *s, uint32_t u)
{
    size_t qh = 0, qt = 0, zi = 0;
    next_stamp(s);
    reach(s, &qt, 2 * u, 0, NONE);
    while (qh < qt && qt < s->hand_budget && !zi) {
        size_t yi = qh++;
        uint32_t y = s->q[yi], v = y >> 1;
        if (!(y & 1)) { /* out(v): in(c) of joined successors, in(v) */
            for (uint32_t j = s->ss[v]; j < s->ss[v + 1]; j++) {
                uint32_t c = 2 * s->succ[j] + 1;
                if (s->joined[c >> 1] && FRESH(s, c))
                    reach(s, &qt, c, yi, NONE);
            }
            if (s->nd[v].pf > 0 && FRESH(s, y + 1))
                reach(s, &qt, y + 1, yi, NONE);
        } else { /* in(v): out(v), out(p) of predecessors sending flow */
            if (FRESH(s, y - 1)) {
                reach(s, &qt, y - 1, yi, NONE);
                if (s->nd[v].left > 0) {
                    zi = qt - 1;
                    break;
                }
            }
            for (uint32_t e = s->ps[v]; e < s->ps[v + 1]; e++)
                if (s->f[e] > 0 && FRESH(s, 2 * s->pred[e])) {
                    reach(s, &qt, 2 * s->pred[e], yi, e);
                    if (s->nd[s->pred[e]].left > 0) {
                        zi = qt - 1;
                        break;
                    }
                }
        }
    }
    if (s->st)
        s->st->hand_on_reached += qt;
    if (!zi) {
        if (qh == qt && s->stuck) {
            for (size_t i = 0; i < qt; i++)
                MARK(s, s->q[i]) = STUCK;
            if (s->st && s->st->check_stuck)
                check_stuck(s);
        }
        return 0;
    }
    /* The path runs from out(u) = q[0] to out(z) = q[zi]: the arcs
     * q[qp[k]] -> q[k]. */
    const uint32_t *q = s->q, *qp = s->qp, *qe = s->qe;
    uint32_t z = q[zi] >> 1;
    int64_t b = s->nd[u].rt;
    for (size_t k = zi; k; k = qp[k]) {
        int64_t cap =
            arc_cap(s, q[qp[k]], q[k], queue_edge(s, k, q[qp[k]], q[k]));
        if (cap < b)
            b = cap;
    }
    s->nd[u].rt -= b;
    if (b > 0 && s->nd[z].rt == 0)
        end_added(s, z);
    s->nd[z].rt += b;
    for (size_t k = zi; k; k = qp[k])
        arc_push(s, q[qp[k]], q[k], qe[k], b);
    return 1;
}

/* After x joined, for each predecessor u whose last successor x is: its
 * free ends go to x itself when x still has successors to join (along
 * out(u) -> in(x) -> out(x): an edge and a pass, both unbounded), else
 * where hand_on_from finds.  Neither side of x can be dead here (in(x)
 * dies only when x's search fails, and then x's greedy part had used up
 * the free ends of every predecessor; no search has reached out(x) yet):
 * the check only keeps the move safe if that changes. */
static void hand_on(kflow *s, uint32_t x)
{
    knode *a = &s->nd[x];
    for (uint32_t e = s->ps[x]; e < s->ps[x + 1]; e++) {
        uint32_t u = s->pred[e];
        if (--s->nd[u].left != 0 || s->nd[u].rt == 0)
            continue;
        if (a->left > 0 && a->mark[0] != DEAD && a->mark[1] != DEAD) {
            int64_t b = s->nd[u].rt;
            s->nd[u].rt = 0;
            flow_add(s, e, b);
            a->pf += b;
            if (a->rt == 0)
                end_added(s, x);
            a->rt += b;
            continue;
        }
        while (s->nd[u].rt > 0 && hand_on_from(s, u))
            ;
    }
}

/* For the tests: every residual arc that leaves a STUCK node ends at a
 * STUCK node, and no STUCK out(v) has successors left to join (what
 * hand_on_from relies on); each failure counts in stuck_errors. */
static void check_stuck(kflow *s)
{
    const knode *nd = s->nd;
    uint64_t bad = 0;
#define NOT_STUCK(z) (nd[(z) >> 1].mark[(z) & 1] != STUCK)
    for (uint32_t v = 0; v < s->n; v++) {
        if (nd[v].mark[0] == STUCK) {
            bad += nd[v].left > 0;
            for (uint32_t j = s->ss[v]; j < s->ss[v + 1]; j++)
                bad += !s->joined[s->succ[j]] || NOT_STUCK(2 * s->succ[j] + 1);
            bad += nd[v].pf > 0 && NOT_STUCK(2 * v + 1);
        }
        if (nd[v].mark[1] == STUCK) {
            bad += NOT_STUCK(2 * v);
            for (uint32_t e = s->ps[v]; e < s->ps[v + 1]; e++)
                bad += s->f[e] > 0 && NOT_STUCK(2 * s->pred[e]);
        }
    }
#undef NOT_STUCK
    s->st->stuck_checks++;
    s->st->stuck_errors += bad;
}

static void kflow_free(kflow *s)
{
    void *arrays[] = {s->own_ps, s->own_pred, s->ke,     s->order,
                      s->f,      s->nd,       s->q,      s->qp,
                      s->qe,     s->joined,   s->ln,     s->jep,
                      s->ends,   s->fp};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        mmm__big_free(arrays[i]);
}

/* Predecessor lists of the CSR (duplicates kept, increasing), in own_*;
 * q serves as a scratch cursor. */
static int build_preds(kflow *s)
{
    size_t n = s->n, m = s->ss[n];
    uint32_t *ps = mmm__big_calloc(n + 1, sizeof *ps);
    uint32_t *pt = mmm__big_malloc((m ? m : 1) * sizeof *pt);
    s->own_ps = ps, s->own_pred = pt;
    s->ps = ps, s->pred = pt;
    if (!ps || !pt)
        return MMM_ENOMEM;
    for (size_t j = 0; j < m; j++)
        ps[s->succ[j] + 1]++;
    for (size_t v = 0; v < n; v++)
        ps[v + 1] += ps[v];
    uint32_t *cur = s->q;
    memcpy(cur, ps, n * sizeof *cur);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = s->ss[u]; j < s->ss[u + 1]; j++)
            pt[cur[s->succ[j]]++] = u;
    return 0;
}

/* Whether every list of the CSR (start, list) is in increasing order
 * (repeats allowed). */
static int increasing(size_t n, const uint32_t *start, const uint32_t *list)
{
    for (size_t v = 0; v < n; v++)
        for (uint32_t e = start[v] + 1; e < start[v + 1]; e++)
            if (list[e] < list[e - 1])
                return 0;
    return 1;
}

/* ke: for each predecessor entry e (edge u -> c), the slot of the edge
 * in u's successor list (its position j - ss[u]) when below fs_bits, else
 * 0xff; the repeats of an edge (u -> c twice) take u's slots for c in
 * turn.  When the successor lists are increasing, the k-th time u is met
 * in a walk of the predecessor lists (c increasing) is its k-th successor:
 * the walk is sequential and counts in a byte per kernel (a cache of
 * 1 MiB holds 10^6 kernels); else each successor entry finds its
 * predecessor entry (u's entries in c's list are taken in turn as u
 * grows).  Both need increasing predecessor lists: returns 1 (ke not
 * built) when they are not. */
static int build_ke(kflow *s)
{
    size_t n = s->n;
    const uint32_t *ps = s->ps, *pred = s->pred;
    uint8_t *ke = s->ke;
    if (s->succ_sorted) {
        uint8_t *seen = (uint8_t *)s->q; /* scratch, n bytes */
        memset(seen, 0, n);
        for (size_t c = 0; c < n; c++)
            for (uint32_t e = ps[c], prev = 0; e < ps[c + 1]; e++) {
                uint8_t *k = &seen[pred[e]];
                if (pred[e] < prev)
                    return 1;
                prev = pred[e];
                ke[e] = *k < s->fs_bits ? (*k)++ : 0xff;
            }
        return 0;
    }
    if (!increasing(n, ps, pred))
        return 1;
    uint32_t *cur = s->q;
    memcpy(cur, s->ps, n * sizeof *cur);
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t j = s->ss[u]; j < s->ss[u + 1]; j++) {
            uint32_t slot = j - s->ss[u];
            ke[cur[s->succ[j]]++] = slot < s->fs_bits ? (uint8_t)slot : 0xff;
        }
    return 0;
}

/* A topological order in s->order, or none when the index order is one
 * (the common case: files list kernels before their successors; span is
 * then the longest edge). */
static int build_order(kflow *s)
{
    size_t n = s->n;
    int sorted = 1, increasing_lists = 1;
    for (uint32_t u = 0; u < n && sorted; u++)
        for (uint32_t j = s->ss[u], prev = 0; j < s->ss[u + 1]; j++) {
            if (s->succ[j] <= u) {
                sorted = 0;
                break;
            }
            increasing_lists &= s->succ[j] >= prev;
            prev = s->succ[j];
            if (s->succ[j] - u > s->span)
                s->span = s->succ[j] - u;
        }
    s->succ_sorted = sorted ? increasing_lists
                            : increasing(n, s->ss, s->succ);
    if (sorted)
        return 0;
    s->span = 0;
    uint32_t *ord = mmm__big_malloc(n * sizeof *ord);
    if (!ord)
        return MMM_ENOMEM;
    s->order = ord;
    uint32_t *indeg = s->q + n; /* scratch, before the searches */
    size_t tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!(indeg[v] = s->ps[v + 1] - s->ps[v]))
            ord[tail++] = v;
    for (size_t h = 0; h < tail; h++)
        for (uint32_t j = s->ss[ord[h]]; j < s->ss[ord[h] + 1]; j++)
            if (--indeg[s->succ[j]] == 0)
                ord[tail++] = s->succ[j];
    return 0; /* a cycle would leave nodes out: callers pass DAGs */
}

static int kflow_alloc(kflow *s, size_t n, size_t m)
{
    size_t m1 = m ? m : 1, n2 = 2 * n;
    s->ke = mmm__big_malloc(m1);
    s->f = mmm__big_calloc(m1, sizeof *s->f);
    s->nd = mmm__big_calloc(n, sizeof *s->nd);
    s->q = mmm__big_malloc(n2 * sizeof *s->q);
    s->qp = mmm__big_malloc(n2 * sizeof *s->qp);
    s->qe = mmm__big_malloc(n2 * sizeof *s->qe);
    s->joined = mmm__big_calloc(n, sizeof *s->joined);
    if (!s->ke || !s->f || !s->nd || !s->q || !s->qp || !s->qe ||
        !s->joined)
        return MMM_ENOMEM;
    return 0;
}

/* The i-th join to come, in s->order. */
static uint32_t nth_join(const kflow *s, size_t i)
{
    return s->order ? s->order[i] : (uint32_t)i;
}

/* Before join i: ask for what the joins a little later read first, so
 * that their cache misses overlap with this join's work (a join of a big
 * DAG with far-apart edges misses on nearly every predecessor): the
 * records and list starts of the predecessors of join i + PREFETCH_AHEAD,
 * and the lists of those of join i + PREFETCH_AHEAD / 2 (whose starts the
 * same prefetch asked for earlier).  Prefetches only: nothing changes. */
static void prefetch_join(const kflow *s, size_t i)
{
    if (i + PREFETCH_AHEAD < s->n) {
        uint32_t x = nth_join(s, i + PREFETCH_AHEAD);
        for (uint32_t e = s->ps[x]; e < s->ps[x + 1]; e++) {
            __builtin_prefetch(&s->nd[s->pred[e]]);
            __builtin_prefetch(&s->ss[s->pred[e]]);
            __builtin_prefetch(&s->ps[s->pred[e]]);
        }
    }
    if (i + PREFETCH_AHEAD / 2 < s->n) {
        uint32_t x = nth_join(s, i + PREFETCH_AHEAD / 2);
        for (uint32_t e = s->ps[x]; e < s->ps[x + 1]; e++) {
            __builtin_prefetch(&s->succ[s->ss[s->pred[e]]]);
            __builtin_prefetch(&s->pred[s->ps[s->pred[e]]]);
        }
    }
}

int mmm__antichain_flow_stats(int64_t *out, size_t n, const int64_t *w,
                              const uint32_t *ss, const uint32_t *succ,
                              const uint32_t *ps, const uint32_t *pred,
                              int mode, mmm__flow_stats *st, mmm_error *err)
{
    *out = 0;
    if (st) {
        int check = st->check_labels, check_stuck = st->check_stuck;
        memset(st, 0, sizeof *st);
        st->check_labels = check;
        st->check_stuck = check_stuck;
    }
    if (n == 0)
        return 0;
    if (n > ((size_t)1 << 30)) /* network nodes 2n + 1 must fit 32 bits */
        return mmm_error_set(err, MMM_ELIMIT, NULL, 0,
                             "too many kernels for the antichain flow");
    kflow s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.ss = ss;
    s.succ = succ;
    s.ps = ps;
    s.pred = pred;
    s.mode = mode & (MMM__FLOW_ONE_FLAG - 1);
    s.fs_bits = mode & MMM__FLOW_ONE_FLAG ? 1 : FS_BITS;
    s.hand_budget = mode & MMM__FLOW_SHORT_HAND ? 8 : HAND_ON_BUDGET;
    s.stuck = !(mode & MMM__FLOW_NO_STUCK);
    s.label_spans = s.mode == MMM__FLOW_NARROW ? 1 : LABEL_SPANS;
    s.st = st;
    /* The given predecessor lists serve when they are increasing (as
     * mmm_program_finalize builds them); else the flow builds its own. */
    if (kflow_alloc(&s, n, ss[n]) < 0 || (!ps && build_preds(&s) < 0) ||
        build_order(&s) < 0 ||
        (build_ke(&s) && (build_preds(&s) < 0 || build_ke(&s)))) {
        kflow_free(&s);
        return nomem(err);
    }
    if (st)
        st->label_kernels = s.span ? (uint64_t)s.label_spans * s.span + 1 : 0;
    for (size_t v = 0; v < n; v++)
        s.nd[v].left = ss[v + 1] - ss[v];
    int64_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = nth_join(&s, i);
        prefetch_join(&s, i);
        k += join(&s, x, w[x]);
        s.nd[x].rt = w[x];
        if (w[x] > 0)
            end_added(&s, x);
        s.joined[x] = 1;
        s.jn = (uint32_t)i + 1;
        if (s.jep)
            s.jep[x] = s.epoch;
        hand_on(&s, x);
    }
    *out = k;
    if (st)
        st->work = s.work;
    kflow_free(&s);
    return 0;
}

int mmm__antichain_flow_mode(int64_t *out, size_t n, const int64_t *w,
                             const uint32_t *ss, const uint32_t *succ,
                             const uint32_t *ps, const uint32_t *pred,
                             int mode, mmm_error *err)
{
    return mmm__antichain_flow_stats(out, n, w, ss, succ, ps, pred, mode,
                                     NULL, err);
}

int mmm__antichain_flow_preds(int64_t *out, size_t n, const int64_t *w,
                              const uint32_t *ss, const uint32_t *succ,
                              const uint32_t *ps, const uint32_t *pred,
                              mmm_error *err)
{
    return mmm__antichain_flow_mode(out, n, w, ss, succ, ps, pred,
                                    MMM__FLOW_ADAPTIVE, err);
}

int mmm__antichain_flow(int64_t *out, size_t n, const int64_t *w,
                        const uint32_t *ss, const uint32_t *succ,
                        mmm_error *err)
{
    return mmm__antichain_flow_preds(out, n, w, ss, succ, NULL, NULL, err);
}

/* ------------------------------------------------------------------ */
/* Public entry                                                        */

/* Whether the CSR graph is acyclic (Kahn: every node comes out). */
static int acyclic(const mmm__csr *c, size_t n, int *ok)
{
    uint32_t *indeg = malloc((n ? n : 1) * sizeof *indeg);
    uint32_t *queue = malloc((n ? n : 1) * sizeof *queue);
    if (!indeg || !queue) {
        free(indeg), free(queue);
        return MMM_ENOMEM;
    }
    size_t tail = 0;
    for (uint32_t v = 0; v < n; v++)
        if (!(indeg[v] = c->pred_start[v + 1] - c->pred_start[v]))
            queue[tail++] = v;
    for (size_t h = 0; h < tail; h++)
        for (uint32_t j = c->succ_start[queue[h]];
             j < c->succ_start[queue[h] + 1]; j++)
            if (--indeg[c->succ[j]] == 0)
                queue[tail++] = c->succ[j];
    free(indeg);
    free(queue);
    *ok = tail == n;
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
    /* CSR without duplicates (base/csr.c), then the acyclicity check. */
    mmm__csr c;
    int ok = 0;
    if (mmm__csr_build(&c, n, nedges, from, to, sizeof *from) < 0)
        return nomem(err);
    if (acyclic(&c, n, &ok) < 0) {
        mmm__csr_dispose(&c);
        return nomem(err);
    }
    if (!ok) {
        mmm__csr_dispose(&c);
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "the graph has a cycle");
    }
    mmm__sp_plan plan;
    int r = mmm__sp_plan_build(&plan, n, c.succ_start, c.succ, err);
    if (r == 0 && plan.is_sp) {
        r = mmm__sp_plan_eval(out, &plan, weight, err);
    } else if (r == 0) {
        if (method_out)
            *method_out = MMM_K_FLOW;
        r = mmm__antichain_flow_preds(out, n, weight, c.succ_start, c.succ,
                                      c.pred_start, c.pred, err);
    }
    mmm__sp_plan_dispose(&plan);
    mmm__csr_dispose(&c);
    return r;
}
