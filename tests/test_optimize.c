/*
 * test_optimize.c: parameter sweeps (src/optimize/optimize.c) and `mmm optimize`,
 * against closed forms of the MMM slides (Haque, Moreno Maza, Xie 2014)
 * and brute force coded here, never against the tool's own output.
 *
 * The closed forms with ceilings are the per-block model of docs/polynomial.md; the
 * slides' forms assume exact divisions and are checked where they hold, or
 * through the exact rounding factor where they cannot (multiplication).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmm/mmm.h"
#include "mmm/optimize.h"
#include "optimize/optimize_internal.h"
#include "mmm/plot.h"
#include "numbers.h"

#define REL_TOL 1e-12

static int close12(double a, double b)
{
    return close_rel(a, b, REL_TOL);
}

/* ------------------------------------------------------------------ */
/* Fixture: a program, an instance, overrides by name. */

typedef struct fx {
    mmm_program *prog;
    mmm_instance *inst;
    mmm_override ov[16];
    size_t nov;
    mmm_sweep_spec spec;
} fx;

static void fx_open_mem(fx *f, const char *xml)
{
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    memset(f, 0, sizeof *f);
    mmm_sweep_spec_init(&f->spec);
    cr_assert_eq(mmm_program_load_memory(&f->prog, xml, strlen(xml), "mem.xml",
                                         &opt, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&f->inst, f->prog, &err), 0, "%s", err.message);
}

static void fx_open(fx *f, const char *file)
{
    char path[1024];
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    memset(f, 0, sizeof *f);
    mmm_sweep_spec_init(&f->spec);
    snprintf(path, sizeof path, "%s/%s", MMM_DAGS_DIR, file);
    cr_assert_eq(mmm_program_load_file(&f->prog, path, &opt, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_instance_new(&f->inst, f->prog, &err), 0, "%s", err.message);
}

static void fx_close(fx *f)
{
    mmm_instance_free(f->inst);
    mmm_program_free(f->prog);
}

static int slot(const fx *f, const char *name)
{
    int s = mmm_program_find_param(f->prog, name);
    cr_assert_geq(s, 0, "no parameter %s", name);
    return s;
}

static void fx_set(fx *f, const char *name, int64_t v)
{
    f->ov[f->nov].slot = slot(f, name);
    f->ov[f->nov++].value = mmm_value_int(v);
    f->spec.fixed = f->ov;
    f->spec.nfixed = f->nov;
}

/* Sweep axis 0 over a range (from/to given). */
static void fx_range(fx *f, const char *name, int64_t from, int64_t to)
{
    f->spec.naxes = 1;
    f->spec.axes[0].slot = slot(f, name);
    f->spec.axes[0].has_from = f->spec.axes[0].has_to = 1;
    f->spec.axes[0].from = mmm_value_int(from);
    f->spec.axes[0].to = mmm_value_int(to);
}

static void fx_run(fx *f, mmm_sweep_result *res, mmm_sweep_fn fn, void *payload)
{
    mmm_error err;
    int rc = mmm_sweep_run(res, f->inst, &f->spec, fn, payload, &err);
    cr_assert_eq(rc, 0, "sweep failed: %s", err.message);
}

/* Every point of a sweep, by value of the first parameter (small sweeps). */
typedef struct collect {
    size_t n;
    mmm_sweep_point pt[512];
    int infeasible[512];
} collect;

static int collect_fn(const mmm_sweep_point *pt, const mmm_error *why,
                      void *payload)
{
    collect *c = payload;
    cr_assert_lt(c->n, 512);
    cr_assert_eq(pt->status != 0, why != NULL);
    c->infeasible[c->n] = why != NULL;
    c->pt[c->n++] = *pt;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Division, optimized: O = ceil((n-m+1)/s) ceil(m/(2s)) 9U, which is
 * 9(n-m+1)mU/(2s^2) when s divides n-m+1 and 2s divides m. */

static double div_opt_O(int64_t n, int64_t m, int64_t s, int64_t U)
{
    return (double)(cdiv(n - m + 1, s) * cdiv(m, 2 * s)) * 9.0 * (double)U;
}

static double div_opt_W(int64_t n, int64_t m, int64_t s)
{
    return (double)(cdiv(n - m + 1, s) * cdiv(m, 2 * s)) *
           (double)(s * (9 * s + 1)) / 2.0;
}

Test(optimize, division_overhead_falls_as_inverse_square_picks_z_over_7)
{
    /* Z = 70: 7s <= Z allows s = 1..10; n-m+1 = 2520 = lcm(1..10) and
     * m = 5040 make every division exact, so O(s) = 9(n-m+1)mU/(2s^2)
     * strictly decreases and the best s is Z/7 = 10. */
    const int64_t Z = 70, m = 5040, n = 5040 + 2519, U = 400;
    fx f;
    mmm_sweep_result res;
    collect c = {0};
    size_t i;

    fx_open(&f, "poly_div_opt.xml");
    fx_set(&f, "Z", Z);
    fx_set(&f, "n", n);
    fx_set(&f, "m", m);
    fx_set(&f, "U", U);
    f.spec.naxes = 1;
    f.spec.axes[0].slot = slot(&f, "s"); /* default range: min..max */
    fx_run(&f, &res, collect_fn, &c);

    cr_assert_eq(res.axes[0].count, 10);
    cr_assert_eq(res.axes[0].from.num, 1);
    cr_assert_eq(res.axes[0].to.num, 10);
    cr_assert_eq(res.nfeasible, 10);
    cr_assert(res.has_best);
    cr_assert_eq(res.best.params[0].num, Z / 7);
    cr_assert_eq(res.baseline.params[0].num, 1);
    for (i = 0; i < c.n; i++) {
        int64_t s = c.pt[i].params[0].num;
        double slide_O = 9.0 * (double)(n - m + 1) * (double)m * (double)U /
                         (2.0 * (double)(s * s));
        double slide_W = (double)(n - m + 1) * (double)m * (double)(9 * s + 1) /
                         (4.0 * (double)s);
        cr_assert(close12(c.pt[i].O, slide_O), "O(%lld)", (long long)s);
        cr_assert(close12(c.pt[i].W, slide_W), "W(%lld)", (long long)s);
        cr_assert(close12(c.pt[i].S, 3.0 * (double)(n - m + 1)));
    }
    /* O(s0)/O(s) = s^2, W(s0)/W(s) = (10/4) / (91/40) = 100/91, S const. */
    cr_assert(close12(res.ratio_O, 100.0));
    cr_assert(close12(res.ratio_W, 100.0 / 91.0));
    cr_assert(close12(res.ratio_S, 1.0));
    cr_assert(close12(res.W_factor, 100.0 / 91.0));
    cr_assert(close12(res.S_factor, 1.0));
    cr_assert(res.has_p);
    cr_assert(res.graham_brent_not_worse);
    cr_assert(res.corollary_not_worse);
    fx_close(&f);
}

Test(optimize, division_default_range_max_is_floor_z_over_7)
{
    /* Z = 75: floor(Z/7) = 10 is the declared max, evaluated at Z. */
    fx f;
    mmm_sweep_result res;
    fx_open(&f, "poly_div_opt.xml");
    fx_set(&f, "Z", 75);
    fx_set(&f, "n", 5040 + 2519);
    fx_set(&f, "m", 5040);
    f.spec.naxes = 1;
    f.spec.axes[0].slot = slot(&f, "s");
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.axes[0].count, 10);
    cr_assert_eq(res.best.params[0].num, 10);
    fx_close(&f);
}

Test(optimize, division_brute_force_with_ceilings_and_ties)
{
    /* The bundled defaults (n = 2^16, m = 2^12, U = 400, Z = 12288): the
     * counts round up, O has plateaus, and the smallest s of the lowest
     * plateau wins.  Brute force over the closed form with ceilings. */
    const int64_t n = 65536, m = 4096, U = 400, smax = 12288 / 7;
    fx f;
    mmm_sweep_result res;
    int64_t s, best = 1;
    double bestO = div_opt_O(n, m, 1, U);
    double Wmin = div_opt_W(n, m, 1), Wmax = Wmin;

    for (s = 2; s <= smax; s++) {
        double o = div_opt_O(n, m, s, U), w = div_opt_W(n, m, s);
        if (o < bestO) {
            bestO = o;
            best = s;
        }
        Wmin = fmin(Wmin, w);
        Wmax = fmax(Wmax, w);
    }
    fx_open(&f, "poly_div_opt.xml");
    f.spec.naxes = 1;
    f.spec.axes[0].slot = slot(&f, "s");
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.npoints, (uint64_t)smax);
    cr_assert_eq(res.best.params[0].num, best, "best %lld, expected %lld",
                 (long long)res.best.params[0].num, (long long)best);
    cr_assert(close12(res.best.O, bestO));
    cr_assert(close12(res.min_overhead.O, bestO));
    cr_assert(close12(res.W_min, Wmin));
    cr_assert(close12(res.W_max, Wmax));
    cr_assert(close12(res.ratio_O, div_opt_O(n, m, 1, U) / bestO));
    /* The plateau: the next value has the same overhead. */
    cr_assert(div_opt_O(n, m, best + 1, U) == bestO);
    fx_close(&f);
}

Test(optimize, infeasible_points_are_recorded_not_fatal)
{
    fx f;
    mmm_sweep_result res;
    collect c = {0};
    size_t i;
    fx_open(&f, "poly_div_opt.xml");
    fx_set(&f, "Z", 70);
    fx_range(&f, "s", 1, 20);
    fx_run(&f, &res, collect_fn, &c);
    cr_assert_eq(res.npoints, 20);
    cr_assert_eq(res.nfeasible, 10);
    cr_assert_eq(c.n, 20);
    for (i = 0; i < 20; i++)
        cr_assert_eq(c.infeasible[i], i >= 10, "s = %zu", i + 1);
    cr_assert_eq(res.first_infeasible.code, MMM_EINFEASIBLE);
    cr_assert_eq(res.first_infeasible_params[0].num, 11);
    cr_assert_eq(res.best.params[0].num, 10);
    fx_close(&f);
}

Test(optimize, no_feasible_point_is_not_an_error)
{
    fx f;
    mmm_sweep_result res;
    fx_open(&f, "poly_div_opt.xml");
    fx_set(&f, "Z", 70);
    fx_range(&f, "s", 11, 15);
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.nfeasible, 0);
    cr_assert_not(res.has_best);
    cr_assert_eq(res.first_infeasible.code, MMM_EINFEASIBLE);
    fx_close(&f);
}

/* ------------------------------------------------------------------ */
/* Multiplication.  With B_s = ceil((n+s-1)/(sl)) blocks per
 * row of M:
 *   O_s = B_s U (5ms + 2m - 3s^2)/s      (slides (3): B_s = (n+s-1)/(sl))
 *   N_s/K_s = (2m - s)/m,  L_s = log2(m/s) + 1
 *   C_s = max(2s^2 - s + (2s+2)U, s + 3sU)  (slides: the first term only)
 */

static double mul_O(int64_t n, int64_t m, int64_t s, int64_t l, int64_t U)
{
    return (double)cdiv(n + s - 1, s * l) * (double)U *
           (double)(5 * m * s + 2 * m - 3 * s * s) / (double)s;
}

static double mul_C_slide(int64_t s, int64_t U)
{
    return (double)(s * (2 * s - 1) + 2 * U * (s + 1));
}

static double mul_C_dag(int64_t s, int64_t U)
{
    return fmax(mul_C_slide(s, U), (double)(s + 3 * s * U));
}

/* Equation (4): O_1/O_s with m = n, exact divisions. */
static double eq4(double n, double s)
{
    return n * s * s * (7 * n - 3) / ((n + s - 1) * (5 * n * s + 2 * n - 3 * s * s));
}

/* Equation (5): corollary R with m = n and the slides' C_s. */
static double eq5(double n, double s, double U)
{
    return (n * log2(n) + 3 * n - 1) * (1 + 4 * U) /
           ((n * log2(n / s) + 3 * n - s) * (2 * U * s + 2 * U + 2 * s * s - s));
}

static void mul_sweep(fx *f, collect *c, mmm_sweep_result *res, int64_t n,
                      int64_t l, int64_t U, mmm_objective obj)
{
    static mmm_value vals[7];
    size_t i;
    for (i = 0; i < 7; i++)
        vals[i] = mmm_value_int((int64_t)1 << i); /* s = 1..64 */
    fx_open(f, "poly_mul.xml");
    fx_set(f, "n", n);
    fx_set(f, "m", n);
    fx_set(f, "l", l);
    fx_set(f, "U", U);
    fx_set(f, "Z", 1 << 20); /* every s fits: 2sl + 2s - 1 <= Z */
    f->spec.naxes = 1;
    f->spec.axes[0].slot = slot(f, "s");
    f->spec.axes[0].values = vals;
    f->spec.axes[0].nvalues = 7;
    f->spec.objective = obj;
    fx_run(f, res, collect_fn, c);
}

Test(optimize, multiplication_overhead_ratio_is_equation_4)
{
    const int64_t n = 1 << 14, l = 256, U = 400;
    fx f;
    collect c = {0};
    mmm_sweep_result res;
    size_t i;
    mul_sweep(&f, &c, &res, n, l, U, MMM_OBJECTIVE_OVERHEAD);
    cr_assert_eq(res.nfeasible, 7);
    for (i = 0; i < c.n; i++) {
        int64_t s = c.pt[i].params[0].num;
        /* The tool rounds the blocks per row up; the slides do not.  Their
         * ratio is eq. (4) times the ratio of the two rounding factors. */
        double round_s = (double)(n + s - 1) / (double)(s * l) /
                         (double)cdiv(n + s - 1, s * l);
        double round_1 = (double)n / (double)l / (double)cdiv(n, l);
        double ratio = c.pt[0].O / c.pt[i].O;
        cr_assert(close12(c.pt[i].O, mul_O(n, n, s, l, U)), "O_%lld",
                  (long long)s);
        cr_assert(close12(ratio, eq4((double)n, (double)s) * round_s / round_1),
                  "O_1/O_%lld = %.17g", (long long)s, ratio);
        /* W = (2m-1)(n+s-1) when the rounding is exact: (2m-1) B_s s l. */
        cr_assert(close12(c.pt[i].W, (double)(2 * n - 1) *
                                           (double)(cdiv(n + s - 1, s * l) * s * l)));
    }
    /* Overhead falls with s: the optimizer takes the largest s... */
    cr_assert_eq(res.best.params[0].num, 64);
    for (i = 1; i < c.n; i++)
        cr_assert_lt(c.pt[i].O, c.pt[i - 1].O);
    /* ...while the corollary bound grows: s = 1 minimizes it and the
     * overhead-optimal value fails the corollary check. */
    cr_assert_eq(res.min_corollary.params[0].num, 1);
    cr_assert_not(res.corollary_not_worse);
    for (i = 1; i < c.n; i++)
        cr_assert_gt(c.pt[i].corollary, c.pt[i - 1].corollary);
    fx_close(&f);
}

Test(optimize, multiplication_corollary_ratio_is_equation_5)
{
    /* N/K = (2m-s)/m and L do not depend on the rounding, so R is eq. (5)
     * exactly, up to C: where the addition block dominates C (s >= 3 and
     * U > 2s(s-1)/(s-2)) the DAG's C differs from the slides' C_s. */
    static const int64_t Us[] = {1, 10, 12, 13, 400};
    size_t u, i;
    for (u = 0; u < sizeof Us / sizeof Us[0]; u++) {
        const int64_t n = 1 << 12, l = 64, U = Us[u];
        fx f;
        collect c = {0};
        mmm_sweep_result res;
        mul_sweep(&f, &c, &res, n, l, U, MMM_OBJECTIVE_COROLLARY);
        for (i = 0; i < c.n; i++) {
            int64_t s = c.pt[i].params[0].num;
            double R = c.pt[0].corollary / c.pt[i].corollary;
            double Cfix = mul_C_slide(s, U) / mul_C_dag(s, U);
            int addition_dominates = s >= 3 && U * (s - 2) > 2 * s * (s - 1);
            cr_assert(close12(c.pt[i].C, mul_C_dag(s, U)));
            cr_assert_eq(c.pt[i].C != mul_C_slide(s, U), addition_dominates,
                         "s=%lld U=%lld", (long long)s, (long long)U);
            cr_assert(close12(R, eq5((double)n, (double)s, (double)U) * Cfix),
                      "R(s=%lld, U=%lld) = %.17g", (long long)s, (long long)U, R);
            cr_assert_eq(c.pt[i].L, ilog2(n / s) + 1);
        }
        /* The corollary objective keeps s = 1 (R < 1 for every s > 1). */
        cr_assert_eq(res.best.params[0].num, 1);
        cr_assert(res.corollary_not_worse);
        fx_close(&f);
    }
}

/* ------------------------------------------------------------------ */
/* Ties, order, exact ranges, two parameters. */

static const char flat_xml[] =
    "<program name=\"flat\">\n"
    "  <param name=\"U\" value=\"3\"/>\n"
    "  <param name=\"s\" value=\"1\" min=\"1\" max=\"9\"/>\n"
    "  <kernel id=\"k\" blocks=\"4\" work=\"s\" span=\"1\" reads=\"1\" writes=\"1\"/>\n"
    "</program>\n";

Test(optimize, ties_go_to_the_smaller_value_whatever_the_order)
{
    /* O = 4 blocks x 2U does not depend on s: every value ties. */
    static const mmm_value vals[] = {{1, 7, 1, 7.0}, {1, 3, 1, 3.0}, {1, 5, 1, 5.0}};
    fx f;
    mmm_sweep_result res;
    fx_open_mem(&f, flat_xml);
    fx_range(&f, "s", 9, 2);
    f.spec.axes[0].has_step = 1;
    f.spec.axes[0].step = mmm_value_int(-1);
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.npoints, 8);
    cr_assert_eq(res.best.params[0].num, 2);
    cr_assert_eq(res.baseline.params[0].num, 9); /* the first feasible */
    cr_assert(close12(res.best.O, 24.0));

    f.spec.axes[0].has_from = f.spec.axes[0].has_to = f.spec.axes[0].has_step = 0;
    f.spec.axes[0].values = vals;
    f.spec.axes[0].nvalues = 3;
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.best.params[0].num, 3);
    cr_assert_eq(res.baseline.params[0].num, 7);
    fx_close(&f);
}

Test(optimize, cost_equality_tolerance)
{
    cr_assert(mmm__cost_equal(1.0, 1.0 + 1e-15));
    cr_assert(mmm__cost_equal(0.0, 0.0));
    cr_assert_not(mmm__cost_equal(1.0, 1.0 + 1e-9));
    cr_assert_not(mmm__cost_equal(NAN, NAN));
}

Test(optimize, exact_rational_range)
{
    /* s from 1/2 to 2 step 1/4: 7 exact values; min is 1 so the values
     * below it are infeasible (out of range). */
    static const char xml[] =
        "<program name=\"r\">\n"
        "  <param name=\"U\" value=\"1\"/>\n"
        "  <param name=\"s\" value=\"1\" min=\"0\" max=\"4\"/>\n"
        "  <kernel id=\"k\" blocks=\"1\" work=\"1\" span=\"1\" reads=\"1/s\" writes=\"0\"/>\n"
        "</program>\n";
    fx f;
    collect c = {0};
    mmm_sweep_result res;
    size_t i;
    fx_open_mem(&f, xml);
    f.spec.naxes = 1;
    f.spec.axes[0].slot = slot(&f, "s");
    f.spec.axes[0].has_from = f.spec.axes[0].has_to = f.spec.axes[0].has_step = 1;
    f.spec.axes[0].from = mmm_value_ratio(1, 2);
    f.spec.axes[0].to = mmm_value_int(2);
    f.spec.axes[0].step = mmm_value_ratio(1, 4);
    fx_run(&f, &res, collect_fn, &c);
    cr_assert_eq(res.npoints, 7);
    for (i = 0; i < 7; i++) {
        cr_assert(c.pt[i].params[0].exact);
        cr_assert_eq(c.pt[i].params[0].num * 4, (int64_t)(i + 2) * c.pt[i].params[0].den);
        /* O = (1/s) U */
        cr_assert(close12(c.pt[i].O, 4.0 / (double)(i + 2)));
    }
    cr_assert_eq(res.best.params[0].num, 2);
    cr_assert_eq(res.best.params[0].den, 1);
    fx_close(&f);
}

Test(optimize, two_parameters_grid_brute_force)
{
    /* poly_mul over s in {1..32} (powers of two) x l in 16..256 step 16
     * under Z = 4096: feasibility 2sl + 2s - 1 <= Z, the best by the
     * closed form with ceilings, ties to the smaller (s, l). */
    static mmm_value svals[6];
    const int64_t n = 4096, m = 4096, U = 400, Z = 4096;
    int64_t s, l, bs = 0, bl = 0, feasible = 0;
    double bo = 0;
    fx f;
    mmm_sweep_result res;
    size_t i;

    for (i = 0; i < 6; i++)
        svals[i] = mmm_value_int((int64_t)1 << i);
    for (i = 0; i < 6; i++)
        for (l = 16; l <= 256; l += 16) {
            double o;
            s = (int64_t)1 << i;
            if (2 * s * l + 2 * s - 1 > Z)
                continue;
            feasible++;
            o = mul_O(n, m, s, l, U);
            if (bs == 0 || o < bo) {
                bo = o;
                bs = s;
                bl = l;
            }
        }
    fx_open(&f, "poly_mul.xml");
    fx_set(&f, "n", n);
    fx_set(&f, "m", m);
    fx_set(&f, "Z", Z);
    f.spec.naxes = 2;
    f.spec.axes[0].slot = slot(&f, "s");
    f.spec.axes[0].values = svals;
    f.spec.axes[0].nvalues = 6;
    f.spec.axes[1].slot = slot(&f, "l");
    f.spec.axes[1].has_from = f.spec.axes[1].has_to = f.spec.axes[1].has_step = 1;
    f.spec.axes[1].from = mmm_value_int(16);
    f.spec.axes[1].to = mmm_value_int(256);
    f.spec.axes[1].step = mmm_value_int(16);
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.npoints, 6 * 16);
    cr_assert_eq((int64_t)res.nfeasible, feasible);
    cr_assert_eq(res.best.params[0].num, bs);
    cr_assert_eq(res.best.params[1].num, bl, "best l %lld, expected %lld",
                 (long long)res.best.params[1].num, (long long)bl);
    cr_assert(close12(res.best.O, bo));
    fx_close(&f);
}

/* ------------------------------------------------------------------ */
/* Baseline, objectives, bad specifications. */

Test(optimize, explicit_baseline_outside_the_sweep)
{
    const int64_t n = 5040 + 2519, m = 5040, U = 400;
    fx f;
    mmm_sweep_result res;
    fx_open(&f, "poly_div_opt.xml");
    fx_set(&f, "Z", 70);
    fx_set(&f, "n", n);
    fx_set(&f, "m", m);
    fx_range(&f, "s", 5, 10);
    f.spec.has_baseline = 1;
    f.spec.baseline[0] = mmm_value_int(2);
    fx_run(&f, &res, NULL, NULL);
    cr_assert_not(res.baseline_in_sweep);
    cr_assert_eq(res.baseline.params[0].num, 2);
    cr_assert(close12(res.ratio_O, div_opt_O(n, m, 2, U) / div_opt_O(n, m, 10, U)));
    cr_assert(close12(res.ratio_O, 25.0));

    f.spec.baseline[0] = mmm_value_int(11); /* 7s > Z */
    {
        mmm_error err;
        cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err),
                     MMM_EINFEASIBLE);
        cr_assert(strstr(err.message, "baseline s=11 is infeasible"), "%s",
                  err.message);
    }
    fx_close(&f);
}

Test(optimize, bound_objective_and_p)
{
    /* Graham-Brent at p: (N/p + L) C with N = ceil(c/s) ceil(m/(2s)),
     * L = ceil(c/s), C = 3s + 9U, c = n - m + 1: brute force. */
    const int64_t n = 65536, m = 4096, U = 400, p = 14, c0 = n - m + 1;
    int64_t s, best = 0;
    double bb = 0;
    fx f;
    mmm_sweep_result res;
    for (s = 1; s <= 400; s++) {
        double L = (double)cdiv(c0, s), N = L * (double)cdiv(m, 2 * s);
        double b = (N / (double)p + L) * (double)(3 * s + 9 * U);
        if (best == 0 || b < bb) {
            bb = b;
            best = s;
        }
    }
    fx_open(&f, "poly_div_opt.xml");
    fx_range(&f, "s", 1, 400);
    f.spec.objective = MMM_OBJECTIVE_BOUND;
    f.spec.has_p = 1;
    f.spec.p = p;
    fx_run(&f, &res, NULL, NULL);
    cr_assert_eq(res.best.params[0].num, best);
    cr_assert(close12(res.best.graham_brent, bb));
    cr_assert_eq(res.min_bound.index, res.best.index);
    cr_assert(res.graham_brent_not_worse);
    fx_close(&f);
}

Test(optimize, bound_objective_needs_p)
{
    fx f;
    mmm_sweep_result res;
    mmm_error err;
    fx_open_mem(&f, flat_xml);
    fx_range(&f, "s", 1, 3);
    f.spec.objective = MMM_OBJECTIVE_BOUND;
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "needs p"), "%s", err.message);
    /* -p on a program that does not declare p */
    f.spec.has_p = 1;
    f.spec.p = 4;
    fx_run(&f, &res, NULL, NULL);
    cr_assert(res.has_p);
    /* (N/p + L) C = (4/4 + 1)(1 + 2*3) = 14 */
    cr_assert(close12(res.best.graham_brent, 14.0));
    fx_close(&f);
}

Test(optimize, bad_specifications)
{
    fx f;
    mmm_sweep_result res;
    mmm_error err;
    static const char nomax[] =
        "<program name=\"x\"><param name=\"s\" value=\"1\"/>"
        "<kernel id=\"k\" blocks=\"1\" work=\"s\" span=\"1\" reads=\"0\" writes=\"0\"/>"
        "</program>";
    fx_open_mem(&f, flat_xml);
    fx_range(&f, "s", 1, 3);
    f.spec.axes[0].has_step = 1;
    f.spec.axes[0].step = mmm_value_int(0);
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "step"), "%s", err.message);
    f.spec.axes[0].step = mmm_value_int(1);
    f.spec.axes[0].from = mmm_value_int(5);
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "empty"), "%s", err.message);
    f.spec.axes[0].from = mmm_value_int(1);
    f.spec.axes[0].to = mmm_value_int(1000);
    f.spec.max_points = 100;
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "more than 100 points"), "%s", err.message);
    f.spec.max_points = 0;
    f.spec.naxes = 2;
    f.spec.axes[1] = f.spec.axes[0];
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "swept twice"), "%s", err.message);
    fx_close(&f);

    fx_open_mem(&f, nomax);
    f.spec.naxes = 1;
    f.spec.axes[0].slot = slot(&f, "s");
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "declares no min"), "%s", err.message);
    fx_close(&f);
}

static int stop_at_3(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    (void)why;
    (void)payload;
    return pt->index == 2 ? MMM_EIO : 0;
}

Test(optimize, callback_can_stop_the_sweep)
{
    fx f;
    mmm_sweep_result res;
    mmm_error err;
    fx_open_mem(&f, flat_xml);
    fx_range(&f, "s", 1, 9);
    cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, stop_at_3, NULL, &err), MMM_EIO);
    cr_assert_eq(res.npoints, 3);
    fx_close(&f);
}

/* ------------------------------------------------------------------ */
/* The command line. */

static int run_cmd(const char *args, char *out, size_t size)
{
    char cmd[4096];
    FILE *p;
    size_t n = 0;
    int st;
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>&1", MMM_SOURCE_DIR, MMM_BIN, args);
    p = popen(cmd, "r");
    cr_assert_not_null(p);
    if (out) {
        n = fread(out, 1, size - 1, p);
        out[n] = '\0';
    } else {
        char buf[4096];
        while (fread(buf, 1, sizeof buf, p) > 0)
            ;
    }
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char out_buf[1 << 20];

Test(optimize_cli, json_contract_keys)
{
    static const char *keys[] = {
        "\"param\": [", "\"objective\": \"overhead\"", "\"best\": {",
        "\"baseline\": {", "\"sweep\": [", "\"checks\": {",
        "\"graham_brent_not_worse\": true", "\"corollary_not_worse\": true",
        "\"feasible\": true", "\"metrics\": {", "\"bounds\": {",
        "\"graham_brent\": ", "\"corollary\": ", "\"ratios\": {"};
    size_t i;
    int rc = run_cmd("optimize dags/poly_div_opt.xml --param s --to 40 --format json",
                     out_buf, sizeof out_buf);
    cr_assert_eq(rc, 0, "%s", out_buf);
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_assert(strstr(out_buf, keys[i]), "missing %s", keys[i]);
}

Test(optimize_cli, text_warns_when_the_check_fails)
{
    int rc = run_cmd("optimize dags/poly_mul.xml --param s --values 1,2,4,8,16 -D Z=2^20",
                     out_buf, sizeof out_buf);
    cr_assert_eq(rc, 0, "%s", out_buf);
    cr_assert(strstr(out_buf, "warning"), "%s", out_buf);
    cr_assert(strstr(out_buf, "fails the corollary check"), "%s", out_buf);
    cr_assert(strstr(out_buf, "<- best"), "%s", out_buf);
}

Test(optimize_cli, csv_rows)
{
    int rc = run_cmd("optimize dags/poly_div_opt.xml --param s --from 1 --to 12 "
                     "-D Z=70 --format csv", out_buf, sizeof out_buf);
    static const char head[] = "s,feasible,W,S,O,N,L,C,K,graham_brent,corollary,reason\n";
    char *line;
    int rows = 0, infeasible = 0;
    cr_assert_eq(rc, 0, "%s", out_buf);
    cr_assert(!strncmp(out_buf, head, strlen(head)), "%s", out_buf);
    for (line = strchr(out_buf, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        int s, feasible;
        cr_assert_eq(sscanf(line + 1, "%d,%d", &s, &feasible), 2);
        rows++;
        infeasible += feasible == 0;
    }
    cr_assert_eq(rows, 12);
    cr_assert_eq(infeasible, 2, "%s", out_buf);
}

Test(optimize_cli, exit_codes)
{
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml", NULL, 0), 2);
    cr_assert_eq(run_cmd("optimize --param s", NULL, 0), 2);
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --bogus", NULL, 0), 2);
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --objective fast", NULL, 0), 2);
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param nope", out_buf,
                         sizeof out_buf), 1);
    cr_assert(strstr(out_buf, "declares no parameter 'nope'"), "%s", out_buf);
    /* no feasible value: exit 1 with the reason */
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --from 11 --to 12 -D Z=70",
                         out_buf, sizeof out_buf), 1);
    cr_assert(strstr(out_buf, "no feasible value"), "%s", out_buf);
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --to 9 --help",
                         NULL, 0), 0);
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --plot x.gif", NULL, 0), 2);
}

static int file_starts_with(const char *path, const char *magic, size_t n)
{
    char buf[16] = {0};
    FILE *f = fopen(path, "rb");
    size_t got;
    if (!f)
        return 0;
    got = fread(buf, 1, n, f);
    fclose(f);
    return got == n && memcmp(buf, magic, n) == 0;
}

Test(optimize_cli, plots)
{
    char args[2048], png[1024], svg[1024], dir[] = "/tmp/mmm_test_optimize_XXXXXX";
    if (!mmm_plot_available())
        cr_skip_test("built without PLplot");
    cr_assert_not_null(mkdtemp(dir));
    snprintf(png, sizeof png, "%s/plot.png", dir);
    snprintf(svg, sizeof svg, "%s/plot.svg", dir);
    snprintf(args, sizeof args, "optimize dags/poly_div_opt.xml --param s "
             "--plot '%s'", png);
    cr_assert_eq(run_cmd(args, out_buf, sizeof out_buf), 0, "%s", out_buf);
    cr_assert(file_starts_with(png, "\x89PNG", 4));
    snprintf(args, sizeof args, "optimize dags/poly_mul.xml --param s "
             "--values 1,2,4,8 --param l --from 32 --to 256 --step 32 "
             "--plot '%s' --format csv", svg);
    cr_assert_eq(run_cmd(args, out_buf, sizeof out_buf), 0, "%s", out_buf);
    cr_assert(file_starts_with(svg, "<?xml", 5));
    remove(png);
    remove(svg);
    rmdir(dir);
}

/* --max-rows 0: every row.  A sweep of up to 20,000 values keeps them and
 * prints the summary, then the whole table with columns sized to their
 * content; a larger one prints its rows as they come (constant memory),
 * the table first. */
Test(optimize_cli, all_rows_kept_or_streamed)
{
    int rc = run_cmd("optimize dags/poly_div_opt.xml --param s --to 12 -D Z=70 "
                     "--max-rows 0", out_buf, sizeof out_buf);
    char *table, *summary;
    int rows = 0;
    cr_assert_eq(rc, 0, "%s", out_buf);
    summary = strstr(out_buf, "program    poly_div_opt");
    /* The sweep table's head: the last line naming the bounds (the
     * summary's best/baseline table names them too). */
    table = NULL;
    for (char *q = out_buf; (q = strstr(q, "Graham-Brent  corollary\n")) != NULL; q++)
        table = q;
    cr_assert(table && summary && summary < table, "%s", out_buf);
    for (char *p = table; *p; p++)
        rows += *p == '\n';
    cr_assert_eq(rows, 1 + 12, "%s", out_buf); /* head line and rows */
    cr_assert(strstr(out_buf, "12 values, 10 feasible"), "%s", out_buf);
    /* 1755 values of s times 16 of n = 28080 > 20000: streamed. */
    rc = run_cmd("optimize dags/poly_div_opt.xml --param s --param n --values "
                 "4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,"
                 "4194304,8388608,16777216,33554432,67108864,134217728 --max-rows 0 "
                 "| awk 'NR == 1 || /values,/'", out_buf, sizeof out_buf);
    cr_assert_eq(rc, 0, "%s", out_buf);
    cr_assert(strstr(out_buf, "Graham-Brent") && strstr(out_buf, "Graham-Brent") < strstr(out_buf, "28080 values,"),
              "%s", out_buf);
}

/* ------------------------------------------------------------------ */
/* Plot curves: streaming decimation. */

Test(plot, small_curves_are_kept_whole_with_gaps)
{
    mmm_plot_curve c;
    size_t i, nan = 0;
    cr_assert_eq(mmm_plot_curve_init(&c, "x", 10, 0), 0);
    cr_assert(c.markers);
    for (i = 0; i < 10; i++)
        cr_assert_eq(mmm_plot_curve_add(&c, (double)i, i == 3 || i == 4 ? NAN : (double)i), 0);
    cr_assert_eq(mmm_plot_curve_finish(&c), 0);
    for (i = 0; i < c.n; i++)
        nan += isnan(c.y[i]);
    cr_assert_eq(c.n, 9);   /* 8 points and one break for the two NaNs */
    cr_assert_eq(nan, 1);
    cr_assert(isnan(c.y[3]) && c.y[4] == 5.0);
    mmm_plot_curve_dispose(&c);
}

Test(plot, large_curves_are_decimated_keeping_extremes)
{
    /* 10^6 points of a slow curve with two spikes and a hole: at most
     * ~4000 kept, the spikes and both ends kept, the hole a break. */
    const uint64_t n = 1000000;
    mmm_plot_curve c;
    uint64_t i;
    size_t j, nan = 0;
    double ymax = -1, ymin = 1e300;
    cr_assert_eq(mmm_plot_curve_init(&c, "x", n, 4000), 0);
    cr_assert_not(c.markers);
    for (i = 0; i < n; i++) {
        double y = 1000.0 + (double)(i % 1000);
        if (i == 123457)
            y = 1e9;
        if (i == 765433)
            y = -5;
        if (i >= 500000 && i < 510000)
            y = NAN;
        cr_assert_eq(mmm_plot_curve_add(&c, (double)i, y), 0);
    }
    cr_assert_eq(mmm_plot_curve_finish(&c), 0);
    cr_assert_leq(c.n, 4100);
    for (j = 0; j < c.n; j++) {
        if (isnan(c.y[j])) {
            nan++;
            continue;
        }
        ymax = fmax(ymax, c.y[j]);
        ymin = fmin(ymin, c.y[j]);
        if (j > 0 && !isnan(c.y[j - 1]))
            cr_assert_gt(c.x[j], c.x[j - 1]); /* in input order */
    }
    cr_assert_eq(ymax, 1e9);
    cr_assert_eq(ymin, -5);
    cr_assert_eq(c.x[0], 0);
    cr_assert_eq(c.x[c.n - 1], (double)(n - 1));
    cr_assert_geq(nan, 1);
    cr_assert_leq(nan, 3);
    mmm_plot_curve_dispose(&c);
}
