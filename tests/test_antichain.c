/* test_antichain.c: K, the largest weighted antichain, against brute force.
 *
 * Every expectation is computed here independently: the transitive closure
 * by Floyd–Warshall on bit masks and the largest antichain by enumerating
 * subsets (kernel DAGs) or by exhaustive search over pairwise incomparable
 * launches of the expanded thread-block DAG (programs with repeats).  On
 * DAGs too large for that, the earlier algorithm (greedy + Dinic, kept in
 * tests/helpers/antichain_prev.c) is the reference. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antichain_prev.h"
#include "mmm/mmm.h"
#include "model/program_internal.h"
#include "analysis/antichain.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int rnd_int(int lo, int hi) { return lo + (int)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ---------------- brute force on small DAGs (n <= 40) ---------------- */

#define MAXN 40

/* reach[i] = bit set of nodes reachable from i (strictly). */
static void closure(uint64_t *reach, int n, size_t m, const uint32_t *from,
                    const uint32_t *to)
{
    for (int i = 0; i < n; i++)
        reach[i] = 0;
    for (size_t e = 0; e < m; e++)
        reach[from[e]] |= 1ull << to[e];
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (reach[i] >> k & 1)
                reach[i] |= reach[k];
}

/* Exhaustive search: best antichain among nodes >= i compatible with
 * `allowed`.  Pruned by the sum of what is still allowed. */
static void search(const int64_t *w, const uint64_t *comp, int n, int i,
                   uint64_t allowed, int64_t sum, int64_t *best)
{
    if (sum > *best)
        *best = sum;
    int64_t rest = 0;
    for (int j = i; j < n; j++)
        if (allowed >> j & 1)
            rest += w[j];
    if (sum + rest <= *best)
        return;
    for (int j = i; j < n; j++)
        if (allowed >> j & 1)
            search(w, comp, n, j + 1, allowed & ~comp[j] & ~(1ull << j),
                   sum + w[j], best);
}

static int64_t brute_antichain(int n, const int64_t *w, size_t m,
                               const uint32_t *from, const uint32_t *to)
{
    uint64_t reach[MAXN], comp[MAXN];
    closure(reach, n, m, from, to);
    for (int i = 0; i < n; i++) {
        comp[i] = reach[i];
        for (int j = 0; j < n; j++)
            if (reach[j] >> i & 1)
                comp[i] |= 1ull << j;
    }
    int64_t best = 0;
    uint64_t all = n == 64 ? ~0ull : (1ull << n) - 1;
    search(w, comp, n, 0, all, 0, &best);
    return best;
}

/* CSR of an edge list (duplicates kept: the flow accepts them); cur: n
 * entries of scratch. */
static void to_csr(uint32_t *ss, uint32_t *succ, uint32_t *cur, int n,
                   size_t m, const uint32_t *from, const uint32_t *to)
{
    memset(ss, 0, (size_t)(n + 1) * sizeof *ss);
    for (size_t e = 0; e < m; e++)
        ss[from[e] + 1]++;
    for (int v = 0; v < n; v++)
        ss[v + 1] += ss[v];
    memcpy(cur, ss, (size_t)n * sizeof *cur);
    for (size_t e = 0; e < m; e++)
        succ[cur[from[e]]++] = to[e];
}

/* Predecessor lists of a CSR, one entry per edge (repeats kept): in
 * increasing order (the flow's contract), or in decreasing order when
 * down (the flow must notice, and build its own); cur: n entries of
 * scratch. */
static void preds_of(uint32_t *ps, uint32_t *pred, uint32_t *cur, int n,
                     const uint32_t *ss, const uint32_t *succ, int down)
{
    memset(ps, 0, (size_t)(n + 1) * sizeof *ps);
    for (uint32_t j = 0; j < ss[n]; j++)
        ps[succ[j] + 1]++;
    for (int v = 0; v < n; v++)
        ps[v + 1] += ps[v];
    memcpy(cur, ps, (size_t)n * sizeof *cur);
    for (int i = 0; i < n; i++) {
        int u = down ? n - 1 - i : i;
        for (uint32_t j = ss[u]; j < ss[u + 1]; j++)
            pred[cur[succ[j]]++] = (uint32_t)u;
    }
}

/* Each successor list of a CSR sorted in place (the flow has a faster
 * path for sorted lists: both must give the same K). */
static void sort_succ(int n, const uint32_t *ss, uint32_t *succ)
{
    for (int v = 0; v < n; v++)
        for (uint32_t j = ss[v] + 1; j < ss[v + 1]; j++)
            for (uint32_t i = j; i > ss[v] && succ[i - 1] > succ[i]; i--) {
                uint32_t t = succ[i];
                succ[i] = succ[i - 1];
                succ[i - 1] = t;
            }
}

/* The buffers of a medium DAG: weights, edge list, CSR and its scratch. */
typedef struct medium {
    int64_t *w;
    uint32_t *from, *to, *ss, *succ, *cur, *ps, *pred;
} medium;

static medium medium_alloc(size_t nmax, size_t mmax)
{
    medium d;
    d.w = malloc(nmax * sizeof *d.w);
    d.from = malloc(mmax * sizeof *d.from);
    d.to = malloc(mmax * sizeof *d.to);
    d.ss = malloc((nmax + 1) * sizeof *d.ss);
    d.succ = malloc(mmax * sizeof *d.succ);
    d.cur = malloc(nmax * sizeof *d.cur);
    d.ps = malloc((nmax + 1) * sizeof *d.ps);
    d.pred = malloc(mmax * sizeof *d.pred);
    cr_assert(d.w && d.from && d.to && d.ss && d.succ && d.cur && d.ps &&
              d.pred);
    return d;
}

static void medium_free(medium *d)
{
    free(d->w), free(d->from), free(d->to), free(d->ss), free(d->succ),
        free(d->cur), free(d->ps), free(d->pred);
}

/* The flow alone, by each method of its searches (adaptive, breadth-first
 * only, labelled first, the two in turns, labelled first with the
 * narrowest labelling), each also with the flow flag of the first
 * successor only (the others read from the flows), on the successor
 * lists in edge order and sorted, with the predecessor lists left to the
 * flow, given in increasing order and given in decreasing order (not
 * the contract: the flow must build its own), and by the earlier
 * algorithm (tests/helpers/antichain_prev.c): all must agree; returns
 * their K. */
static int64_t flow_only(int n, const int64_t *w, size_t m,
                         const uint32_t *from, const uint32_t *to)
{
    uint32_t ss[MAXN + 1], succ[1024], sorted[1024], cur[MAXN];
    uint32_t ps[2][MAXN + 1], pred[2][1024];
    int64_t k = -1, km = -2, kp = -3;
    mmm_error err;
    cr_assert(m <= 1024);
    to_csr(ss, succ, cur, n, m, from, to);
    memcpy(sorted, succ, m * sizeof *succ);
    sort_succ(n, ss, sorted);
    for (int down = 0; down < 2; down++)
        preds_of(ps[down], pred[down], cur, n, ss, succ, down);
    cr_assert_eq(mmm__antichain_flow(&k, (size_t)n, w, ss, succ, &err), 0);
    static const int modes[] = {MMM__FLOW_ADAPTIVE, MMM__FLOW_BFS,
                                MMM__FLOW_LABELLED, MMM__FLOW_ALTERNATE,
                                MMM__FLOW_NARROW};
    for (int form = 0; form < 6; form++)
        for (int i = 0; i < 10; i++) {
            const uint32_t *sl = form / 3 ? sorted : succ;
            const uint32_t *pl = form % 3 ? pred[form % 3 - 1] : NULL;
            const uint32_t *pstart = form % 3 ? ps[form % 3 - 1] : NULL;
            int mode = modes[i / 2] | (i % 2 ? MMM__FLOW_ONE_FLAG : 0);
            cr_assert_eq(mmm__antichain_flow_mode(&km, (size_t)n, w, ss, sl,
                                                  pstart, pl, mode, &err),
                         0);
            cr_assert_eq(km, k, "method %d, lists %d: K %lld, adaptive %lld",
                         mode, form, (long long)km, (long long)k);
        }
    /* the hand-on searches without STUCK marks, and cut after 8 nodes */
    for (int i = 0; i < 4; i++) {
        int mode = (i % 2 ? MMM__FLOW_BFS : MMM__FLOW_ADAPTIVE) |
                   (i / 2 ? MMM__FLOW_SHORT_HAND : MMM__FLOW_NO_STUCK);
        cr_assert_eq(mmm__antichain_flow_mode(&km, (size_t)n, w, ss, succ,
                                              NULL, NULL, mode, &err),
                     0);
        cr_assert_eq(km, k, "mode %d: K %lld, adaptive %lld", mode,
                     (long long)km, (long long)k);
    }
    cr_assert_eq(prev_antichain_flow(&kp, (size_t)n, w, ss, succ, &err), 0);
    cr_assert_eq(kp, k, "earlier flow %lld, flow %lld", (long long)kp,
                 (long long)k);
    return k;
}

/* A random DAG: edges i -> j (i < j) with probability dens percent, then
 * the node numbers shuffled so that index order is not topological. */
static size_t random_dag(int n, int dens, uint32_t *from, uint32_t *to)
{
    int perm[MAXN];
    size_t m = 0;
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = rnd_int(0, i), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (rnd_int(0, 99) < dens) {
                from[m] = (uint32_t)perm[i];
                to[m] = (uint32_t)perm[j];
                m++;
            }
    return m;
}

/* A two-terminal series-parallel DAG by random edge subdivisions (series)
 * and duplications (parallel) of the edge 0 -> 1; nodes 0 and 1 are kept
 * as real nodes.  Returns the number of nodes. */
static int random_ttsp(int target, size_t *m, uint32_t *from, uint32_t *to)
{
    int n = 2;
    *m = 1;
    from[0] = 0;
    to[0] = 1;
    while (n < target) {
        size_t e = rnd() % *m;
        if (rnd_int(0, 2) == 0 && *m < 200) { /* parallel copy */
            from[*m] = from[e];
            to[*m] = to[e];
            (*m)++;
        } else { /* series: u -> x -> v */
            uint32_t x = (uint32_t)n++;
            from[*m] = x;
            to[*m] = to[e];
            to[e] = x;
            (*m)++;
        }
    }
    return n;
}

Test(antichain, random_dags_match_brute_force)
{
    rng_state = 0x9e3779b97f4a7c15u;
    int flow_seen = 0, sp_seen = 0;
    for (int it = 0; it < 600; it++) {
        int n = rnd_int(1, 12);
        uint32_t from[200], to[200];
        int64_t w[MAXN];
        size_t m = random_dag(n, rnd_int(0, 70), from, to);
        for (int i = 0; i < n; i++)
            w[i] = rnd_int(0, 6);
        int64_t expect = brute_antichain(n, w, m, from, to), k = -1;
        mmm_k_method meth;
        mmm_error err;
        cr_assert_eq(mmm__max_antichain(&k, &meth, (size_t)n, w, m, from, to,
                                        &err),
                     0, "%s", err.message);
        cr_assert_eq(k, expect, "iteration %d: K %lld, brute force %lld", it,
                     (long long)k, (long long)expect);
        cr_assert_eq(flow_only(n, w, m, from, to), expect, "iteration %d", it);
        flow_seen += meth == MMM_K_FLOW;
        sp_seen += meth == MMM_K_SERIES_PARALLEL;
    }
    cr_assert(flow_seen > 50 && sp_seen > 50, "flow %d, sp %d", flow_seen,
              sp_seen);
}

/* Shuffle the node numbers (with their weights) and the edge order, so
 * that index order is not topological. */
static void shuffle_dag(int n, int64_t *w, size_t m, uint32_t *from,
                        uint32_t *to)
{
    uint32_t *perm = malloc((size_t)(n ? n : 1) * sizeof *perm);
    cr_assert(perm);
    for (int i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (int i = n - 1; i > 0; i--) {
        int j = rnd_int(0, i);
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
        int64_t tw = w[i];
        w[i] = w[j];
        w[j] = tw;
    }
    for (size_t e = 0; e < m; e++) {
        from[e] = perm[from[e]];
        to[e] = perm[to[e]];
    }
    for (size_t e = m; e > 1; e--) {
        size_t j = rnd() % e;
        uint32_t tf = from[e - 1], tt = to[e - 1];
        from[e - 1] = from[j], to[e - 1] = to[j];
        from[j] = tf, to[j] = tt;
    }
    free(perm);
}

/* The benchmark's shapes (bench/gen_dag.py), small: kernel v's
 * predecessors among the `window` kernels before it, `deg` of them (or,
 * when pairs, each edge a random pair at distance <= window, duplicates
 * allowed), weights in 1..wmax; then, when shuffle, node numbers permuted
 * and the edges in random order (index order is then not topological). */
static size_t shaped_dag(int n, int window, int deg, int pairs, int shuffle,
                         int wmax, int64_t *w, uint32_t *from, uint32_t *to)
{
    size_t m = 0;
    for (int v = 0; v < n; v++)
        w[v] = rnd_int(1, wmax);
    if (pairs) {
        for (int e = 0; e < deg * n && n > 1; e++) {
            int v = rnd_int(1, n - 1), d = rnd_int(1, window);
            from[m] = (uint32_t)(v - (d > v ? v : d));
            to[m++] = (uint32_t)v;
        }
    } else {
        for (int v = 1; v < n; v++) {
            int lo = v > window ? v - window : 0, got = 0;
            uint32_t chosen[8];
            while (got < deg && got < v - lo) {
                uint32_t u = (uint32_t)rnd_int(lo, v - 1);
                int dup = 0;
                for (int i = 0; i < got; i++)
                    dup |= chosen[i] == u;
                if (!dup) {
                    chosen[got++] = u;
                    from[m] = u;
                    to[m++] = (uint32_t)v;
                }
            }
        }
    }
    if (shuffle)
        shuffle_dag(n, w, m, from, to);
    return m;
}

/* The shapes: local window, wide window with big kernels, uniform random
 * with its edges in random order, local random pairs. */
static const struct {
    int window, deg, pairs, shuffle, wmax;
} shapes[] = {{4, 3, 0, 0, 64}, {8, 3, 0, 0, 1000}, {1000, 3, 0, 1, 64},
              {4, 3, 1, 0, 64}, {6, 2, 1, 1, 9}};

/* A medium DAG of shape sh with n kernels in d (the windows scaled for
 * medium sizes: 16 times the small ones, the uniform shape's all of
 * nmax), its successor lists built; returns its number of edges. */
static size_t medium_shaped(medium *d, int sh, int n, int nmax)
{
    int window = shapes[sh].window * (sh == 2 ? nmax : 16);
    size_t m = shaped_dag(n, window, shapes[sh].deg, shapes[sh].pairs,
                          shapes[sh].shuffle, shapes[sh].wmax, d->w, d->from,
                          d->to);
    to_csr(d->ss, d->succ, d->cur, n, m, d->from, d->to);
    return m;
}

/* A small DAG: the public entry and the flow by each method and the
 * earlier algorithm (flow_only) all give the brute-force K. */
static void match_brute_force(int n, const int64_t *w, size_t m,
                              const uint32_t *from, const uint32_t *to,
                              int it, const char *what, int which)
{
    int64_t expect = brute_antichain(n, w, m, from, to), k = -1;
    mmm_error err;
    cr_assert_eq(mmm__max_antichain(&k, NULL, (size_t)n, w, m, from, to,
                                    &err),
                 0, "%s", err.message);
    cr_assert_eq(k, expect, "iteration %d (%s %d): K %lld, brute force %lld",
                 it, what, which, (long long)k, (long long)expect);
    cr_assert_eq(flow_only(n, w, m, from, to), expect,
                 "iteration %d (%s %d)", it, what, which);
}

Test(antichain, benchmark_shapes_match_brute_force)
{
    rng_state = 0x2545f4914f6cdd1du;
    for (int it = 0; it < 500; it++) {
        int sh = it % (int)(sizeof shapes / sizeof *shapes);
        int n = rnd_int(1, 16);
        int64_t w[MAXN];
        uint32_t from[64], to[64];
        size_t m = shaped_dag(n, shapes[sh].window, shapes[sh].deg,
                              shapes[sh].pairs, shapes[sh].shuffle,
                              shapes[sh].wmax, w, from, to);
        match_brute_force(n, w, m, from, to, it, "shape", sh);
    }
}

/* Medium DAGs of every shape: the flow, the public entry and the earlier
 * algorithm agree. */
Test(antichain, benchmark_shapes_match_the_earlier_flow)
{
    enum { NMAX = 6000 };
    medium d = medium_alloc(NMAX, 3 * NMAX);
    int64_t *w = d.w;
    uint32_t *from = d.from, *to = d.to, *ss = d.ss, *succ = d.succ;
    uint32_t *cur = d.cur;
    rng_state = 0xda3e39cb94b95bdbu;
    for (int it = 0; it < 40; it++) {
        int sh = it % (int)(sizeof shapes / sizeof *shapes);
        int n = rnd_int(500, NMAX);
        size_t m = medium_shaped(&d, sh, n, NMAX);
        int64_t expect = -1, k = -2, kp = -3;
        mmm_error err;
        cr_assert_eq(prev_antichain_flow(&expect, (size_t)n, w, ss, succ,
                                         &err),
                     0);
        cr_assert_eq(mmm__antichain_flow(&k, (size_t)n, w, ss, succ, &err),
                     0);
        /* each method, then each with one flow flag per kernel and the
         * predecessor lists given (increasing) */
        preds_of(d.ps, d.pred, cur, n, ss, succ, 0);
        for (int i = 0; i < 2 * (MMM__FLOW_NARROW - MMM__FLOW_BFS + 1);
             i++) {
            int64_t km = -4;
            int mode = MMM__FLOW_BFS + i / 2;
            cr_assert_eq(mmm__antichain_flow_mode(
                             &km, (size_t)n, w, ss, succ, i % 2 ? d.ps : NULL,
                             i % 2 ? d.pred : NULL,
                             mode | (i % 2 ? MMM__FLOW_ONE_FLAG : 0), &err),
                         0);
            cr_assert_eq(km, expect, "iteration %d (shape %d), method %d%s: "
                         "K %lld, earlier flow %lld", it, sh, mode,
                         i % 2 ? " (one flag)" : "", (long long)km,
                         (long long)expect);
        }
        cr_assert_eq(mmm__max_antichain(&kp, NULL, (size_t)n, w, m, from, to,
                                       &err),
                     0, "%s", err.message);
        cr_assert_eq(k, expect, "iteration %d (shape %d, %d nodes): K %lld, "
                     "earlier flow %lld", it, sh, n, (long long)k,
                     (long long)expect);
        cr_assert_eq(kp, expect, "iteration %d", it);
    }
    medium_free(&d);
}

/* What a hand-on search that found nothing reached is marked STUCK and
 * skipped by the later ones.  On medium DAGs of every benchmark shape,
 * by each method, with the hand-on budget of the library and cut after 8
 * nodes: after every marking, no STUCK kernel has successors left to
 * join and every residual arc out of a STUCK node ends at a STUCK node
 * (mmm__flow_stats.check_stuck, checked over the whole network); K is the
 * earlier flow's; without the marks (MMM__FLOW_NO_STUCK) nothing is
 * checked and the hand-on searches reach more nodes in all (the marks
 * are skipped), the same K. */
Test(antichain, failed_hand_on_searches_mark_closed_regions)
{
    enum { NMAX = 3000 };
    medium d = medium_alloc(NMAX, 3 * NMAX);
    uint32_t *ss = d.ss, *succ = d.succ;
    uint64_t reached[2] = {0, 0}, checks = 0, short_checks = 0;
    rng_state = 0x510e527fade682d1u;
    for (int it = 0; it < 20; it++) {
        int sh = it % (int)(sizeof shapes / sizeof *shapes);
        int n = rnd_int(1000, NMAX);
        medium_shaped(&d, sh, n, NMAX);
        int64_t expect = -1;
        mmm_error err;
        cr_assert_eq(prev_antichain_flow(&expect, (size_t)n, d.w, ss, succ,
                                         &err),
                     0);
        for (int i = 0; i < 6; i++) {
            int mode = (i % 2 ? MMM__FLOW_BFS : MMM__FLOW_ADAPTIVE) |
                       (i / 2 == 1 ? MMM__FLOW_NO_STUCK : 0) |
                       (i / 2 == 2 ? MMM__FLOW_SHORT_HAND : 0);
            mmm__flow_stats st = {.check_stuck = 1};
            int64_t k = -2;
            cr_assert_eq(mmm__antichain_flow_stats(&k, (size_t)n, d.w, ss,
                                                   succ, NULL, NULL, mode,
                                                   &st, &err),
                         0);
            cr_assert_eq(k, expect, "iteration %d (shape %d), mode %d: K "
                         "%lld, earlier flow %lld", it, sh, mode,
                         (long long)k, (long long)expect);
            cr_assert_eq(st.stuck_errors, 0, "iteration %d (shape %d), "
                         "mode %d: %llu arcs leave STUCK nodes", it, sh,
                         mode, (unsigned long long)st.stuck_errors);
            if (i / 2 == 1)
                cr_assert_eq(st.stuck_checks, 0);
            if (i / 2 < 2)
                reached[i / 2] += st.hand_on_reached;
            if (i / 2 == 0)
                checks += st.stuck_checks;
            if (i / 2 == 2)
                short_checks += st.stuck_checks;
        }
    }
    cr_assert(checks > 0 && short_checks > 0, "STUCK marked %llu and %llu "
              "times", (unsigned long long)checks,
              (unsigned long long)short_checks);
    cr_assert(reached[0] < reached[1], "hand-on searches reached %llu "
              "nodes with STUCK marks, %llu without",
              (unsigned long long)reached[0], (unsigned long long)reached[1]);
    medium_free(&d);
}

/* The global labelling of the labelled search covers only the kernels of
 * the last four longest edges (one for the narrow method) when the index
 * order is topological, all kernels otherwise: on a medium DAG of the
 * wide shape (window 128, weights to 1000), in index order and shuffled,
 * each labelling reaches at most two network nodes per kernel it may
 * cover (the longest edge measured here from the edge list), the labelled
 * search finds paths, every label of every labelling is checked against
 * the residual network (mmm__flow_stats.check_labels: 1 + the least
 * label of the arcs' heads, 0 on free ends), no path of the labelled
 * search sends nothing (it follows residual arcs only), and K is the
 * earlier flow's. */
Test(antichain, labelling_stays_near_the_joining_kernel)
{
    enum { N = 20000, WINDOW = 128 };
    medium d = medium_alloc(N, 3 * N);
    rng_state = 0x9e3779b97f4a7c15u;
    for (int shuffle = 0; shuffle < 2; shuffle++) {
        size_t m =
            shaped_dag(N, WINDOW, 3, 0, shuffle, 1000, d.w, d.from, d.to);
        uint64_t span = 0;
        for (size_t e = 0; e < m; e++)
            if (d.to[e] - d.from[e] > span)
                span = d.to[e] - d.from[e];
        cr_assert(shuffle || (span > WINDOW / 2 && span <= WINDOW));
        to_csr(d.ss, d.succ, d.cur, N, m, d.from, d.to);
        int64_t expect = -1;
        mmm_error err;
        cr_assert_eq(prev_antichain_flow(&expect, N, d.w, d.ss, d.succ, &err),
                     0);
        static const struct {
            int mode, spans;
        } runs[] = {{MMM__FLOW_LABELLED, 4}, {MMM__FLOW_NARROW, 1},
                    {MMM__FLOW_ADAPTIVE, 4}};
        for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
            int64_t k = -2;
            mmm__flow_stats st = {.check_labels = 1};
            cr_assert_eq(mmm__antichain_flow_stats(&k, N, d.w, d.ss, d.succ,
                                                   NULL, NULL, runs[r].mode,
                                                   &st, &err),
                         0);
            cr_assert_eq(k, expect, "mode %d, shuffled %d: K %lld, earlier "
                         "flow %lld", runs[r].mode, shuffle, (long long)k,
                         (long long)expect);
            uint64_t cover = shuffle ? 0 : runs[r].spans * span + 1;
            cr_assert_eq(st.label_kernels, cover, "mode %d: %llu, expected "
                         "%llu", runs[r].mode,
                         (unsigned long long)st.label_kernels,
                         (unsigned long long)cover);
            cr_assert_eq(st.label_errors, 0, "mode %d, shuffled %d: %llu "
                         "labels are not distances to a free end",
                         runs[r].mode, shuffle,
                         (unsigned long long)st.label_errors);
            cr_assert_eq(st.empty_paths, 0, "mode %d, shuffled %d: %llu "
                         "labelled paths sent nothing (a non-residual arc "
                         "followed)", runs[r].mode, shuffle,
                         (unsigned long long)st.empty_paths);
            if (runs[r].mode == MMM__FLOW_ADAPTIVE)
                continue;
            cr_assert(st.labellings > 0 && st.labelled_paths > 0,
                      "mode %d: %llu labellings, %llu labelled paths",
                      runs[r].mode, (unsigned long long)st.labellings,
                      (unsigned long long)st.labelled_paths);
            cr_assert(st.labelled_most <= 2 * (shuffle ? N : cover),
                      "mode %d, shuffled %d: a labelling reached %llu "
                      "network nodes, at most %llu kernels allowed",
                      runs[r].mode, shuffle,
                      (unsigned long long)st.labelled_most,
                      (unsigned long long)(shuffle ? N : cover));
        }
    }
    medium_free(&d);
}

/* --------------------------- adversarial DAGs --------------------------- */

/* Adversarial DAGs of about n nodes (returns the edge count, *pn the node
 * count), edges at most maxm:
 *   0  chains of heavy nodes (weights up to 10^9) crossing a wide layer of
 *      lighter ones: a layer node hangs between two chain positions, so
 *      the largest antichain mixes chain nodes and layer nodes;
 *   1  weights 0 (most nodes, or all);
 *   2  a single node (weight 0 or not);
 *   3  disconnected parts: two to four random DAGs side by side;
 *   4  duplicate edges: each edge of a random DAG one to three times;
 *   5  weights 10^12 and 1 alternating along a window of 3.
 * Node numbers and edge order are shuffled. */
static size_t adversarial(int kind, int n, int *pn, int64_t *w,
                          uint32_t *from, uint32_t *to, size_t maxm)
{
    size_t m = 0;
#define EDGE(a, b)                                                        \
    do {                                                                  \
        if (m < maxm) {                                                   \
            from[m] = (uint32_t)(a);                                      \
            to[m++] = (uint32_t)(b);                                      \
        }                                                                 \
    } while (0)
    if (kind == 2)
        n = 1;
    if (kind == 0 && n >= 4) {
        int c = rnd_int(1, 3), len = n / 2 / c > 1 ? n / 2 / c : 2;
        if (c * len > n - 1)
            c = 1, len = n / 2 > 1 ? n / 2 : 1;
        int layer = n - c * len;
        for (int k = 0; k < c; k++)
            for (int i = 0; i < len; i++) {
                w[k * len + i] = rnd_int(1000000, 1000000000);
                if (i + 1 < len)
                    EDGE(k * len + i, k * len + i + 1);
            }
        for (int t = 0; t < layer; t++) {
            int v = c * len + t, at = rnd_int(0, len - 1);
            w[v] = rnd_int(0, 3) ? rnd_int(1, 300000000) : rnd_int(0, 5);
            for (int k = 0; k < c; k++) { /* between at - 1 and at + 1 */
                if (at > 0 && rnd_int(0, 2))
                    EDGE(k * len + rnd_int(0, at - 1), v);
                if (at + 1 < len && rnd_int(0, 2))
                    EDGE(v, k * len + rnd_int(at + 1, len - 1));
            }
        }
    } else if (kind == 5) {
        for (int v = 0; v < n; v++) {
            w[v] = v % 2 ? 1 : 1000000000000;
            for (int d = 1; d <= 3 && d <= v; d++)
                if (rnd_int(0, 2))
                    EDGE(v - d, v);
        }
    } else {
        int parts = kind == 3 ? rnd_int(2, 4) : 1, lo = 0;
        int dens = rnd_int(5, 60), zeros = kind == 1 ? rnd_int(50, 100) : 0;
        for (int p = 0; p < parts; p++) {
            int hi = p + 1 == parts ? n : lo + n / parts;
            for (int i = lo; i < hi; i++)
                for (int j = i + 1; j < hi; j++)
                    if (rnd_int(0, 99) < dens && (hi - lo < 40 ||
                                                  j - i < 40)) {
                        int times = kind == 4 ? rnd_int(1, 3) : 1;
                        while (times--)
                            EDGE(i, j);
                    }
            lo = hi;
        }
        for (int v = 0; v < n; v++)
            w[v] = rnd_int(0, 99) < zeros ? 0 : rnd_int(1, 1000);
    }
#undef EDGE
    shuffle_dag(n, w, m, from, to);
    *pn = n;
    return m;
}

Test(antichain, adversarial_dags_match_brute_force_and_the_earlier_flow)
{
    rng_state = 0x853c49e6748fea9bu;
    for (int it = 0; it < 600; it++) {
        int kind = it % 6, n;
        int64_t w[MAXN];
        uint32_t from[1024], to[1024];
        size_t m = adversarial(kind, rnd_int(1, 16), &n, w, from, to, 1024);
        match_brute_force(n, w, m, from, to, it, "kind", kind);
    }
}

/* The same kinds, medium: every method of the flow and the public entry
 * agree with the earlier algorithm. */
Test(antichain, adversarial_medium_dags_match_the_earlier_flow)
{
    enum { NMAX = 3000, MMAX = 40 * NMAX };
    medium d = medium_alloc(NMAX, MMAX);
    int64_t *w = d.w;
    uint32_t *from = d.from, *to = d.to, *ss = d.ss, *succ = d.succ;
    uint32_t *cur = d.cur;
    rng_state = 0x6a09e667f3bcc909u;
    for (int it = 0; it < 36; it++) {
        int kind = it % 6, n;
        size_t m = adversarial(kind, rnd_int(200, NMAX), &n, w, from, to,
                               MMAX);
        to_csr(ss, succ, cur, n, m, from, to);
        int64_t expect = -1, k = -2;
        mmm_error err;
        cr_assert_eq(prev_antichain_flow(&expect, (size_t)n, w, ss, succ,
                                         &err),
                     0);
        /* each method, then each with one flow flag per kernel and the
         * predecessor lists given (decreasing: the flow builds its own) */
        preds_of(d.ps, d.pred, cur, n, ss, succ, 1);
        for (int i = 0; i < 2 * (MMM__FLOW_NARROW + 1); i++) {
            int mode = i / 2;
            cr_assert_eq(mmm__antichain_flow_mode(
                             &k, (size_t)n, w, ss, succ, i % 2 ? d.ps : NULL,
                             i % 2 ? d.pred : NULL,
                             mode | (i % 2 ? MMM__FLOW_ONE_FLAG : 0), &err),
                         0);
            cr_assert_eq(k, expect, "iteration %d (kind %d, %d nodes), "
                         "method %d%s: K %lld, earlier flow %lld", it, kind,
                         n, mode, i % 2 ? " (one flag)" : "", (long long)k,
                         (long long)expect);
        }
        cr_assert_eq(mmm__max_antichain(&k, NULL, (size_t)n, w, m, from, to,
                                        &err),
                     0, "%s", err.message);
        cr_assert_eq(k, expect, "iteration %d (kind %d): public entry",
                     it, kind);
    }
    medium_free(&d);
}

Test(antichain, series_parallel_dags_take_the_composition)
{
    rng_state = 12345;
    for (int it = 0; it < 400; it++) {
        uint32_t from[256], to[256];
        size_t m;
        int n = random_ttsp(rnd_int(2, 14), &m, from, to);
        int64_t w[MAXN];
        for (int i = 0; i < n; i++)
            w[i] = rnd_int(0, 9);
        int64_t expect = brute_antichain(n, w, m, from, to), k = -1;
        mmm_k_method meth = MMM_K_NONE;
        mmm_error err;
        cr_assert_eq(mmm__max_antichain(&k, &meth, (size_t)n, w, m, from, to,
                                        &err),
                     0);
        cr_assert_eq(meth, MMM_K_SERIES_PARALLEL, "iteration %d", it);
        cr_assert_eq(k, expect, "iteration %d: %lld vs %lld", it,
                     (long long)k, (long long)expect);
        /* The flow agrees on the same graphs. */
        cr_assert_eq(flow_only(n, w, m, from, to), expect);
    }
}

/* The greedy part takes first from the predecessor with the most to
 * spare (free ends less what x wants for each successor it has left to
 * join), ties to the latest; on three hand examples the other choice
 * costs a breadth-first path later (kernels in index order, weights in
 * brackets; the expected K by brute force):
 * - p1 [1] -> x, y; p2 [3] -> x, a, b; x, y, a, b [1]: x takes p2's end
 *   (spare 3 - 3 against 1 - 2), and y then p1's; taking p1's (it has
 *   the fewer successors left) sends y back along p1 -> x to p2;
 * - p1 [3] -> x, s1, s2, s3; p2 [2] -> x, t; x, s, t [1]: p2's end
 *   (2 - 2 against 3 - 4); p1's (it has the more ends) leaves s3 short;
 * - p1 [2] -> x, y; p2 [2] -> x, z; x [1], y, z [2]: spares tie, p2 is
 *   the later; p1's leaves y short (a path back through x to p2).
 * And the second with x weighing 2^61: p1's spare overflows (4 * 2^61)
 * and ranks last, without the undefined product (UBSan build). */
Test(antichain, greedy_takes_from_the_predecessor_with_most_to_spare)
{
    static const struct {
        int n;
        size_t m;
        int64_t w[8];
        uint32_t from[8], to[8];
    } ex[] = {
        {6, 5, {1, 3, 1, 1, 1, 1}, {0, 1, 0, 1, 1}, {2, 2, 3, 4, 5}},
        {7, 6, {3, 2, 1, 1, 1, 1, 1}, {0, 1, 0, 0, 0, 1}, {2, 2, 3, 4, 5, 6}},
        {5, 4, {2, 2, 1, 2, 2}, {0, 1, 0, 1}, {2, 2, 3, 4}},
        {7, 6, {3, 2, (int64_t)1 << 61, 1, 1, 1, 1}, {0, 1, 0, 0, 0, 1},
         {2, 2, 3, 4, 5, 6}},
    };
    for (size_t i = 0; i < sizeof ex / sizeof *ex; i++) {
        uint32_t ss[8], succ[8], cur[8];
        to_csr(ss, succ, cur, ex[i].n, ex[i].m, ex[i].from, ex[i].to);
        int64_t k = -1, expect = brute_antichain(ex[i].n, ex[i].w, ex[i].m,
                                                 ex[i].from, ex[i].to);
        mmm__flow_stats st = {0};
        mmm_error err;
        cr_assert_eq(mmm__antichain_flow_stats(&k, (size_t)ex[i].n, ex[i].w,
                                               ss, succ, NULL, NULL,
                                               MMM__FLOW_BFS, &st, &err),
                     0);
        cr_assert_eq(k, expect, "example %zu: K %lld, brute force %lld", i,
                     (long long)k, (long long)expect);
        cr_assert_eq(st.bfs_paths, 0, "example %zu: %llu paths", i,
                     (unsigned long long)st.bfs_paths);
    }
}

Test(antichain, hand_examples)
{
    /* The N graph a -> c, b -> c, b -> d (dags/not_series_parallel.xml). */
    uint32_t nf[] = {0, 1, 1}, nt[] = {2, 2, 3};
    int64_t nw[] = {5, 1, 1, 5}, k;
    mmm_k_method meth;
    cr_assert_eq(mmm__max_antichain(&k, &meth, 4, nw, 3, nf, nt, NULL), 0);
    cr_assert_eq(k, 10);
    cr_assert_eq(meth, MMM_K_FLOW);
    /* Diamond: the two middle kernels. */
    uint32_t df[] = {0, 0, 1, 2}, dt[] = {1, 2, 3, 3};
    int64_t dw[] = {1, 2, 3, 1};
    cr_assert_eq(mmm__max_antichain(&k, &meth, 4, dw, 4, df, dt, NULL), 0);
    cr_assert_eq(k, 5);
    cr_assert_eq(meth, MMM_K_SERIES_PARALLEL);
    /* No edges: everything; no nodes: 0. */
    cr_assert_eq(mmm__max_antichain(&k, &meth, 4, dw, 0, NULL, NULL, NULL), 0);
    cr_assert_eq(k, 7);
    cr_assert_eq(mmm__max_antichain(&k, &meth, 0, NULL, 0, NULL, NULL, NULL),
                 0);
    cr_assert_eq(k, 0);
    /* A zero-weight kernel still orders its neighbours: a -> z -> b. */
    uint32_t zf[] = {0, 1}, zt[] = {1, 2};
    int64_t zw[] = {3, 0, 4};
    cr_assert_eq(mmm__max_antichain(&k, NULL, 3, zw, 2, zf, zt, NULL), 0);
    cr_assert_eq(k, 4);
}

Test(antichain, bad_arguments)
{
    uint32_t f[] = {0, 1}, t[] = {1, 0};
    int64_t w[] = {1, 1}, k;
    mmm_error err;
    cr_assert_eq(mmm__max_antichain(&k, NULL, 2, w, 2, f, t, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "cycle"));
    uint32_t f2[] = {0}, t2[] = {5};
    cr_assert_eq(mmm__max_antichain(&k, NULL, 2, w, 1, f2, t2, &err),
                 MMM_EINVAL);
    int64_t neg[] = {1, -1};
    cr_assert_eq(mmm__max_antichain(&k, NULL, 2, neg, 0, NULL, NULL, &err),
                 MMM_EINVAL);
    int64_t big[] = {INT64_MAX, 1};
    cr_assert_eq(mmm__max_antichain(&k, NULL, 2, big, 0, NULL, NULL, &err),
                 MMM_EOVERFLOW);
}

/* ------------- programs: expanded thread-block DAG brute force ------------- */

typedef struct gen_kernel {
    int repeat;     /* 0..3 */
    int indexed;    /* the counts use the index i */
    int nclasses;
    int a[3], b[3]; /* count of class c in launch j: max(0, a + b*j) or a */
} gen_kernel;

static int64_t gen_count(const gen_kernel *g, int c, int j)
{
    if (!g->indexed)
        return g->a[c];
    int64_t v = g->a[c] + (int64_t)g->b[c] * j;
    return v > 0 ? v : 0;
}

/* Build the program; kernels are declared in a shuffled order and some
 * edges name kernels declared later. */
static mmm_program *build_program(int nk, const gen_kernel *g, size_t m,
                                  const uint32_t *from, const uint32_t *to)
{
    mmm_program *p = NULL;
    mmm_error err;
    cr_assert_eq(mmm_program_new(&p, "gen.xml", NULL, &err), 0);
    cr_assert_eq(mmm_program_add_param(p, "U", "3", NULL, NULL, 2, &err), 0);
    size_t half = m / 2;
    char a[16], b[16];
    for (size_t e = 0; e < half; e++) { /* forward references */
        snprintf(a, sizeof a, "k%u", from[e]);
        snprintf(b, sizeof b, "k%u", to[e]);
        cr_assert_eq(mmm_program_add_edge(p, a, b, 3, &err), 0);
    }
    for (int k = 0; k < nk; k++) {
        char id[16], rep[16], cnt[3][48];
        snprintf(id, sizeof id, "k%d", k);
        snprintf(rep, sizeof rep, "%d", g[k].repeat);
        mmm_kernel_spec s;
        memset(&s, 0, sizeof s);
        s.id = id;
        s.line = 10 + k;
        s.repeat = rep;
        s.index = g[k].indexed ? "i" : NULL;
        cr_assert_eq(mmm_program_add_kernel(p, &s, NULL, &err), 0, "%s",
                     err.message);
        for (int c = 0; c < g[k].nclasses; c++) {
            if (g[k].indexed)
                snprintf(cnt[c], sizeof cnt[c], "max(0, %d + %d*i)",
                         g[k].a[c], g[k].b[c]);
            else
                snprintf(cnt[c], sizeof cnt[c], "%d", g[k].a[c]);
            mmm_class_spec cs = {.line = 100 + k, .count = cnt[c],
                                 .work = "2", .span = "1", .reads = "1",
                                 .writes = "0",
                                 .access = MMM_ACCESS_COALESCED};
            cr_assert_eq(mmm_program_add_class(p, (size_t)k, &cs, &err), 0,
                         "%s", err.message);
        }
    }
    for (size_t e = half; e < m; e++) {
        snprintf(a, sizeof a, "k%u", from[e]);
        snprintf(b, sizeof b, "k%u", to[e]);
        cr_assert_eq(mmm_program_add_edge(p, a, b, 4, &err), 0);
    }
    cr_assert_eq(mmm_program_finalize(p, &err), 0, "%s", err.message);
    return p;
}

/* Expand: one node per launch (a kernel with repeat 0 keeps one empty
 * node that passes its dependencies), a chain inside each kernel, each
 * kernel edge from the last launch to the first. */
typedef struct expanded {
    int n;
    int64_t w[MAXN];
    uint32_t from[400], to[400];
    size_t m;
} expanded;

static void expand(expanded *x, int nk, const gen_kernel *g, size_t m,
                   const uint32_t *from, const uint32_t *to)
{
    int first[16], last[16];
    x->n = 0;
    x->m = 0;
    for (int k = 0; k < nk; k++) {
        int copies = g[k].repeat ? g[k].repeat : 1;
        first[k] = x->n;
        for (int j = 1; j <= copies; j++) {
            int64_t blocks = 0;
            for (int c = 0; c < g[k].nclasses && g[k].repeat; c++)
                blocks += gen_count(&g[k], c, j);
            if (j > 1) {
                x->from[x->m] = (uint32_t)(x->n - 1);
                x->to[x->m++] = (uint32_t)x->n;
            }
            x->w[x->n++] = blocks;
        }
        last[k] = x->n - 1;
    }
    for (size_t e = 0; e < m; e++) {
        x->from[x->m] = (uint32_t)last[from[e]];
        x->to[x->m++] = (uint32_t)first[to[e]];
    }
}

/* Longest path of the expanded DAG counting launches with blocks. */
static int64_t expanded_L(const expanded *x)
{
    int64_t d[MAXN], best = 0;
    /* Launch numbers follow kernels, not a topological order: relax n
     * times (Bellman-Ford style), fine for 40 nodes. */
    for (int i = 0; i < x->n; i++)
        d[i] = x->w[i] > 0;
    for (int r = 0; r < x->n; r++)
        for (size_t e = 0; e < x->m; e++) {
            int64_t c = d[x->from[e]] + (x->w[x->to[e]] > 0);
            if (c > d[x->to[e]])
                d[x->to[e]] = c;
        }
    for (int i = 0; i < x->n; i++)
        if (d[i] > best)
            best = d[i];
    return best;
}

static void check_program(int nk, const gen_kernel *g, size_t m,
                          const uint32_t *from, const uint32_t *to,
                          int *flow_seen, int *sp_seen)
{
    mmm_program *p = build_program(nk, g, m, from, to);
    mmm_instance *inst = NULL;
    mmm_metrics met;
    mmm_error err;
    expanded x;
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&met, inst, 0, &err), 0);
    expand(&x, nk, g, m, from, to);
    int64_t N = 0;
    for (int i = 0; i < x.n; i++)
        N += x.w[i];
    cr_assert_eq(met.N, N);
    cr_assert_eq(met.L, expanded_L(&x));
    int64_t expect = brute_antichain(x.n, x.w, x.m, x.from, x.to);
    cr_assert_eq(met.K, expect, "K %lld, brute force %lld (%d kernels)",
                 (long long)met.K, (long long)expect, nk);
    *flow_seen += met.k_method == MMM_K_FLOW;
    *sp_seen += met.k_method == MMM_K_SERIES_PARALLEL;
    mmm_metrics_dispose(&met);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

static void random_kernels(int nk, gen_kernel *g)
{
    for (int k = 0; k < nk; k++) {
        g[k].repeat = rnd_int(0, 9) == 0 ? 0 : rnd_int(1, 3);
        g[k].indexed = rnd_int(0, 1);
        g[k].nclasses = rnd_int(1, 3);
        for (int c = 0; c < 3; c++) {
            g[k].a[c] = rnd_int(0, 4);
            g[k].b[c] = rnd_int(-2, 2);
        }
    }
}

Test(antichain, programs_with_repeats_and_classes)
{
    rng_state = 777;
    int flow_seen = 0, sp_seen = 0;
    for (int it = 0; it < 300; it++) {
        gen_kernel g[16];
        uint32_t from[256], to[256];
        size_t m;
        int nk;
        if (it % 2) {
            nk = rnd_int(1, 12);
            m = random_dag(nk, rnd_int(5, 60), from, to);
        } else {
            nk = random_ttsp(rnd_int(2, 12), &m, from, to);
        }
        random_kernels(nk, g);
        check_program(nk, g, m, from, to, &flow_seen, &sp_seen);
    }
    cr_assert(flow_seen > 30 && sp_seen > 30, "flow %d, sp %d", flow_seen,
              sp_seen);
}

/* --------------------------- large graphs --------------------------- */

Test(antichain, large_graphs_need_no_recursion, .timeout = 120)
{
    enum { N = 100000 };
    int64_t *w = malloc(N * sizeof *w);
    uint32_t *from = malloc(3 * N * sizeof *from);
    uint32_t *to = malloc(3 * N * sizeof *to);
    int64_t k;
    mmm_k_method meth;
    mmm_error err;
    cr_assert(w && from && to);
    rng_state = 4242;
    /* A chain of 10^5 kernels: K = the largest weight, by both methods. */
    int64_t maxw = 0;
    for (uint32_t v = 0; v < N; v++) {
        w[v] = rnd_int(1, 50);
        maxw = w[v] > maxw ? w[v] : maxw;
        if (v + 1 < N) {
            from[v] = v;
            to[v] = v + 1;
        }
    }
    cr_assert_eq(mmm__max_antichain(&k, &meth, N, w, N - 1, from, to, &err),
                 0);
    cr_assert_eq(k, maxw);
    cr_assert_eq(meth, MMM_K_SERIES_PARALLEL);
    {
        uint32_t *ss = malloc((N + 1) * sizeof *ss);
        uint32_t *succ = malloc(N * sizeof *succ);
        for (uint32_t v = 0; v <= N; v++)
            ss[v] = v < N ? v : N - 1;
        for (uint32_t v = 0; v + 1 < N; v++)
            succ[v] = v + 1;
        cr_assert_eq(mmm__antichain_flow(&k, N, w, ss, succ, &err), 0);
        cr_assert_eq(k, maxw);
        free(ss);
        free(succ);
    }
    /* Fork-join: 0 -> v -> N-1 for every middle v: K = the middle sum. */
    int64_t mid = 0;
    size_t m = 0;
    for (uint32_t v = 1; v + 1 < N; v++) {
        from[m] = 0, to[m++] = v;
        from[m] = v, to[m++] = N - 1;
        mid += w[v];
    }
    cr_assert_eq(mmm__max_antichain(&k, &meth, N, w, m, from, to, &err), 0);
    cr_assert_eq(k, mid);
    cr_assert_eq(meth, MMM_K_SERIES_PARALLEL);
    /* A random DAG: 3 predecessors among the 1000 kernels before. */
    m = 0;
    for (uint32_t v = 1; v < N; v++)
        for (int e = 0; e < 3; e++) {
            uint32_t lo = v > 1000 ? v - 1000 : 0;
            from[m] = lo + (uint32_t)(rnd() % (v - lo));
            to[m++] = v;
        }
    cr_assert_eq(mmm__max_antichain(&k, &meth, N, w, m, from, to, &err), 0);
    cr_assert_eq(meth, MMM_K_FLOW);
    /* Sinks are pairwise incomparable: K is at least their weight. */
    {
        char *has_succ = calloc(N, 1);
        int64_t sinks = 0;
        for (size_t e = 0; e < m; e++)
            has_succ[from[e]] = 1;
        for (uint32_t v = 0; v < N; v++)
            if (!has_succ[v])
                sinks += w[v];
        cr_assert_geq(k, sinks);
        free(has_succ);
    }
    free(w);
    free(from);
    free(to);
}
