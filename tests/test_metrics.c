/* test_metrics.c: W, S, O, N, L, C, K, the critical paths and both bounds
 * on small programs computed by hand (the numbers are in the comments). */
#include <criterion/criterion.h>
#include <string.h>

#include "mmm/mmm.h"

typedef struct kdef {
    const char *id, *repeat, *blocks, *work, *span, *reads, *writes;
} kdef;

typedef struct run {
    mmm_program *p;
    mmm_instance *inst;
    mmm_metrics m;
    mmm_error err;
    int rc;
} run;

/* Build from kernel and edge tables ("a>b" strings), evaluate, measure. */
static void build(run *r, const char *const *params, const kdef *k, size_t nk,
                  const char *const *edges, unsigned flags)
{
    mmm_error err;
    memset(r, 0, sizeof *r);
    cr_assert_eq(mmm_program_new(&r->p, "m.xml", NULL, &err), 0);
    for (size_t i = 0; params && params[i]; i += 2)
        cr_assert_eq(mmm_program_add_param(r->p, params[i], params[i + 1],
                                           NULL, NULL, 1, &err),
                     0);
    for (size_t i = 0; i < nk; i++) {
        mmm_kernel_spec s;
        memset(&s, 0, sizeof s);
        s.id = k[i].id;
        s.line = (long)i + 2;
        s.repeat = k[i].repeat;
        s.blocks = k[i].blocks;
        s.work = k[i].work;
        s.span = k[i].span;
        s.reads = k[i].reads;
        s.writes = k[i].writes;
        cr_assert_eq(mmm_program_add_kernel(r->p, &s, NULL, &err), 0, "%s",
                     err.message);
    }
    for (size_t i = 0; edges && edges[i]; i++) {
        char a[32], b[32];
        const char *gt = strchr(edges[i], '>');
        memcpy(a, edges[i], (size_t)(gt - edges[i]));
        a[gt - edges[i]] = '\0';
        strcpy(b, gt + 1);
        cr_assert_eq(mmm_program_add_edge(r->p, a, b, 50, &err), 0);
    }
    cr_assert_eq(mmm_program_finalize(r->p, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&r->inst, r->p, &err), 0);
    cr_assert_eq(mmm_instance_eval(r->inst, NULL, 0, &err), 0, "%s",
                 err.message);
    r->rc = mmm_metrics_compute(&r->m, r->inst, flags, &r->err);
}

static void finish(run *r)
{
    mmm_metrics_dispose(&r->m);
    mmm_instance_free(r->inst);
    mmm_program_free(r->p);
}

static void path_is(const run *r, const uint32_t *path, size_t len,
                    const char *const *ids)
{
    size_t n = 0;
    while (ids[n])
        n++;
    cr_assert_eq(len, n);
    for (size_t i = 0; i < n; i++)
        cr_assert_str_eq(r->p->kernels[path[i]].id, ids[i]);
}

/* a -> b (3 launches) -> c, U = 2, p = 2.
 *        blocks W(B) S(B) r+w O(B)  cost
 *   a      2     3    1    1    2     3
 *   b      4     5    2    2    4     6   (x3)
 *   c      1     7   10    0    0    10
 * W = 6 + 60 + 7 = 73   S = 1 + 6 + 10 = 17   O = 4 + 48 = 52
 * N = 2 + 12 + 1 = 15   L = 1 + 3 + 1 = 5     C = 10   K = 4
 * Graham-Brent (15/2 + 5) 10 = 125; corollary (15/4 + 5) 10 = 87.5 */
Test(metrics, chain)
{
    const char *params[] = {"U", "2", "p", "2", NULL};
    kdef k[] = {{"a", NULL, "2", "3", "1", "1", "0"},
                {"b", "3", "4", "5", "2", "1", "1"},
                {"c", NULL, "1", "7", "10", "0", "0"}};
    const char *edges[] = {"a>b", "b>c", NULL};
    run r;
    build(&r, params, k, 3, edges, 0);
    cr_assert_eq(r.rc, 0);
    cr_assert_float_eq(r.m.W, 73, 0);
    cr_assert_float_eq(r.m.S, 17, 0);
    cr_assert_float_eq(r.m.O, 52, 0);
    cr_assert_eq(r.m.N, 15);
    cr_assert_eq(r.m.L, 5);
    cr_assert_float_eq(r.m.C, 10, 0);
    cr_assert_eq(r.m.K, 4);
    cr_assert_eq(r.m.k_method, MMM_K_SERIES_PARALLEL);
    cr_assert_float_eq(r.m.parallelism, 73.0 / 17.0, 1e-15);
    cr_assert(r.m.has_p);
    cr_assert_eq(r.m.p, 2);
    cr_assert_float_eq(r.m.graham_brent, 125, 1e-12);
    cr_assert_float_eq(r.m.corollary, 87.5, 1e-12);
    const char *all[] = {"a", "b", "c", NULL};
    path_is(&r, r.m.span_path, r.m.span_path_len, all);
    path_is(&r, r.m.l_path, r.m.l_path_len, all);
    finish(&r);
}

/* Diamond a -> {b, c} -> d, no global accesses, no p.
 *   a: 1 block span 1; b: 3 blocks span 5; c: 2 launches of 2 blocks,
 *   span 2; d: 1 block span 1; work 1 per block.
 * S = 1 + max(5, 4) + 1 = 7 (a b d);  L = 1 + max(1, 2) + 1 = 4 (a c d)
 * N = 1 + 3 + 4 + 1 = 9 = W;  C = 5;  K = 3 + 2 = 5 (b and c)
 * corollary (9/5 + 4) 5 = 29; no Graham-Brent without p. */
Test(metrics, diamond)
{
    kdef k[] = {{"a", NULL, "1", "1", "1", "0", "0"},
                {"b", NULL, "3", "1", "5", "0", "0"},
                {"c", "2", "2", "1", "2", "0", "0"},
                {"d", NULL, "1", "1", "1", "0", "0"}};
    const char *edges[] = {"a>b", "a>c", "b>d", "c>d", NULL};
    run r;
    build(&r, NULL, k, 4, edges, 0);
    cr_assert_eq(r.rc, 0);
    cr_assert_float_eq(r.m.W, 9, 0);
    cr_assert_float_eq(r.m.S, 7, 0);
    cr_assert_float_eq(r.m.O, 0, 0);
    cr_assert_eq(r.m.N, 9);
    cr_assert_eq(r.m.L, 4);
    cr_assert_float_eq(r.m.C, 5, 0);
    cr_assert_eq(r.m.K, 5);
    cr_assert(!r.m.has_p);
    cr_assert_float_eq(r.m.graham_brent, 0, 0);
    cr_assert_float_eq(r.m.corollary, 29, 1e-12);
    const char *sp[] = {"a", "b", "d", NULL}, *lp[] = {"a", "c", "d", NULL};
    path_is(&r, r.m.span_path, r.m.span_path_len, sp);
    path_is(&r, r.m.l_path, r.m.l_path_len, lp);
    finish(&r);
}

/* Fork-join: s -> x1..x4 -> t, and z (0 blocks) from s to t.
 * xi has i blocks of span i; s and t one block of span 1.
 * K = 1 + 2 + 3 + 4 = 10, N = 12, L = 3 (z has no block), S = 1 + 4 + 1.
 * With p = 4: (12/4 + 3) 4 = 24; corollary (12/10 + 3) 4 = 16.8. */
Test(metrics, fork_join_with_an_empty_kernel)
{
    const char *params[] = {"p", "4", NULL};
    kdef k[] = {{"s", NULL, "1", "1", "1", "0", "0"},
                {"x1", NULL, "1", "1", "1", "0", "0"},
                {"x2", NULL, "2", "1", "2", "0", "0"},
                {"x3", NULL, "3", "1", "3", "0", "0"},
                {"x4", NULL, "4", "1", "4", "0", "0"},
                {"z", NULL, "0", "1", "100", "0", "0"},
                {"t", NULL, "1", "1", "1", "0", "0"}};
    const char *edges[] = {"s>x1", "s>x2", "s>x3", "s>x4", "s>z", "x1>t",
                           "x2>t", "x3>t", "x4>t", "z>t",  NULL};
    run r;
    build(&r, params, k, 7, edges, 0);
    cr_assert_eq(r.rc, 0);
    cr_assert_eq(r.m.K, 10);
    cr_assert_eq(r.m.N, 12);
    cr_assert_eq(r.m.L, 3);
    cr_assert_float_eq(r.m.S, 6, 0);
    cr_assert_float_eq(r.m.C, 4, 0); /* z's span 100 has no block */
    cr_assert_float_eq(r.m.graham_brent, 24, 1e-12);
    cr_assert_float_eq(r.m.corollary, 16.8, 1e-12);
    finish(&r);
}

/* a -> z -> b with z empty: z still orders a before b, so K = max, not
 * the sum; L = 2. */
Test(metrics, empty_kernel_passes_dependencies)
{
    kdef k[] = {{"a", NULL, "3", "1", "1", "0", "0"},
                {"z", NULL, "0", "1", "1", "0", "0"},
                {"b", NULL, "4", "1", "1", "0", "0"}};
    const char *edges[] = {"a>z", "z>b", NULL};
    run r;
    build(&r, NULL, k, 3, edges, 0);
    cr_assert_eq(r.m.K, 4);
    cr_assert_eq(r.m.L, 2);
    cr_assert_eq(r.m.N, 7);
    finish(&r);
}

/* dags/not_series_parallel.xml: the N graph, its numbers worked out in
 * that file's comment.  K by minimum flow. */
Test(metrics, n_graph)
{
    const char *params[] = {"U", "2", "p", "4", NULL};
    kdef k[] = {{"a", NULL, "5", "2", "2", "1", "1"},
                {"b", NULL, "1", "3", "3", "1", "1"},
                {"c", NULL, "1", "4", "4", "2", "0"},
                {"d", NULL, "5", "1", "1", "0", "1"}};
    const char *edges[] = {"a>c", "b>c", "b>d", NULL};
    run r;
    build(&r, params, k, 4, edges, 0);
    cr_assert_float_eq(r.m.W, 22, 0);
    cr_assert_float_eq(r.m.S, 7, 0);
    cr_assert_float_eq(r.m.O, 38, 0);
    cr_assert_eq(r.m.N, 12);
    cr_assert_eq(r.m.L, 2);
    cr_assert_float_eq(r.m.C, 8, 0);
    cr_assert_eq(r.m.K, 10);
    cr_assert_eq(r.m.k_method, MMM_K_FLOW);
    cr_assert_float_eq(r.m.graham_brent, 40, 1e-12);
    cr_assert_float_eq(r.m.corollary, 25.6, 1e-12);
    const char *sp[] = {"b", "c", NULL};
    path_is(&r, r.m.span_path, r.m.span_path_len, sp);
    finish(&r);
}

Test(metrics, flags)
{
    kdef k[] = {{"a", NULL, "2", "1", "1", "0", "0"}};
    run r;
    build(&r, NULL, k, 1, NULL, MMM_METRICS_NO_K | MMM_METRICS_NO_PATHS);
    cr_assert_eq(r.rc, 0);
    cr_assert_eq(r.m.K, 0);
    cr_assert_eq(r.m.k_method, MMM_K_NONE);
    cr_assert_float_eq(r.m.corollary, 0, 0);
    cr_assert_null(r.m.span_path);
    cr_assert_null(r.m.l_path);
    cr_assert_eq(r.m.N, 2);
    finish(&r);
}

Test(metrics, empty_program)
{
    run r;
    build(&r, NULL, NULL, 0, NULL, 0);
    cr_assert_eq(r.rc, 0);
    cr_assert_eq(r.m.N, 0);
    cr_assert_eq(r.m.K, 0);
    cr_assert_eq(r.m.span_path_len, 0);
    cr_assert_float_eq(r.m.corollary, 0, 0);
    finish(&r);
}

/* Two kernels of 2^62 blocks each: N = 2^63 does not fit. */
Test(metrics, n_overflow)
{
    kdef k[] = {{"a", "2^31", "2^31", "1", "1", "0", "0"},
                {"b", "2^31", "2^31", "1", "1", "0", "0"}};
    run r;
    build(&r, NULL, k, 2, NULL, 0);
    cr_assert_eq(r.rc, MMM_EOVERFLOW);
    cr_assert(strstr(r.err.message, "N "), "%s", r.err.message);
    cr_assert_null(r.m.span_path);
    finish(&r);
}

/* A repeat of 2^40 launches costs what one launch costs, and the numbers
 * stay exact: N = 3 * 2^40, L = 2^40 + 1. */
Test(metrics, huge_repeat_is_exact)
{
    kdef k[] = {{"first", NULL, "5", "1", "1", "0", "0"},
                {"step", "2^40", "3", "1", "1", "0", "0"}};
    const char *edges[] = {"first>step", NULL};
    run r;
    build(&r, NULL, k, 2, edges, 0);
    cr_assert_eq(r.rc, 0);
    cr_assert_eq(r.m.N, 5 + 3 * ((int64_t)1 << 40));
    cr_assert_eq(r.m.L, ((int64_t)1 << 40) + 1);
    cr_assert_eq(r.m.K, 5);
    finish(&r);
}

/* The series-parallel plan is computed once per program and replayed for
 * each evaluation: K follows the parameters. */
Test(metrics, k_follows_parameters_on_one_program)
{
    const char *params[] = {"b", "2", NULL};
    kdef k[] = {{"s", NULL, "1", "1", "1", "0", "0"},
                {"x", NULL, "b", "1", "1", "0", "0"},
                {"y", NULL, "3*b", "1", "1", "0", "0"},
                {"z", "4", "b + 1", "1", "1", "0", "0"},
                {"t", NULL, "1", "1", "1", "0", "0"}};
    const char *edges[] = {"s>x", "s>y", "s>z", "x>t", "y>t", "z>t", NULL};
    run r;
    build(&r, params, k, 5, edges, 0);
    cr_assert_eq(r.m.K, 2 + 6 + 3);
    cr_assert_eq(r.m.k_method, MMM_K_SERIES_PARALLEL);
    for (int64_t b = 0; b < 6; b++) {
        mmm_override ov = {0, mmm_value_int(b)};
        mmm_metrics m;
        cr_assert_eq(mmm_instance_eval(r.inst, &ov, 1, &r.err), 0);
        cr_assert_eq(mmm_metrics_compute(&m, r.inst, 0, &r.err), 0);
        /* x, y and one launch of z side by side, or s, or t */
        int64_t mid = b + 3 * b + (b + 1);
        cr_assert_eq(m.K, mid > 1 ? mid : 1, "b = %lld", (long long)b);
        cr_assert_eq(m.N, 2 + b + 3 * b + 4 * (b + 1));
        mmm_metrics_dispose(&m);
    }
    finish(&r);
}
