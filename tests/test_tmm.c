/*
 * test_tmm.c: the Threaded Many-core Memory model (src/tmm/tmm.c).
 *
 * 1. The model's formulas on small programs built in the test, against
 *    values worked out here (Eq. 2 in both forms, Eq. 3, T*, the thread
 *    limits, the kernel DAG's longest path, launches that differ).
 * 2. The bundled APSP programs (dags/apsp/) against the closed forms of
 *    their DAGs, coded here from the file comments.
 * 3. The TMM paper's analyses (Ma, Agrawal, Chamberlain 2014,):
 *    the orders of T1, T∞, M (growth exponents between n and 2n), the
 *    thresholds T* and the latency thresholds under which each algorithm
 *    runs in its PRAM time (their exponents in X, Z, C), and the orderings
 *    the paper claims over parameter ranges.  The paper's statements are
 *    asymptotic: they are checked up to a constant factor (CONST_BAND) and
 *    through exponents, never as numbers.
 * 4. The command line: --model, JSON keys, errors.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"
#include "model_run.h"
#include "tmm/tmm_internal.h"

#define REL_TOL 1e-12
/* Hidden constants of the paper's O(): a claim "f = Θ(g)" passes when
 * f/g lies in [1/CONST_BAND, CONST_BAND]. */
#define CONST_BAND 16.0

static int within_band(double ratio)
{
    return ratio >= 1.0 / CONST_BAND && ratio <= CONST_BAND;
}

static double lg_ceil(double n) { return ceil(log2(n)); }

/* ------------------------------------------------------------------ */
/* A loaded program (run_open, run_eval: tests/helpers/model_run.h)    */

static mmm_tmm_cost tmm_program(run *r)
{
    mmm_tmm t;
    mmm_error err;
    mmm_tmm_cost c;
    mmm_error_clear(&err);
    cr_assert_eq(mmm_tmm_compute(&t, r->inst, &err), 0, "%s: %s", r->what,
                 err.message);
    c = t.program;
    mmm_tmm_dispose(&t);
    return c;
}

static double param(run *r, const char *name)
{
    int slot = mmm_program_find_param(r->prog, name);
    cr_assert_geq(slot, 0, "no parameter %s", name);
    return r->inst->values[slot].d;
}

/* ------------------------------------------------------------------ */
/* 1. The model on programs built here                                 */

typedef struct kspec {
    const char *id, *repeat, *index, *blocks, *threads, *work, *span, *reads,
        *writes, *shared;
    mmm_access access;
} kspec;

/* Machine parameters as program parameters, then the kernels and edges. */
static void build(run *r, const char *machine[][2], size_t nm,
                  const kspec *ks, size_t nk, const char *edges[][2],
                  size_t ne)
{
    mmm_error err;
    size_t i;
    memset(r, 0, sizeof *r);
    mmm_error_clear(&err);
    cr_assert_eq(mmm_program_new(&r->prog, "built.xml", NULL, &err), 0);
    cr_assert_eq(mmm_program_set_name(r->prog, "built", 1, &err), 0);
    for (i = 0; i < nm; i++)
        cr_assert_eq(mmm_program_add_param(r->prog, machine[i][0], machine[i][1],
                                           NULL, NULL, (long)i + 2, &err),
                     0, "%s", err.message);
    for (i = 0; i < nk; i++) {
        mmm_kernel_spec s;
        memset(&s, 0, sizeof s);
        s.id = ks[i].id;
        s.line = 100 + (long)i;
        s.repeat = ks[i].repeat;
        s.index = ks[i].index;
        s.blocks = ks[i].blocks;
        s.threads = ks[i].threads;
        s.work = ks[i].work;
        s.span = ks[i].span;
        s.reads = ks[i].reads;
        s.writes = ks[i].writes;
        s.shared = ks[i].shared;
        s.access = ks[i].access;
        cr_assert_eq(mmm_program_add_kernel(r->prog, &s, NULL, &err), 0, "%s",
                     err.message);
    }
    for (i = 0; i < ne; i++)
        cr_assert_eq(mmm_program_add_edge(r->prog, edges[i][0], edges[i][1],
                                          200 + (long)i, &err), 0);
    cr_assert_eq(mmm_program_finalize(r->prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&r->inst, r->prog, &err), 0);
    cr_assert_eq(mmm_instance_eval(r->inst, NULL, 0, &err), 0, "%s", err.message);
    snprintf(r->what, sizeof r->what, "built");
}

static const char *small_machine[][2] = {
    {"L", "100"}, {"P", "8"}, {"C", "4"}, {"Z", "64"}, {"Q", "2"},
    {"X", "6"}, {"U", "1"},
};
#define NSMALL (sizeof small_machine / sizeof small_machine[0])

Test(tmm_model, transactions_and_thread_limits)
{
    mmm_tmm_machine m = {100, 8, 4, 64, 2, 6};
    mmm_tmm_limit lim;
    /* Coalesced: ceil(threads (r+w) / C) per block. */
    cr_expect_eq(mmm__tmm_transactions(3, 10, 1, 4, MMM_ACCESS_COALESCED), 9); /* 3 ceil(10/4) */
    cr_expect_eq(mmm__tmm_transactions(1, 256, 1.125 + 1, 32, MMM_ACCESS_COALESCED), 17);
    cr_expect_eq(mmm__tmm_transactions(2, 10, 1.5, 4, MMM_ACCESS_IRREGULAR), 30);
    cr_expect_eq(mmm__tmm_transactions(0, 10, 1, 4, MMM_ACCESS_COALESCED), 0);
    cr_expect_eq(mmm__tmm_transactions(5, 10, 0, 4, MMM_ACCESS_IRREGULAR), 0);
    /* T = min(X, Z/(Q s), threads/P). */
    cr_expect_eq(mmm__tmm_threads_per_core(&m, 1000, 0, &lim), 6);
    cr_expect_eq(lim, MMM_TMM_LIMIT_X);
    cr_expect_eq(mmm__tmm_threads_per_core(&m, 1000, 8, &lim), 4); /* 64/(2 8) */
    cr_expect_eq(lim, MMM_TMM_LIMIT_MEMORY);
    cr_expect_eq(mmm__tmm_threads_per_core(&m, 20, 8, &lim), 2.5); /* 20/8 */
    cr_expect_eq(lim, MMM_TMM_LIMIT_THREADS);
    cr_expect_eq(mmm__tmm_threads_per_core(&m, 0, 8, &lim), 0);
    cr_expect_eq(lim, MMM_TMM_LIMIT_NONE);
    cr_expect_str_eq(mmm_tmm_term_name(MMM_TMM_LATENCY), "latency");
    cr_expect_str_eq(mmm_tmm_limit_name(MMM_TMM_LIMIT_MEMORY), "memory");
}

/* Diamond a -> {b, c} -> d on the small machine (L=100 P=8 C=4 Z=64 Q=2 X=6):
 *   a: 2 blocks x 16 threads, W(B)=64, S=4, r+w=2 coalesced, shared 0
 *      one launch: W=128 S=4 M=2 ceil(32/4)=16; threads 32: T=min(6, 32/8=4)=4
 *      lat = 16 100/(4 8) = 50; time = max(16, 4, 50) = 50
 *   b: x3, 4 blocks x 8 threads, W(B)=800, S=100, r=1 irregular, shared 4
 *      launch: W=3200 S=100 M=32; threads 32, T=min(6, 64/(2 4)=8, 4)=4
 *      lat = 32 100/32 = 100; time = max(400, 100, 100) = 400; x3: 1200
 *   c: 1 block x 64 threads, W=64, S=1, r=2 w=2 coalesced, shared 2
 *      M = ceil(256/4) = 64; T = min(6, 64/4 = 16, 8) = 6; lat = 64 100/48
 *      = 133.33; time = 133.33
 *   d: 1 block x 8 threads, no memory: W=8 S=1, T=min(6, 1)=1, time = 1 */
static const kspec diamond[] = {
    {"a", NULL, NULL, "2", "16", "64", "4", "1", "1", NULL, MMM_ACCESS_COALESCED},
    {"b", "3", NULL, "4", "8", "800", "100", "1", "0", "4", MMM_ACCESS_IRREGULAR},
    {"c", NULL, NULL, "1", "64", "64", "1", "2", "2", "2", MMM_ACCESS_COALESCED},
    {"d", NULL, NULL, "1", "8", "8", "1", "0", "0", NULL, MMM_ACCESS_COALESCED},
};
static const char *diamond_edges[][2] = {{"a", "b"}, {"a", "c"}, {"b", "d"}, {"c", "d"}};

Test(tmm_model, diamond_by_hand)
{
    run r;
    mmm_tmm t;
    mmm_error err;
    build(&r, small_machine, NSMALL, diamond, 4, diamond_edges, 4);
    cr_assert_eq(mmm_tmm_compute(&t, r.inst, &err), 0, "%s", err.message);
    const mmm_tmm_cost *a = &t.kernels[0], *b = &t.kernels[1],
                       *c = &t.kernels[2], *d = &t.kernels[3], *g = &t.program;
    cr_expect_eq(a->M, 16);
    cr_expect_eq(a->T, 4);
    cr_expect_eq(a->limit, MMM_TMM_LIMIT_THREADS);
    cr_expect_eq(a->TP, 50);
    cr_expect_eq(a->dominant, MMM_TMM_LATENCY);
    cr_expect_eq(b->T1, 9600);
    cr_expect_eq(b->Tinf, 300);
    cr_expect_eq(b->M, 96);
    cr_expect_eq(b->T, 4);
    cr_expect_eq(b->latency_term, 300);
    cr_expect_eq(b->TP, 1200);
    cr_expect_eq(b->dominant, MMM_TMM_WORK);
    cr_expect_eq(c->M, 64);
    cr_expect_eq(c->T, 6);
    cr_expect_eq(c->limit, MMM_TMM_LIMIT_X);
    cr_expect(close_rel(c->TP, 6400.0 / 48, REL_TOL));
    cr_expect_eq(d->M, 0);
    cr_expect_eq(d->T, 1);
    cr_expect_eq(d->TP, 1);
    cr_expect_eq(d->dominant, MMM_TMM_WORK);
    /* Program: the longest path a -> b -> d = 50 + 1200 + 1 = 1251. */
    cr_expect_eq(g->TP, 1251);
    cr_assert_eq(t.path_len, 3);
    cr_expect_eq(t.path[0], 0);
    cr_expect_eq(t.path[1], 1);
    cr_expect_eq(t.path[2], 3);
    /* Totals: T1 = 128 + 9600 + 64 + 8, Tinf = 4 + 300 + 1, M = 176. */
    cr_expect_eq(g->T1, 9800);
    cr_expect_eq(g->Tinf, 305);
    cr_expect_eq(g->M, 176);
    /* Latency term: Σ M_k L/(T_k P) = 50 + 300 + 133.33 = 483.33; T is the
     * M-weighted harmonic mean M / Σ(M_k/T_k) = 176/(4 + 24 + 64/6). */
    cr_expect(close_rel(g->latency_term, 50 + 300 + 6400.0 / 48, REL_TOL));
    cr_expect(close_rel(g->T, 176 / (4 + 24 + 64.0 / 6), REL_TOL));
    cr_expect(close_rel(g->latency_term, g->M * 100 / (g->T * 8), REL_TOL));
    /* Eq. (2): max(T1/P = 1225, Tinf = 305, 483.33) = 1225: work. */
    cr_expect_eq(g->TP_global, 1225);
    cr_expect_eq(g->pram, 1225);
    cr_expect_eq(g->dominant, MMM_TMM_WORK);
    cr_expect(close_rel(g->speedup, 8, REL_TOL));
    cr_expect(close_rel(g->Tstar, 176.0 * 100 / 9800, REL_TOL));
    cr_expect_eq(g->words, 64 + 32 * 3 + 256);
    mmm_tmm_dispose(&t);
    run_close(&r);
}

/* Eq. (1)-(3) and the PRAM limit of the TMM paper, on random machines and the diamond. */
Test(tmm_model, equations_2_and_3_and_the_pram_limit)
{
    static const char *names[] = {"L", "P", "C", "Z", "Q", "X"};
    run r;
    unsigned seed = 12345;
    int it;
    build(&r, small_machine, NSMALL, diamond, 4, diamond_edges, 4);
    for (it = 0; it < 200; it++) {
        char defs[256];
        double v[6];
        int i;
        for (i = 0; i < 6; i++) {
            seed = seed * 1103515245u + 12345u;
            v[i] = 1 + (seed >> 8) % 2000;
        }
        if (it % 10 == 0)
            v[0] = 0; /* L = 0 */
        snprintf(defs, sizeof defs, "%s=%.17g %s=%.17g %s=%.17g %s=%.17g %s=%.17g %s=%.17g", names[0],
                 v[0], names[1], v[1], names[2], v[2], names[3], v[3], names[4],
                 v[4], names[5], v[5]);
        run_eval(&r, "%s", defs);
        mmm_tmm_cost c = tmm_program(&r);
        double L = v[0], P = v[1];
        /* K1: max(T_E/P, T∞) with T_E = max(T1, M L/T) is Eq. (2). */
        double TE = fmax(c.T1, c.M * L / c.T);
        cr_expect(close_rel(fmax(TE / P, c.Tinf), c.TP_global, REL_TOL), "%s", r.what);
        cr_expect(close_rel(c.TP_global, fmax(fmax(c.T1 / P, c.Tinf), c.M * L / (c.T * P)),
                            REL_TOL), "%s", r.what);
        /* K2: S_P = min(P, T1/T∞, P T1 T/(M L)). */
        double sp = fmin(P, c.T1 / c.Tinf);
        if (L > 0)
            sp = fmin(sp, P * c.T1 * c.T / (c.M * L));
        cr_expect(close_rel(c.speedup, sp, 1e-9), "%s: %g vs %g", r.what, c.speedup, sp);
        /* K3: no latency, the PRAM time. */
        if (L == 0)
            cr_expect_eq(c.TP_global, c.pram, "%s", r.what);
        /* K4: T* = M L/T1 does not depend on P. */
        cr_expect(close_rel(c.Tstar, c.M * L / c.T1, REL_TOL));
        /* PRAM range iff T >= T*. */
        if (fabs(c.latency_term - c.work_term) > 1e-9 * c.work_term)
            cr_expect_eq(c.latency_term <= c.work_term, c.T >= c.Tstar, "%s", r.what);
    }
    run_close(&r);
}

/* A kernel whose launches differ: copy i has i blocks of 4 i threads. */
Test(tmm_model, launches_that_differ)
{
    static const kspec k[] = {{"grow", "5", "i", "i", "4*i", "4*i*10", "10", "1",
                               "0", "1", MMM_ACCESS_COALESCED}};
    run r;
    mmm_tmm t;
    mmm_error err;
    double T1 = 0, Tinf = 0, M = 0, lat = 0, TP = 0, inv = 0;
    int i;
    build(&r, small_machine, NSMALL, k, 1, NULL, 0);
    cr_assert_eq(mmm_tmm_compute(&t, r.inst, &err), 0, "%s", err.message);
    for (i = 1; i <= 5; i++) {
        double w = i * 40.0 * i, thr = 4.0 * i * i, m = i * ceil(4.0 * i / 4);
        double T = fmin(fmin(6, 64 / (2 * 1.0)), thr / 8);
        double l = m * 100 / (T * 8);
        T1 += w;
        Tinf += 10;
        M += m;
        lat += l;
        inv += m / T;
        TP += fmax(fmax(w / 8, 10), l);
    }
    cr_expect(close_rel(t.kernels[0].T1, T1, REL_TOL));
    cr_expect(close_rel(t.kernels[0].Tinf, Tinf, REL_TOL));
    cr_expect(close_rel(t.kernels[0].M, M, REL_TOL));
    cr_expect(close_rel(t.kernels[0].latency_term, lat, REL_TOL));
    cr_expect(close_rel(t.kernels[0].TP, TP, REL_TOL));
    cr_expect(close_rel(t.kernels[0].T, M / inv, REL_TOL));
    cr_expect(close_rel(t.program.TP, TP, REL_TOL));
    cr_expect(t.kernels[0].TP >= t.kernels[0].TP_global);
    mmm_tmm_dispose(&t);
    run_close(&r);
}

Test(tmm_model, errors_name_the_missing_parameter_and_the_class)
{
    static const char *no_x[][2] = {{"L", "1"}, {"P", "1"}, {"C", "1"},
                                    {"Z", "1"}, {"Q", "1"}, {"U", "1"}};
    static const kspec k[] = {{"k", NULL, NULL, "1", NULL, "1", "1", "1", "0",
                               NULL, MMM_ACCESS_COALESCED}};
    static const char *bad_p[][2] = {{"L", "1"}, {"P", "0"}, {"C", "1"},
                                     {"Z", "1"}, {"Q", "1"}, {"X", "1"}, {"U", "1"}};
    run r;
    mmm_tmm t;
    mmm_error err;
    build(&r, no_x, 6, diamond, 4, diamond_edges, 4);
    cr_expect_eq(mmm_tmm_compute(&t, r.inst, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "'X'") != NULL, "%s", err.message);
    mmm_tmm_dispose(&t);
    run_close(&r);
    build(&r, small_machine, NSMALL, k, 1, NULL, 0);
    cr_expect_eq(mmm_tmm_compute(&t, r.inst, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "threads") != NULL, "%s", err.message);
    cr_expect_eq(err.line, 100);
    run_close(&r);
    build(&r, bad_p, 7, diamond, 4, diamond_edges, 4);
    cr_expect_eq(mmm_tmm_compute(&t, r.inst, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "'P'") != NULL, "%s", err.message);
    run_close(&r);
}

/* ------------------------------------------------------------------ */
/* 2. The APSP programs against their closed forms                    */

typedef struct closed {
    double T1, Tinf, M;
} closed;

static void expect_closed(run *r, closed e)
{
    mmm_tmm_cost c = tmm_program(r);
    cr_expect(close_rel(c.T1, e.T1, REL_TOL), "%s: T1 %.17g vs %.17g", r->what, c.T1, e.T1);
    cr_expect(close_rel(c.Tinf, e.Tinf, REL_TOL), "%s: Tinf %.17g vs %.17g", r->what,
              c.Tinf, e.Tinf);
    cr_expect(close_rel(c.M, e.M, REL_TOL), "%s: M %.17g vs %.17g", r->what, c.M, e.M);
}

static closed dp_closed(double n, double B, double C)
{
    double lg = lg_ceil(n), nb = n / B;
    closed e = {2 * n * n * n * lg, 2 * n * lg,
                lg * nb * nb * ceil(B * B * (2 * nb + 1) / C)};
    return e;
}

static closed jh_closed(double n, double m)
{
    double lg = lg_ceil(n), per = (2 * n + m) * lg + m;
    closed e = {n * per, per, n * (2 * (2 * n + m) * lg + m)};
    return e;
}

static closed ja_closed(double n, double m, double B, double C, int fit)
{
    double tinf = n * fmax(n / B * lg_ceil(B), m / (n * B));
    closed e;
    if (!fit) {
        e.T1 = n * n * n + m * n;
        e.Tinf = tinf;
        e.M = n * (n * ceil(n / C) + 2 * m);
    } else {
        e.T1 = n * n * n + m * n + n * n;
        e.Tinf = n / B + tinf;
        e.M = n * ceil(n / C) + m * n;
    }
    return e;
}

static closed bf_closed(double n, double m, double B, double C)
{
    closed e = {2 * m * n * n, 2 * n, n * n * (m / B) * ceil(6 * B / C)};
    return e;
}

Test(tmm_apsp, closed_forms_of_the_seven_programs)
{
    static const double ns[] = {1024, 4096};
    run r;
    size_t i;
    for (i = 0; i < 2; i++) {
        double n = ns[i], C = 32, m, B, nb, d, it = 7;
        closed e;
        run_open(&r, "apsp/dp_squaring.xml", "gtx480.xml");
        run_eval(&r, "n=%.17g B=32", n);
        expect_closed(&r, dp_closed(n, 32, C));
        run_eval(&r, "n=%.17g B=16 C=8", n);
        expect_closed(&r, dp_closed(n, 16, 8));
        run_close(&r);

        run_open(&r, "apsp/johnson_heap.xml", "gtx480.xml");
        m = n * (n - 1);
        run_eval(&r, "n=%.17g m=%.17g", n, m);
        expect_closed(&r, jh_closed(n, m));
        run_eval(&r, "n=%.17g m=%.17g", n, 3 * n);
        expect_closed(&r, jh_closed(n, 3 * n));
        run_close(&r);

        run_open(&r, "apsp/johnson_array.xml", "gtx480.xml");
        run_eval(&r, "n=%.17g m=%.17g", n, m);
        expect_closed(&r, ja_closed(n, m, 256, C, 0));
        run_eval(&r, "n=%.17g m=%.17g B=64 Z=%.17g fit=1", n, 5 * n, n);
        expect_closed(&r, ja_closed(n, 5 * n, 64, C, 1));
        run_close(&r);

        run_open(&r, "apsp/bellman_ford.xml", "gtx480.xml");
        run_eval(&r, "n=%.17g m=%.17g", n, 4 * n);
        expect_closed(&r, bf_closed(n, 4 * n, 256, C));
        run_close(&r);

        run_open(&r, "apsp/floyd_warshall.xml", "gtx470.xml");
        run_eval(&r, "n=%.17g", n);
        B = 16;
        nb = n / B;
        e.T1 = 2 * n * n * n;
        e.Tinf = 2 * n;
        e.M = n * nb * nb * ceil((2 * B * B + 2 * B) / C);
        cr_expect_eq(ceil((2 * B * B + 2 * B) / C), 17); /* 288 + 256 words */
        expect_closed(&r, e);
        run_close(&r);

        run_open(&r, "apsp/blocked_fw.xml", "gtx470.xml");
        run_eval(&r, "n=%.17g", n);
        e.T1 = nb * (1 + 2 * (nb - 1) + (nb - 1) * (nb - 1)) * 2 * B * B * B;
        e.Tinf = 3 * nb * 2 * B;
        e.M = nb * (ceil(2 * B * B / C) + 2 * (nb - 1) * ceil(3 * B * B / C) +
                    (nb - 1) * (nb - 1) * ceil(4 * B * B / C));
        cr_expect_eq(e.T1, 2 * n * n * n);
        expect_closed(&r, e);
        run_close(&r);

        run_open(&r, "apsp/harish_narayanan.xml", "gtx470.xml");
        run_eval(&r, "n=%.17g m=%.17g iters=%.17g", n, 6 * n, it);
        B = 32;
        d = 6;
        e.T1 = n * it * n * (3 + 2 * d);
        e.Tinf = n * it * (1 + 2 * d);
        e.M = n * it * (n * (4 + 4 * d) + n / B * ceil(5 * B / C));
        expect_closed(&r, e);
        run_close(&r);
    }
}

/* T for the DP program on the GTX 480: min(X, Z/(2Q), n^2/P). */
Test(tmm_apsp, threads_per_core_of_dp)
{
    run r;
    mmm_tmm_cost c;
    run_open(&r, "apsp/dp_squaring.xml", "gtx480.xml");
    run_eval(&r, "n=4096");
    c = tmm_program(&r);
    cr_expect_eq(c.T, 48);                 /* X = 48 < 12288/64 = 192 */
    cr_expect_eq(c.limit, MMM_TMM_LIMIT_X);
    run_eval(&r, "n=4096 X=1000");
    c = tmm_program(&r);
    cr_expect_eq(c.T, 192);                /* Z/(Q shared) */
    cr_expect_eq(c.limit, MMM_TMM_LIMIT_MEMORY);
    run_eval(&r, "n=64 X=1000");
    c = tmm_program(&r);
    cr_expect_eq(c.T, 64.0 * 64 / 480);    /* n^2/P */
    cr_expect_eq(c.limit, MMM_TMM_LIMIT_THREADS);
    run_close(&r);
}

/* ------------------------------------------------------------------ */
/* 3. The paper's analyses                                             */

/* log2 of f(2n)/f(n): the local growth exponent. */
static double growth(double a, double b) { return log2(b / a); }

/* Orders of T1, T∞, M: exponents between n and 2n agree with
 * the paper's order functions evaluated the same way, within 0.05. */
Test(tmm_paper, orders_of_work_span_and_transactions)
{
    static const char *files[] = {"apsp/dp_squaring.xml", "apsp/johnson_heap.xml",
                                  "apsp/johnson_array.xml", "apsp/bellman_ford.xml"};
    const double n0 = 4096, C = 32;
    int f, dense;
    for (f = 0; f < 4; f++)
        for (dense = 0; dense < 2; dense++) {
            run r;
            mmm_tmm_cost c[2];
            double paper[2][3];
            int k;
            run_open(&r, files[f], "gtx480.xml");
            for (k = 0; k < 2; k++) {
                double n = n0 * (1 << k), m = dense ? n * (n - 1) : 4 * n;
                double lg = log2(n), Z = 12288, sZ = sqrt(Z);
                run_eval(&r, "n=%.17g m=%.17g", n, m);
                c[k] = tmm_program(&r);
                switch (f) {
                case 0: /* n^3 lg n, n lg n, n^3 lg n/(sqrt Z C) */
                    paper[k][0] = n * n * n * lg;
                    paper[k][1] = n * lg;
                    paper[k][2] = n * n * n * lg / (sZ * C);
                    break;
                case 1: /* m n lg n, m lg n, m n lg n */
                    paper[k][0] = m * n * lg;
                    paper[k][1] = m * lg;
                    paper[k][2] = m * n * lg;
                    break;
                case 2: /* n^3 + m n, n^2 lg Z/Z (chunks of B), n^3/C + m n */
                    paper[k][0] = n * n * n + m * n;
                    paper[k][1] = n * n * log2(256) / 256;
                    paper[k][2] = n * n * n / C + m * n;
                    break;
                default: /* m n^2, n, m n^2/C */
                    paper[k][0] = m * n * n;
                    paper[k][1] = n;
                    paper[k][2] = m * n * n / C;
                    break;
                }
            }
            cr_expect(fabs(growth(c[0].T1, c[1].T1) - growth(paper[0][0], paper[1][0])) < 0.05,
                      "%s dense=%d: T1 exponent %g vs %g", files[f], dense,
                      growth(c[0].T1, c[1].T1), growth(paper[0][0], paper[1][0]));
            cr_expect(fabs(growth(c[0].Tinf, c[1].Tinf) - growth(paper[0][1], paper[1][1])) < 0.05,
                      "%s dense=%d: Tinf exponent %g vs %g", files[f], dense,
                      growth(c[0].Tinf, c[1].Tinf), growth(paper[0][1], paper[1][1]));
            cr_expect(fabs(growth(c[0].M, c[1].M) - growth(paper[0][2], paper[1][2])) < 0.05,
                      "%s dense=%d: M exponent %g vs %g", files[f], dense,
                      growth(c[0].M, c[1].M), growth(paper[0][2], paper[1][2]));
            /* And the values themselves up to a constant. */
            for (k = 0; k < 3; k++) {
                double v = k == 0 ? c[1].T1 : k == 1 ? c[1].Tinf : c[1].M;
                cr_expect(within_band(v / paper[1][k]), "%s dense=%d term %d: %g vs %g",
                          files[f], dense, k, v, paper[1][k]);
            }
            run_close(&r);
        }
}

/* An abstract machine where neither X nor n/P limits T unless asked:
 * P = 64, Q = 8, C = 8, Z = 2048 (the DP tile B = sqrt(Z/2) = 32). */
#define ABSTRACT "P=64 Q=8 C=8"

/* The largest L in the PRAM range: latency_term <= work_term, i.e.
 * L <= T1 T/M.  Checked on both sides of the flip. */
static double latency_threshold(run *r, const char *defs)
{
    mmm_tmm_cost c;
    double Lstar;
    run_eval(r, "%s L=1", defs);
    c = tmm_program(r);
    Lstar = c.T1 * c.T / c.M;
    run_eval(r, "%s L=%.17g", defs, Lstar * (1 - 1e-9));
    c = tmm_program(r);
    cr_expect(c.latency_term <= c.work_term, "%s: below L* must be PRAM", r->what);
    cr_expect(close_rel(c.TP_global, fmax(c.T1 / param(r, "P"), c.Tinf), REL_TOL));
    run_eval(r, "%s L=%.17g", defs, Lstar * (1 + 1e-9));
    c = tmm_program(r);
    cr_expect(c.latency_term > c.work_term, "%s: above L* must be latency-bound", r->what);
    return Lstar;
}

/* K5: L <= min(sqrt(Z) C X, Z^{3/2} C/Q) (DP), min(X, Z/Q) (heap),
 * min(CX, CZ/Q, n^2 X/m, n^2 Z/(mQ)) (arrays), min(CX, CZ/Q) (BF): the
 * tool's threshold within a constant of the paper's, in both branches of
 * the min, and with the paper's exponents in X, Z and C. */
Test(tmm_paper, latency_thresholds_for_pram_time)
{
    run r;
    int xb;
    const double n = 16384, Q = 8;
    for (xb = 0; xb < 2; xb++) {
        /* xb: X binds (X = 4) or fast memory binds (X = 4096). */
        double X = xb ? 4 : 4096, ratio[4][2];
        int zi;
        for (zi = 0; zi < 2; zi++) {
            double Z = zi ? 8192 : 2048, C = 8, B = sqrt(Z / 2);
            double L, paper;
            char defs[256];
            /* DP */
            run_open(&r, "apsp/dp_squaring.xml", "gtx480.xml");
            snprintf(defs, sizeof defs, ABSTRACT " X=%.17g Z=%.17g B=%.17g n=%.17g", X, Z, B, n);
            L = latency_threshold(&r, defs);
            paper = fmin(sqrt(Z) * C * X, pow(Z, 1.5) * C / Q);
            ratio[0][zi] = L / paper;
            cr_expect(within_band(L / paper), "DP X=%.17g Z=%.17g: L* %g vs paper %g", X, Z, L, paper);
            run_close(&r);
            /* Johnson, heaps (dense) */
            run_open(&r, "apsp/johnson_heap.xml", "gtx480.xml");
            snprintf(defs, sizeof defs, ABSTRACT " X=%.17g Z=%.17g n=%.17g m=%.17g", X, Z, 1048576.0,
                     1048576.0 * 64);
            L = latency_threshold(&r, defs);
            paper = fmin(X, Z / Q);
            ratio[1][zi] = L / paper;
            cr_expect(within_band(L / paper), "heap X=%.17g Z=%.17g: L* %g vs paper %g", X, Z, L, paper);
            run_close(&r);
            /* Johnson, arrays (m = n^2/16: the n^2 X/m terms are 16X) */
            run_open(&r, "apsp/johnson_array.xml", "gtx480.xml");
            snprintf(defs, sizeof defs, ABSTRACT " X=%.17g Z=%.17g n=%.17g m=%.17g B=256", X, Z, n,
                     n * n / 16);
            L = latency_threshold(&r, defs);
            paper = fmin(fmin(C * X, C * Z / Q), fmin(n * n * X / (n * n / 16),
                                                      n * n * Z / (n * n / 16 * Q)));
            ratio[2][zi] = L / paper;
            cr_expect(within_band(L / paper), "arrays X=%.17g Z=%.17g: L* %g vs paper %g", X, Z, L,
                      paper);
            run_close(&r);
            /* Bellman-Ford */
            run_open(&r, "apsp/bellman_ford.xml", "gtx480.xml");
            snprintf(defs, sizeof defs, ABSTRACT " X=%.17g Z=%.17g n=%.17g m=%.17g", X, Z, 4096.0,
                     4096.0 * 8);
            L = latency_threshold(&r, defs);
            paper = fmin(C * X, C * Z / Q);
            ratio[3][zi] = L / paper;
            cr_expect(within_band(L / paper), "BF X=%.17g Z=%.17g: L* %g vs paper %g", X, Z, L, paper);
            run_close(&r);
        }
        /* Exponents in Z: the ratio to the paper's formula must not move
         * when Z is multiplied by 4 (DP: Z^{3/2} in the memory branch). */
        {
            int a;
            for (a = 0; a < 4; a++)
                cr_expect(fabs(log2(ratio[a][1] / ratio[a][0])) < 0.1,
                          "algorithm %d, X=%.17g: L*/paper moves with Z (%g -> %g)", a, X,
                          ratio[a][0], ratio[a][1]);
        }
    }
}

/* K4: T* = M L/T1 for each algorithm, the paper's L/(sqrt Z C), L,
 * max(L/C, mL/n^2), L/C up to constants, and the ordering
 * T*_DP < T*_BF <= T*_arrays <= T*_heap. */
Test(tmm_paper, thresholds_in_threads_per_core)
{
    const double n = 4096, L = 400, C = 32, Z = 12288;
    double t[4], paper[4];
    run r;
    int a;
    const char *files[] = {"apsp/dp_squaring.xml", "apsp/bellman_ford.xml",
                           "apsp/johnson_array.xml", "apsp/johnson_heap.xml"};
    for (a = 0; a < 4; a++) {
        double m = n * (n - 1);
        run_open(&r, files[a], "gtx480.xml");
        run_eval(&r, "n=%.17g m=%.17g", n, m);
        t[a] = tmm_program(&r).Tstar;
        run_eval(&r, "n=%.17g m=%.17g P=7", n, m); /* T* does not depend on P */
        cr_expect(close_rel(tmm_program(&r).Tstar, t[a], REL_TOL), "%s", files[a]);
        run_close(&r);
        paper[a] = a == 0 ? L / (sqrt(Z) * C)
                   : a == 1 ? L / C
                   : a == 2 ? fmax(L / C, m * L / (n * n))
                            : L;
        cr_expect(within_band(t[a] / paper[a]), "%s: T* %g vs paper %g", files[a], t[a],
                  paper[a]);
    }
    cr_expect(t[0] < t[1] && t[1] <= t[2] && t[2] <= t[3], "T*: %g %g %g %g", t[0],
              t[1], t[2], t[3]);
    /* For DP, T* = L (1 + B/(2n))/(B C) exactly. */
    cr_expect(close_rel(t[0], L * (1 + 32 / (2 * n)) / (32 * C), REL_TOL));
}

/* Both programs on one machine and parameter point. */
static void pair_costs(const char *fa, const char *fb, const char *defs_a,
                       const char *defs_b, mmm_tmm_cost *a, mmm_tmm_cost *b)
{
    run r;
    run_open(&r, fa, "gtx480.xml");
    run_eval(&r, "%s", defs_a);
    *a = tmm_program(&r);
    run_close(&r);
    run_open(&r, fb, "gtx480.xml");
    run_eval(&r, "%s", defs_b);
    *b = tmm_program(&r);
    run_close(&r);
}

/* K7: dense graphs, DP and Johnson-heap have the same PRAM cost; with
 * T = Z/Q (X not binding) and Z/Q < L < Z^{3/2} C/Q Johnson's TMM time is
 * larger, by a factor that grows with L to sqrt(Z) C at the top of the
 * range; below Z/Q both run in their PRAM time. */
Test(tmm_paper, dp_against_johnson_heap_on_dense_graphs)
{
    const double n = 65536, m = n * (n - 1), Z = 2048, Q = 8, C = 8, B = 32;
    const double lo = Z / Q, hi = pow(Z, 1.5) * C / Q;
    char da[256], db[256];
    mmm_tmm_cost dp, jh;
    double L, prev = 0;
    int k;
    /* PRAM costs equal up to a constant. */
    snprintf(da, sizeof da, ABSTRACT " X=100000 Z=%.17g B=%.17g n=%.17g L=1", Z, B, n);
    snprintf(db, sizeof db, ABSTRACT " X=100000 Z=%.17g n=%.17g m=%.17g L=1", Z, n, m);
    pair_costs("apsp/dp_squaring.xml", "apsp/johnson_heap.xml", da, db, &dp, &jh);
    cr_expect(within_band(jh.pram / dp.pram), "PRAM: %g vs %g", jh.pram, dp.pram);
    cr_expect_eq(jh.T, Z / Q, "heap T must be Z/Q: %g", jh.T);
    for (k = 0; k <= 8; k++) {
        L = lo * pow(hi / lo, k / 8.0);
        snprintf(da, sizeof da, ABSTRACT " X=100000 Z=%.17g B=%.17g n=%.17g L=%.17g", Z, B, n, L);
        snprintf(db, sizeof db, ABSTRACT " X=100000 Z=%.17g n=%.17g m=%.17g L=%.17g", Z, n, m, L);
        pair_costs("apsp/dp_squaring.xml", "apsp/johnson_heap.xml", da, db, &dp, &jh);
        double ratio = jh.TP_global / dp.TP_global;
        if (k >= 2)
            cr_expect(ratio > 1, "L=%.17g: Johnson %g must be slower than DP %g", L,
                      jh.TP_global, dp.TP_global);
        cr_expect(ratio >= prev * (1 - 1e-12), "L=%.17g: the gap must grow with L", L);
        prev = ratio;
    }
    /* At L = Z^{3/2} C/Q the ratio is sqrt(Z) C, up to a constant. */
    cr_expect(within_band(prev / (sqrt(Z) * C)), "ratio %g vs sqrt(Z) C = %g", prev,
              sqrt(Z) * C);
    /* Well below Z/Q both are in the PRAM range. */
    snprintf(da, sizeof da, ABSTRACT " X=100000 Z=%.17g B=%.17g n=%.17g L=%.17g", Z, B, n, lo / 4);
    snprintf(db, sizeof db, ABSTRACT " X=100000 Z=%.17g n=%.17g m=%.17g L=%.17g", Z, n, m, lo / 4);
    pair_costs("apsp/dp_squaring.xml", "apsp/johnson_heap.xml", da, db, &dp, &jh);
    cr_expect_eq(dp.TP_global, dp.pram);
    cr_expect_eq(jh.TP_global, jh.pram);
}

/* K8: m = n^2/lg n: heap and arrays have the same PRAM cost (n^3/P); for
 * Z/Q < L <= ZC/Q (C <= lg n) the arrays win, by C at L = ZC/Q. */
Test(tmm_paper, johnson_heap_against_arrays_when_somewhat_sparse)
{
    const double n = 16384, lg = 14, m = floor(n * n / lg), Z = 2048, Q = 8, C = 8;
    char da[256];
    mmm_tmm_cost jh, ja;
    double L;
    snprintf(da, sizeof da, ABSTRACT " X=100000 Z=%.17g n=%.17g m=%.17g L=1", Z, n, m);
    pair_costs("apsp/johnson_heap.xml", "apsp/johnson_array.xml", da, da, &jh, &ja);
    cr_expect(within_band(jh.pram / ja.pram), "PRAM: %g vs %g", jh.pram, ja.pram);
    for (L = 2 * Z / Q; L <= Z * C / Q * 1.000001; L *= 2) {
        snprintf(da, sizeof da, ABSTRACT " X=100000 Z=%.17g n=%.17g m=%.17g L=%.17g", Z, n, m, L);
        pair_costs("apsp/johnson_heap.xml", "apsp/johnson_array.xml", da, da, &jh, &ja);
        cr_expect(ja.TP_global < jh.TP_global, "L=%.17g: arrays %g must beat heap %g", L,
                  ja.TP_global, jh.TP_global);
    }
    L = Z * C / Q;
    cr_expect(within_band(jh.TP_global / ja.TP_global / C), "at L = ZC/Q: ratio %g vs C",
              jh.TP_global / ja.TP_global);
}

/* The m at which Johnson-arrays (fit = 1) and DP (tile B) take the same
 * TMM time, by bisection in log scale. */
static double dichotomy_boundary(double n, double Z, double C, double L, double B,
                                 double lo, double hi)
{
    char da[256], db[256];
    mmm_tmm_cost dp, ja;
    int i;
    snprintf(da, sizeof da, "P=480 Q=32 X=16 C=%.17g Z=%.17g B=%.17g n=%.17g L=%.17g",
             C, Z, B, n, L);
    for (i = 0; i < 60; i++) {
        double mid = sqrt(lo * hi);
        snprintf(db, sizeof db, "P=480 Q=32 X=16 C=%.17g Z=%.17g n=%.17g m=%.17g L=%.17g fit=1",
                 C, Z, n, mid, L);
        pair_costs("apsp/dp_squaring.xml", "apsp/johnson_array.xml", da, db, &dp, &ja);
        if (ja.TP_global < dp.TP_global)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* K9 and the paper's error A3.  lg n < sqrt(Z), latency-bound: with the
 * arrays' M = n^3/C + mn (a sum: the max form of Eq. 21), DP has the smaller
 * TMM time on dense AND sparse graphs, so the paper's dichotomy (Eq. 29's
 * min) does not follow; with Section 6.1's accounting (fit = 1: the vertex
 * array in fast memory, M = n^2/C + mn) it does, at a boundary near
 * m = n^2 lg n/(sqrt(Z) C), not the paper's n^2/C. */
Test(tmm_paper, dp_against_johnson_arrays_dichotomy)
{
    const double n = 8192, Z = 16384, C = 32, L = 1e6;
    const double dense = n * (n - 1), sparse = 4 * n;
    char da[256], db[256];
    mmm_tmm_cost dp, ja;
    double lo, hi;
#define MACH "P=480 Q=32 X=16"
    snprintf(da, sizeof da, MACH " C=%.17g Z=%.17g B=64 n=%.17g L=%.17g", C, Z, n, L);
    /* fit = 0: DP wins on both. */
    snprintf(db, sizeof db, MACH " C=%.17g Z=%.17g n=%.17g m=%.17g L=%.17g", C, Z, n, dense, L);
    pair_costs("apsp/dp_squaring.xml", "apsp/johnson_array.xml", da, db, &dp, &ja);
    cr_expect(dp.dominant == MMM_TMM_LATENCY && ja.dominant == MMM_TMM_LATENCY);
    cr_expect(dp.TP_global < ja.TP_global, "dense, fit=0");
    snprintf(db, sizeof db, MACH " C=%.17g Z=%.17g n=%.17g m=%.17g L=%.17g", C, Z, n, sparse, L);
    pair_costs("apsp/dp_squaring.xml", "apsp/johnson_array.xml", da, db, &dp, &ja);
    cr_expect(dp.TP_global < ja.TP_global, "sparse, fit=0: DP %g vs arrays %g (A3)",
              dp.TP_global, ja.TP_global);
    /* fit = 1: the dichotomy. */
    snprintf(db, sizeof db, MACH " C=%.17g Z=%.17g n=%.17g m=%.17g L=%.17g fit=1", C, Z, n, dense, L);
    pair_costs("apsp/dp_squaring.xml", "apsp/johnson_array.xml", da, db, &dp, &ja);
    cr_expect(dp.TP_global < ja.TP_global, "dense, fit=1");
    snprintf(db, sizeof db, MACH " C=%.17g Z=%.17g n=%.17g m=%.17g L=%.17g fit=1", C, Z, n, sparse, L);
    pair_costs("apsp/dp_squaring.xml", "apsp/johnson_array.xml", da, db, &dp, &ja);
    cr_expect(ja.TP_global < dp.TP_global, "sparse, fit=1: arrays %g vs DP %g",
              ja.TP_global, dp.TP_global);
    /* The boundary by bisection on m: near n^2 lg n/(B C) (B = Theta(sqrt Z)),
     * and it moves as 1/B, which the paper's n^2/C does not. */
    lo = dichotomy_boundary(n, Z, C, L, 64, sparse, dense);
    cr_expect(within_band(lo / (n * n * log2(n) / (64 * C))),
              "boundary m = %g vs n^2 lg n/(B C) = %g", lo, n * n * log2(n) / (64 * C));
    hi = dichotomy_boundary(n, Z, C, L, 32, sparse, dense);
    cr_expect(close_rel(hi / lo, 2, 0.1), "boundary for B = 32 / B = 64: %g", hi / lo);
#undef MACH
}

/* K10: m = Θ(n), lg n < sqrt(Z): Bellman-Ford wins in PRAM, DP in TMM. */
Test(tmm_paper, dp_against_bellman_ford_on_sparse_graphs)
{
    const double n = 4096, m = 4 * n;
    char da[256], db[256];
    mmm_tmm_cost dp, bf;
    snprintf(da, sizeof da, "n=%.17g L=100000", n);
    snprintf(db, sizeof db, "n=%.17g m=%.17g L=100000", n, m);
    pair_costs("apsp/dp_squaring.xml", "apsp/bellman_ford.xml", da, db, &dp, &bf);
    cr_expect(bf.pram < dp.pram, "PRAM: BF %g must beat DP %g", bf.pram, dp.pram);
    cr_expect(dp.TP_global < bf.TP_global, "TMM: DP %g must beat BF %g", dp.TP_global,
              bf.TP_global);
}

/* K11 (Section 6.1, n < Z): at m = n^2/lg^2 n the heap is better in PRAM
 * by about lg n, the arrays (fit = 1) in TMM, latency-bound, by about lg n. */
Test(tmm_paper, section_6_1_heap_against_arrays)
{
    const double n = 4096, lg = 12, m = floor(n * n / (lg * lg));
    char da[256], db[300];
    mmm_tmm_cost jh, ja;
    /* X = 16 binds both (the arrays' blocks keep n words each in Z). */
    snprintf(da, sizeof da, "P=480 Q=32 C=32 X=16 Z=16384 n=%.17g m=%.17g L=1000000", n, m);
    snprintf(db, sizeof db, "%s fit=1", da);
    pair_costs("apsp/johnson_heap.xml", "apsp/johnson_array.xml", da, db, &jh, &ja);
    cr_expect(jh.pram < ja.pram);
    cr_expect(within_band(ja.pram / jh.pram / lg), "PRAM ratio %g vs lg n", ja.pram / jh.pram);
    cr_expect(ja.TP_global < jh.TP_global);
    cr_expect(within_band(jh.TP_global / ja.TP_global / lg), "TMM ratio %g vs lg n",
              jh.TP_global / ja.TP_global);
}

/* K13: once T >= T*, the time depends on neither T, L nor C; below T* it
 * scales as 1/T. */
Test(tmm_paper, pram_range_is_flat_in_threads_latency_and_chunks)
{
    run r;
    mmm_tmm_cost a, b;
    run_open(&r, "apsp/dp_squaring.xml", "gtx480.xml");
    run_eval(&r, "n=2048 X=48");
    a = tmm_program(&r);
    cr_assert(a.latency_term <= a.work_term);
    run_eval(&r, "n=2048 X=24 L=300 C=16");
    b = tmm_program(&r);
    cr_expect(b.T >= b.Tstar);
    cr_expect_eq(a.TP_global, b.TP_global);
    /* Below T*: L large, T from X: time x 1/T. */
    run_eval(&r, "n=2048 X=4 L=1000000");
    a = tmm_program(&r);
    run_eval(&r, "n=2048 X=8 L=1000000");
    b = tmm_program(&r);
    cr_expect(a.dominant == MMM_TMM_LATENCY && b.dominant == MMM_TMM_LATENCY);
    cr_expect(close_rel(a.TP_global / b.TP_global, 2, REL_TOL));
    run_close(&r);
}

/* K14 and K15: the DP speedup against T (= X) does not depend on n, and
 * below the knee speedup(B=64)/speedup(B=32) is B1/B2 = 2. */
Test(tmm_paper, dp_speedup_shape)
{
    static const double ns[] = {1024, 2048, 4096, 8192, 16384};
    run r;
    size_t i;
    double first = 0, knee0 = 0;
    run_open(&r, "apsp/dp_squaring.xml", "gtx480.xml");
    for (i = 0; i < 5; i++) {
        mmm_tmm_cost c;
        run_eval(&r, "n=%.17g X=4 L=100000 Z=32768 B=64", ns[i]);
        c = tmm_program(&r);
        if (i == 0) {
            first = c.speedup;
            knee0 = c.Tstar;
        }
        cr_expect(close_rel(c.speedup, first, 0.05), "n=%.17g: speedup %g vs %g", ns[i],
                  c.speedup, first);
        cr_expect(close_rel(c.Tstar, knee0, 0.05), "n=%.17g: knee %g vs %g", ns[i], c.Tstar,
                  knee0);
    }
    {
        mmm_tmm_cost b64, b32;
        run_eval(&r, "n=8192 X=4 L=100000 Z=32768 B=64");
        b64 = tmm_program(&r);
        run_eval(&r, "n=8192 X=4 L=100000 Z=32768 B=32");
        b32 = tmm_program(&r);
        cr_expect(close_rel(b64.speedup / b32.speedup, 2, 0.01), "ratio %g",
                  b64.speedup / b32.speedup);
    }
    run_close(&r);
}

/* K16: latency-bound Johnson-arrays time is linear in m. */
Test(tmm_paper, johnson_arrays_linear_in_edges)
{
    run r;
    double t[3];
    int k;
    run_open(&r, "apsp/johnson_array.xml", "gtx480.xml");
    for (k = 0; k < 3; k++) {
        mmm_tmm_cost c;
        run_eval(&r, "n=8192 m=%.17g L=100000", 32768.0 * (1 + 10 * k));
        c = tmm_program(&r);
        cr_expect_eq(c.dominant, MMM_TMM_LATENCY);
        t[k] = c.TP_global;
    }
    cr_expect(close_rel(t[2] - t[1], t[1] - t[0], 1e-9), "not linear: %g %g %g", t[0],
              t[1], t[2]);
    cr_expect(t[1] > t[0]);
    run_close(&r);
}

/* ------------------------------------------------------------------ */
/* 4. The command line                                                 */

Test(tmm_cli, model_option_text_json_csv_and_errors)
{
    static char out[1 << 20];
    static const char *keys[] = {"\"tmm\"", "\"T1\"", "\"Tinf\"", "\"M\"", "\"T\"",
                                 "\"TP\"", "\"TP_global\"", "\"pram\"", "\"dominant\"",
                                 "\"balance\"", "\"intensity\"", "\"metrics\""};
    size_t i;
    cr_expect_eq(run_cmd("analyze dags/apsp/dp_squaring.xml --machine "
                         "dags/machines/gtx480.xml --model all --format json",
                         out, sizeof out), 0, "%s", out);
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect(strstr(out, keys[i]) != NULL, "JSON lacks %s", keys[i]);
    /* The program's TP_global: 2 n^3 lg n / P for n = 8192 on the GTX 480. */
    {
        const char *p = strstr(out, "\"TP_global\": ");
        cr_assert_not_null(p);
        cr_expect(close_rel(strtod(p + 13, NULL), 2.0 * 8192 * 8192 * 8192 * 13 / 480,
                            1e-12), "%s", p);
    }
    cr_expect_eq(run_cmd("analyze dags/apsp/johnson_heap.xml --machine "
                         "dags/machines/gtx480.xml --model tmm", out, sizeof out), 0);
    cr_expect(strstr(out, "TMM (threaded many-core memory model)") != NULL, "%s", out);
    cr_expect(strstr(out, "latency") != NULL, "%s", out);
    cr_expect(strstr(out, "measures") == NULL, "--model tmm alone prints no MMM table");
    cr_expect_eq(run_cmd("analyze dags/apsp/bellman_ford.xml --machine "
                         "dags/machines/h100.xml --model tmm,balance --format csv",
                         out, sizeof out), 0);
    cr_expect(strncmp(out, "id,repeat,T1,Tinf,M,T,TP,TP_global,pram,Tstar,dominant,"
                           "intensity", 55) == 0, "%s", out);
    /* No machine file: the TMM names what it misses; exit 1. */
    cr_expect_eq(run_cmd("analyze dags/apsp/dp_squaring.xml --model tmm", out, sizeof out), 1);
    cr_expect(strstr(out, "error: the TMM needs the machine parameter") != NULL, "%s", out);
    cr_expect_eq(run_cmd("analyze dags/apsp/dp_squaring.xml --model bogus", out, sizeof out), 2);
    cr_expect_eq(run_cmd("analyze dags/apsp/dp_squaring.xml --model", out, sizeof out), 2);
    /* Every APSP program on every machine. */
    {
        static const char *dags[] = {"dp_squaring", "johnson_heap", "johnson_array",
                                      "bellman_ford", "floyd_warshall", "blocked_fw",
                                      "harish_narayanan"};
        static const char *machines[] = {"gtx480", "gtx470", "gtx580", "gtx680",
                                         "tesla_c2050", "h100"};
        size_t d, m;
        for (d = 0; d < 7; d++)
            for (m = 0; m < 6; m++) {
                char args[512];
                snprintf(args, sizeof args,
                         "analyze dags/apsp/%s.xml -D n=1024 --machine "
                         "dags/machines/%s.xml --model all --format json",
                         dags[d], machines[m]);
                cr_expect_eq(run_cmd(args, out, sizeof out), 0, "%s: %s", args, out);
            }
    }
}
