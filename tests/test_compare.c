/*
 * test_compare.c: `mmm compare` and the slides' comparison of the naive and
 * the optimized polynomial division (Haque, Moreno Maza, Xie 2014), with
 * l = Z/2 and s = Z/7, against the closed forms coded here:
 *   W_nai/W_opt = 8(Z+1)/(9Z+7)      O_nai/O_opt = 20Z/441
 *   R = (2/3)(3+5U)(2m+Zp)Z / ((Z+21U)(7m+2Zp))     (Graham-Brent, p SMs)
 *   R -> (4/21)(3+5U)Z/(Z+21U) as m -> infinity, > 1 iff Z > 441U/(20U-9)
 * and, not on the slides, the corollary's ratio (N/K = L for both programs):
 *   R_cor = s(3+5U)/(3s+9U) = Z(3+5U)/(3(Z+21U)).
 * The slides' forms assume exact divisions: Z is a multiple of 14, m of
 * lcm(l, 2s) and n-m+1 of s.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"
#include "numbers.h"

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

typedef struct prog_run {
    mmm_program *prog;
    mmm_instance *inst;
    mmm_metrics m;
} prog_run;

static void set(mmm_override *ov, size_t *n, const mmm_program *p,
                const char *name, int64_t v)
{
    int slot = mmm_program_find_param(p, name);
    cr_assert_geq(slot, 0, "%s has no %s", p->name, name);
    ov[*n].slot = slot;
    ov[(*n)++].value = mmm_value_int(v);
}

/* Evaluate one division program at (n, m, Z, U, p) with l = Z/2 (naive) or
 * s = Z/7 (optimized). */
static void eval_div(prog_run *r, const char *file, int64_t n, int64_t m,
                     int64_t Z, int64_t U, int64_t p)
{
    char path[1024];
    mmm_error err;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_override ov[8];
    size_t nov = 0;
    int naive = strstr(file, "naive") != NULL;

    memset(r, 0, sizeof *r);
    snprintf(path, sizeof path, "%s/%s", MMM_DAGS_DIR, file);
    cr_assert_eq(mmm_program_load_file(&r->prog, path, &opt, &err), 0, "%s",
                 err.message);
    cr_assert_eq(mmm_instance_new(&r->inst, r->prog, &err), 0, "%s", err.message);
    set(ov, &nov, r->prog, "n", n);
    set(ov, &nov, r->prog, "m", m);
    set(ov, &nov, r->prog, "Z", Z);
    set(ov, &nov, r->prog, "U", U);
    set(ov, &nov, r->prog, "p", p);
    if (naive)
        set(ov, &nov, r->prog, "l", Z / 2);
    else
        set(ov, &nov, r->prog, "s", Z / 7);
    cr_assert_eq(mmm_instance_eval(r->inst, ov, nov, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_metrics_compute(&r->m, r->inst, 0, &err), 0, "%s", err.message);
}

static void free_run(prog_run *r)
{
    mmm_metrics_dispose(&r->m);
    mmm_instance_free(r->inst);
    mmm_program_free(r->prog);
}

/* m a multiple of lcm(Z/2, 2Z/7) times k; n - m + 1 = (Z/7) j. */
static void div_point(int64_t Z, int64_t k, int64_t j, int64_t *n, int64_t *m)
{
    int64_t l = Z / 2, s2 = 2 * (Z / 7);
    *m = l / gcd64(l, s2) * s2 * k;
    *n = *m - 1 + (Z / 7) * j;
}

Test(compare, division_ratios_at_l_z2_s_z7)
{
    static const int64_t Zs[] = {14, 56, 98, 448, 12292};
    static const int64_t Us[] = {1, 5, 400, 800};
    static const int64_t ps[] = {1, 14, 16};
    size_t a, b, c;
    for (a = 0; a < sizeof Zs / sizeof Zs[0]; a++)
        for (b = 0; b < sizeof Us / sizeof Us[0]; b++)
            for (c = 0; c < sizeof ps / sizeof ps[0]; c++) {
                const int64_t Z = Zs[a], U = Us[b], p = ps[c];
                double z = (double)Z, u = (double)U, pp = (double)p, md, R;
                int64_t n, m;
                prog_run nai, opt;
                div_point(Z, 3, 5, &n, &m);
                md = (double)m;
                eval_div(&nai, "poly_div_naive.xml", n, m, Z, U, p);
                eval_div(&opt, "poly_div_opt.xml", n, m, Z, U, p);
                cr_assert(close_rel(nai.m.W / opt.m.W, 8 * (z + 1) / (9 * z + 7), 1e-12),
                          "W ratio Z=%lld", (long long)Z);
                cr_assert(close_rel(nai.m.O / opt.m.O, 20 * z / 441, 1e-12),
                          "O ratio Z=%lld", (long long)Z);
                cr_assert(close_rel(nai.m.S / opt.m.S, 1.0, 1e-12));
                R = nai.m.graham_brent / opt.m.graham_brent;
                cr_assert(close_rel(R, 2.0 / 3.0 * (3 + 5 * u) * (2 * md + z * pp) * z /
                                           ((z + 21 * u) * (7 * md + 2 * z * pp)),
                                    1e-12),
                          "R Z=%lld U=%lld p=%lld: %.17g", (long long)Z,
                          (long long)U, (long long)p, R);
                cr_assert(close_rel(nai.m.corollary / opt.m.corollary,
                                    z * (3 + 5 * u) / (3 * (z + 21 * u)), 1e-12));
                free_run(&nai);
                free_run(&opt);
            }
}

Test(compare, division_large_m_limit_and_threshold)
{
    /* R at m ~ 2^36 is within Zp/m of its limit (4/21)(3+5U)Z/(Z+21U),
     * which exceeds 1 exactly when Z > 441U/(20U-9). */
    static const int64_t Us[] = {1, 2, 3, 10, 400};
    size_t b;
    int64_t Z;
    for (b = 0; b < sizeof Us / sizeof Us[0]; b++)
        for (Z = 14; Z <= 700; Z += 14) {
            const int64_t U = Us[b], p = 14;
            double z = (double)Z, u = (double)U;
            double limit = 4.0 / 21.0 * (3 + 5 * u) * z / (z + 21 * u);
            int64_t n, m, k = ((int64_t)1 << 36) / (Z * Z);
            prog_run nai, opt;
            double R;
            div_point(Z, k, 1, &n, &m);
            eval_div(&nai, "poly_div_naive.xml", n, m, Z, U, p);
            eval_div(&opt, "poly_div_opt.xml", n, m, Z, U, p);
            R = nai.m.graham_brent / opt.m.graham_brent;
            cr_assert(close_rel(R, limit, 4 * z * (double)p / (double)m),
                      "Z=%lld U=%lld: R %.10g limit %.10g", (long long)Z,
                      (long long)U, R, limit);
            if (fabs(limit - 1) > 1e-3) {
                int wins = z * (20 * u - 9) > 441 * u; /* Z > 441U/(20U-9) */
                cr_assert_eq(R > 1, wins, "Z=%lld U=%lld R=%.10g", (long long)Z,
                             (long long)U, R);
            }
            free_run(&nai);
            free_run(&opt);
        }
}

/* ------------------------------------------------------------------ */
/* The command line. */

static char out[1 << 18];

static int run_cmd(const char *args)
{
    char cmd[4096];
    FILE *p;
    size_t n;
    int st;
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s 2>&1", MMM_SOURCE_DIR, MMM_BIN, args);
    p = popen(cmd, "r");
    cr_assert_not_null(p);
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The number after "key": in the text after `after`. */
static double json_num(const char *after, const char *key)
{
    char pat[64];
    const char *a = strstr(out, after), *k;
    cr_assert_not_null(a, "no %s", after);
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    k = strstr(a, pat);
    cr_assert_not_null(k, "no %s after %s", key, after);
    return strtod(k + strlen(pat), NULL);
}

Test(compare_cli, json_ratios_reproduce_the_slides)
{
    /* Z = 56: l = 28, s = 8, m = 448, n - m + 1 = 800, p = 14, U = 400. */
    double z = 56, u = 400, m = 448, p = 14;
    int rc = run_cmd("compare dags/poly_div_naive.xml dags/poly_div_opt.xml "
                     "-D Z=56 -D l=28 -D s=8 -D m=448 -D n=1247 -D U=400 -p 14 "
                     "--format json");
    cr_assert_eq(rc, 0, "%s", out);
    cr_assert(strstr(out, "\"a\": {") && strstr(out, "\"b\": {"), "%s", out);
    cr_assert(strstr(out, "\"program\": \"poly_div_naive\""));
    cr_assert(close_rel(json_num("\"ratios\"", "W"), 8 * (z + 1) / (9 * z + 7), 1e-12));
    cr_assert(close_rel(json_num("\"ratios\"", "O"), 20 * z / 441, 1e-12));
    cr_assert(close_rel(json_num("\"ratios\"", "graham_brent"),
                        2.0 / 3.0 * (3 + 5 * u) * (2 * m + z * p) * z /
                            ((z + 21 * u) * (7 * m + 2 * z * p)), 1e-12));
    cr_assert(close_rel(json_num("\"ratios\"", "corollary"),
                        z * (3 + 5 * u) / (3 * (z + 21 * u)), 1e-12));
    cr_assert(strstr(out, "note: -D s ignored"), "%s", out);
    cr_assert(strstr(out, "note: -D l ignored"), "%s", out);
}

Test(compare_cli, text_and_csv)
{
    cr_assert_eq(run_cmd("compare dags/poly_div_naive.xml dags/poly_div_opt.xml"), 0,
                 "%s", out);
    cr_assert(strstr(out, "R (Graham-Brent) = "), "%s", out);
    cr_assert(strstr(out, "R (corollary, each for p >= its K) = "), "%s", out);
    cr_assert_eq(run_cmd("compare dags/poly_div_naive.xml dags/poly_div_opt.xml "
                         "--corollary --format csv"), 0, "%s", out);
    cr_assert(!strncmp(out, "measure,a,b,ratio\nW,", 20), "%s", out);
    cr_assert(strstr(out, "\ncorollary,"), "%s", out);
    cr_assert_null(strstr(out, "graham_brent"), "%s", out);
}

Test(compare_cli, errors)
{
    cr_assert_eq(run_cmd("compare dags/poly_div_opt.xml"), 2);
    cr_assert_eq(run_cmd("compare a.xml b.xml c.xml"), 2);
    cr_assert_eq(run_cmd("compare dags/poly_div_naive.xml dags/poly_div_opt.xml "
                         "-p 4 --corollary"), 2);
    cr_assert_eq(run_cmd("compare dags/poly_div_naive.xml dags/poly_div_opt.xml "
                         "-D nosuch=3"), 1);
    cr_assert(strstr(out, "neither"), "%s", out);
    cr_assert_eq(run_cmd("compare dags/poly_div_naive.xml dags/missing.xml"), 1);
}
