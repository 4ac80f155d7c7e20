/* test_fit.c: the runs reader (every bad input gives FILE:LINE) and the
 * fit: constants recovered from runs synthesized by the time model itself,
 * exactly and with 5 % noise. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"

static void bad(const char *text, size_t len, long line, const char *needle)
{
    mmm_runs *r = NULL;
    mmm_error err;
    mmm_error_clear(&err);
    cr_expect_lt(mmm_runs_read_memory(&r, text, len, "runs.csv", 0, &err), 0,
                 "accepted: %s", text);
    cr_expect_null(r);
    cr_expect_str_eq(err.file, "runs.csv");
    cr_expect_eq(err.line, line, "'%s': line %ld (%s), want %ld", text,
                 err.line, err.message, line);
    cr_expect_not_null(strstr(err.message, needle), "'%s': '%s' lacks '%s'",
                       text, err.message, needle);
}

#define BAD(text, line, needle) bad(text, sizeof text - 1, line, needle)

Test(runs, bad_inputs)
{
    BAD("", 1, "empty file");
    BAD("\n\n", 1, "empty file");
    BAD("n,m,time_ms\n1,2,3\n", 1, "needs a 'program' column");
    BAD("program,n\ndiv,1\n", 1, "needs a 'program' column and a time");
    BAD("program,time_ms,time_s\na,1,2\n", 1, "two time columns");
    BAD("program,n,n,time_ms\na,1,2,3\n", 1, "'n' appears twice");
    BAD("program,,time_ms\na,1,2\n", 1, "column 2 of the header has no name");
    BAD("program,time_ms\n", 1, "no rows after the header");
    BAD("program,n,time_ms\na,1,2\nb,3\n", 3, "2 fields where the header has 3");
    BAD("program,n,time_ms\na,1,2\nb,3,4,5\n", 3, "4 fields");
    BAD("program,time_ms\na,abc\n", 2, "time_ms 'abc' is not a positive number");
    BAD("program,time_ms\na,-1\n", 2, "not a positive number");
    BAD("program,time_ms\na,0\n", 2, "not a positive number");
    BAD("program,time_ms\na,1e999\n", 2, "not a positive number");
    BAD("program,time_ms\na,\n", 2, "not a positive number");
    BAD("program,time_ms\n ,1\n", 2, "program cell is blank");
    BAD("program,time_ms,launch\na,1,fast\n", 2, "launch 'fast' must be stream or graph");
    BAD("program,time_ms\n\"a,1\n", 2, "unterminated quoted field");
    BAD("program,time_ms\n\"a\"x,1\n", 2, "text after a quoted field");
    BAD("program,time_ms\na\"b,1\n", 2, "a '\"' inside an unquoted field");
    BAD("program,time_ms\na,1\nb,2\0\n", 3, "a NUL byte");
    BAD("program,time_ms\r\na,1\r\n\r\nb,x\r\n", 4, "time_ms 'x'");
}

Test(runs, good_input)
{
    static const char text[] =
        "\xEF\xBB\xBFprogram, n ,time_us,launch,note\r\n"
        "\r\n"
        "\"div,opt\",4096,1500,graph,\"say \"\"hi\"\"\"\r\n"
        "mul,,2.5,,x\n"
        "mul,7,1e3,stream,\"two\nlines\"\n"
        "last,1,3,,y";
    mmm_runs *r = NULL;
    mmm_error err;
    cr_assert_eq(mmm_runs_read_memory(&r, text, sizeof text - 1, "g.csv", 0,
                                      &err),
                 0, "%s:%ld: %s", err.file, err.line, err.message);
    cr_assert_eq(r->nrows, 4);
    cr_expect_eq(r->ncols, 5);
    cr_expect_str_eq(r->columns[1], "n");
    cr_expect_eq(r->time_col, 2);
    cr_expect_eq(r->launch_col, 3);
    cr_expect_str_eq(r->rows[0].program, "div,opt");
    cr_expect_eq(r->rows[0].line, 3);
    cr_expect(fabs(r->rows[0].seconds - 1.5e-3) < 1e-18);
    cr_expect_eq(r->rows[0].graph, 1);
    cr_expect_str_eq(r->rows[0].cells[4], "say \"hi\"");
    cr_expect_eq(r->rows[1].line, 4);
    cr_expect_str_eq(r->rows[1].cells[1], "");
    cr_expect_eq(r->rows[1].graph, 0);
    cr_expect_eq(r->rows[2].line, 5);
    cr_expect_str_eq(r->rows[2].cells[4], "two\nlines");
    cr_expect_eq(r->rows[3].line, 7, "line %ld", r->rows[3].line);
    cr_expect(fabs(r->rows[3].seconds - 3e-6) < 1e-20);
    mmm_runs_free(r);
}

Test(runs, overrides_and_file_errors)
{
    static const char prog[] =
        "<program name='p'><param name='n' value='1'/><param name='m' value='2'/>"
        "<kernel id='a' blocks='1' work='n' span='m' reads='0' writes='0'/>"
        "</program>";
    static const char text[] = "program,n,z,time_s\np,5,9,1\np,x,1,1\np,,1,1\n";
    mmm_program *p;
    mmm_runs *r;
    mmm_error err;
    mmm_override ov[4];
    size_t nov;
    cr_assert_eq(mmm_program_load_memory(&p, prog, sizeof prog - 1, "p.xml",
                                         NULL, &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_runs_read_memory(&r, text, sizeof text - 1, "o.csv", 1,
                                      &err),
                 0, "%s", err.message);
    cr_expect_eq(r->rows[0].graph, 1, "the default launch mode");
    cr_assert_eq(mmm_runs_overrides(r, 0, p, ov, &nov, &err), 0);
    cr_expect_eq(nov, 1, "z names no parameter: ignored");
    cr_expect_eq(ov[0].slot, mmm_program_find_param(p, "n"));
    cr_expect_eq(ov[0].value.d, 5);
    cr_expect_lt(mmm_runs_overrides(r, 1, p, ov, &nov, &err), 0);
    cr_expect_eq(err.line, 3);
    cr_expect_not_null(strstr(err.message, "n 'x' is not a number"), "%s",
                       err.message);
    cr_assert_eq(mmm_runs_overrides(r, 2, p, ov, &nov, &err), 0);
    cr_expect_eq(nov, 0, "a blank cell keeps the default");
    mmm_runs_free(r);
    mmm_program_free(p);
    cr_expect_lt(mmm_runs_read_file(&r, "/nonexistent/runs.csv", 0, &err), 0);
    cr_expect_not_null(strstr(err.message, "cannot open"));
}

/* ------------------------------------------------------------------ */
/* Fitting runs synthesized by the model                               */

typedef struct design {
    const char *dag;
    const char *defs[4];
} design;

static const design runs_design[] = {
    {"cumodp/div_opt.xml", {"n=4096", "m=2048", "s=32"}},
    {"cumodp/div_opt.xml", {"n=4096", "m=2048", "s=256"}},
    {"cumodp/div_opt.xml", {"n=4096", "m=2048", "s=1024"}},
    {"cumodp/div_opt.xml", {"n=16384", "m=256", "s=64"}},
    {"cumodp/div_opt.xml", {"n=16384", "m=256", "s=512"}},
    {"cumodp/div_opt.xml", {"n=65536", "m=32768", "s=128"}},
    {"cumodp/div_opt.xml", {"n=65536", "m=32768", "s=1024"}},
    {"cumodp/div_opt.xml", {"n=4096", "m=2048", "s=512"}},
    {"cumodp/div_opt.xml", {"n=16384", "m=256", "s=1024"}},
    {"cumodp/div_opt.xml", {"n=65536", "m=32768", "s=256"}},
    {"cumodp/div_opt.xml", {"n=16384", "m=256", "s=32"}},
    {"cumodp/div_naive.xml", {"n=4096", "m=2048", "B=1"}},
    {"cumodp/div_naive.xml", {"n=4096", "m=2048", "B=8"}},
    {"cumodp/div_naive.xml", {"n=65536", "m=32768", "B=1"}},
    {"cumodp/div_naive.xml", {"n=16384", "m=256", "B=8"}},
    {"cumodp/mul.xml", {"n=1024", "m=256", "s=1"}},
    {"cumodp/mul.xml", {"n=1024", "m=1024", "s=8", "l=128"}},
    {"cumodp/mul.xml", {"n=4096", "m=4096", "s=2"}},
    {"cumodp/mul.xml", {"n=8192", "m=4096", "s=32"}},
    {"cumodp/mul.xml", {"n=16384", "m=16384", "s=4", "l=512"}},
    {"cumodp/mul.xml", {"n=16384", "m=16384", "s=16"}},
    {"cumodp/mul.xml", {"n=65536", "m=65536", "s=4"}},
    {"cumodp/mul.xml", {"n=65536", "m=65536", "s=8"}},
    {"cumodp/mul.xml", {"n=65536", "m=256", "s=1"}},
    /* many small blocks: the SM's block starts bind */
    {"gpu/reduce.xml", {"n=268435456", "tpb=64", "k=1"}},
    {"gpu/reduce.xml", {"n=268435456", "tpb=128", "k=1"}},
    {"gpu/reduce.xml", {"n=16777216", "tpb=64", "k=2"}},
    /* a tiled product with 8 outputs per thread: the issue rate binds
     * (since dags/cumodp/mul.xml counts its product kernel's shared
     * wavefronts in full, no CUMODP run is issue-bound) */
    {"gpu/matmul.xml", {"n=1024", "tile=32", "r=8"}},
    {"gpu/matmul.xml", {"n=2048", "tile=32", "r=4"}},
    /* one atomic per block on one word: the atomics bind */
    {"gpu/shfl_reduce.xml", {"n=1073741824", "tpb=64", "k=1"}},
    {"gpu/shfl_reduce.xml", {"n=268435456", "tpb=64", "k=2"}},
};
#define NDESIGN (sizeof runs_design / sizeof runs_design[0])

typedef struct synth {
    mmm_machine *mach;
    mmm_program *prog[NDESIGN];
    mmm_instance *inst[NDESIGN];
    mmm_fit_sample s[2 * NDESIGN];
} synth;

static void synth_open(synth *y)
{
    mmm_error err;
    memset(y, 0, sizeof *y);
    cr_assert_eq(mmm_machine_load_file(&y->mach,
                                       MMM_DAGS_DIR "/machines/h100.xml", NULL,
                                       &err),
                 0, "%s", err.message);
    mmm_load_options lo = MMM_LOAD_OPTIONS_INIT;
    lo.machine = y->mach;
    for (size_t i = 0; i < NDESIGN; i++) {
        char path[512];
        mmm_override ov[4];
        size_t nov = 0;
        snprintf(path, sizeof path, "%s/%s", MMM_DAGS_DIR,
                 runs_design[i].dag);
        cr_assert_eq(mmm_program_load_file(&y->prog[i], path, &lo, &err), 0,
                     "%s", err.message);
        for (int d = 0; d < 4 && runs_design[i].defs[d]; d++) {
            char name[32];
            const char *eq = strchr(runs_design[i].defs[d], '=');
            snprintf(name, sizeof name, "%.*s",
                     (int)(eq - runs_design[i].defs[d]),
                     runs_design[i].defs[d]);
            ov[nov].slot = mmm_program_find_param(y->prog[i], name);
            cr_assert_geq(ov[nov].slot, 0);
            ov[nov].value = mmm_value_double(atof(eq + 1));
            nov++;
        }
        cr_assert_eq(mmm_instance_new(&y->inst[i], y->prog[i], &err), 0);
        cr_assert_eq(mmm_instance_eval(y->inst[i], ov, nov, &err), 0, "%s",
                     err.message);
    }
}

static void synth_close(synth *y)
{
    for (size_t i = 0; i < NDESIGN; i++) {
        mmm_instance_free(y->inst[i]);
        mmm_program_free(y->prog[i]);
    }
    mmm_machine_free(y->mach);
}

/* The true constants: every term of the model binds on some run. */
static void truth(mmm_time_machine *m)
{
    m->c[MMM_TIME_LAUNCH] = 3.5e-6;
    m->c[MMM_TIME_LAUNCH_GRAPH] = 1.5e-6;
    m->c[MMM_TIME_OP] = 6;
    m->c[MMM_TIME_ISSUE] = 1.5;
    m->c[MMM_TIME_SYNC] = 300;
    m->c[MMM_TIME_SYNC_WARP] = 20;
    m->c[MMM_TIME_MEM_LATENCY] = 700;
    m->c[MMM_TIME_BANDWIDTH] = 800;
    m->c[MMM_TIME_START] = 1e-5;
    m->c[MMM_TIME_BLOCK] = 170;
    m->c[MMM_TIME_EXPOSED] = 0.4;
    m->c[MMM_TIME_ATOMIC] = 4.5;
}

/* A reproducible uniform number in [-1, 1] (64-bit LCG, Knuth MMIX). */
static double uniform(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / (double)(1ull << 53) * 2 - 1;
}

static void fit_synth(double noise, double tol, double err_tol)
{
    synth y;
    mmm_time_machine real, m;
    mmm_error err;
    uint64_t st = 12345;
    synth_open(&y);
    cr_assert_eq(mmm_time_machine_get(&real, y.inst[0], 0, &err), 0, "%s",
                 err.message);
    truth(&real);
    size_t n = 0;
    for (size_t i = 0; i < NDESIGN; i++)
        for (int g = 0; g < 2; g++) {
            double t;
            cr_assert_eq(mmm_time_predict(&real, y.inst[i], g, &t, &err), 0,
                         "%s", err.message);
            y.s[n].inst = y.inst[i];
            y.s[n].graph = g;
            y.s[n].seconds = t * (1 + noise * uniform(&st));
            n++;
        }
    /* start from the typical values, not from the truth */
    m = real;
    for (int c = 0; c < MMM_TIME_NCONST; c++)
        m.c[c] = 0;
    mmm_fit_options fo;
    mmm_fit_options_init(&fo);
    for (int c = 0; c < MMM_TIME_NCONST; c++)
        fo.fit[c] = 1;
    fo.max_iter = 300;
    mmm_fit_result res;
    cr_assert_eq(mmm_time_fit(&m, y.s, n, &fo, &res, &err), 0, "%s",
                 err.message);
    for (int c = 0; c < MMM_TIME_NCONST; c++)
        cr_expect(fabs(m.c[c] - real.c[c]) <= tol * real.c[c],
                  "noise %g: %s = %.10g, true %.10g", noise,
                  mmm_time_const_name(c), m.c[c], real.c[c]);
    cr_expect_leq(res.median_rel_error, err_tol, "median %g",
                  res.median_rel_error);
    mmm_fit_result_dispose(&res);
    synth_close(&y);
}

Test(fit, recovers_exact_constants, .timeout = 300)
{
    fit_synth(0, 1e-6, 1e-9);
}

Test(fit, recovers_constants_with_5_percent_noise, .timeout = 300)
{
    fit_synth(0.05, 0.25, 0.05);
}

/* Samples of the design synthesized from the true constants, each time
 * times (1 + noise·u), u uniform in [-1, 1] from seed; only the design
 * rows from..to (inclusive), in both launch modes.  Returns the count. */
static size_t synth_runs(synth *y, const mmm_time_machine *real, double noise,
                         uint64_t seed, size_t from, size_t to)
{
    mmm_error err;
    size_t n = 0;
    for (size_t i = from; i <= to; i++)
        for (int g = 0; g < 2; g++) {
            double t;
            cr_assert_eq(mmm_time_predict(real, y->inst[i], g, &t, &err), 0,
                         "%s", err.message);
            y->s[n].inst = y->inst[i];
            y->s[n].graph = g;
            y->s[n].seconds = t * (1 + noise * uniform(&seed));
            n++;
        }
    return n;
}

/* ln of sample i's prediction with constant c scaled by e^h. */
static double ln_pred(const mmm_time_machine *m, const mmm_fit_sample *s,
                      int c, double h)
{
    mmm_time_machine mm = *m;
    mmm_error err;
    double t;
    mm.c[c] *= exp(h);
    cr_assert_eq(mmm_time_predict(&mm, s->inst, s->graph, &t, &err), 0, "%s",
                 err.message);
    return log(t);
}

/* Two constants fitted to noisy runs: the uncertainty and correlation the
 * fit reports against a direct computation here: the Jacobian of ln t by
 * central differences with another step, the 2 x 2 inverse of JᵀJ in
 * closed form, s² = cost / (runs - 2). */
Test(fit, uncertainty_against_a_direct_computation, .timeout = 300)
{
    synth y;
    mmm_time_machine real, m;
    mmm_error err;
    synth_open(&y);
    cr_assert_eq(mmm_time_machine_get(&real, y.inst[0], 0, &err), 0, "%s",
                 err.message);
    truth(&real);
    size_t n = synth_runs(&y, &real, 0.05, 777, 0, NDESIGN - 1);
    const int c0 = MMM_TIME_LAUNCH, c1 = MMM_TIME_BANDWIDTH;
    m = real;
    m.c[c0] *= 2; /* start away from the truth */
    m.c[c1] /= 2;
    mmm_fit_options fo;
    mmm_fit_options_init(&fo);
    fo.fit[c0] = fo.fit[c1] = 1;
    mmm_fit_result res;
    cr_assert_eq(mmm_time_fit(&m, y.s, n, &fo, &res, &err), 0, "%s",
                 err.message);
    cr_assert(res.at_bound[c0] == 0 && res.at_bound[c1] == 0);
    double a00 = 0, a01 = 0, a11 = 0, h = 1e-3;
    for (size_t i = 0; i < n; i++) {
        double j0 = (ln_pred(&m, &y.s[i], c0, h) - ln_pred(&m, &y.s[i], c0, -h)) /
                    (2 * h),
               j1 = (ln_pred(&m, &y.s[i], c1, h) - ln_pred(&m, &y.s[i], c1, -h)) /
                    (2 * h);
        a00 += j0 * j0;
        a01 += j0 * j1;
        a11 += j1 * j1;
    }
    double det = a00 * a11 - a01 * a01, s2 = res.cost / (double)(n - 2);
    double sd0 = sqrt(s2 * a11 / det), sd1 = sqrt(s2 * a00 / det),
           corr = -a01 / sqrt(a00 * a11);
    cr_expect(fabs(res.rel_sd[c0] / sd0 - 1) < 0.01, "launch_s sd %g, direct %g",
              res.rel_sd[c0], sd0);
    cr_expect(fabs(res.rel_sd[c1] / sd1 - 1) < 0.01, "bandwidth sd %g, direct %g",
              res.rel_sd[c1], sd1);
    cr_expect(fabs(res.corr[c0][c1] - corr) < 0.01 &&
                  res.corr[c0][c1] == res.corr[c1][c0],
              "correlation %g, direct %g", res.corr[c0][c1], corr);
    cr_expect(fabs(res.corr[c0][c0] - 1) < 1e-12);
    /* the constants kept have none */
    cr_expect(isnan(res.rel_sd[MMM_TIME_OP]) && !res.at_bound[MMM_TIME_OP] &&
              isnan(res.corr[c0][MMM_TIME_OP]));
    /* and the truth lies within a few of these deviations */
    cr_expect(fabs(log(m.c[c0] / real.c[c0])) < 4 * res.rel_sd[c0], "%g %g",
              m.c[c0], real.c[c0]);
    cr_expect(fabs(log(m.c[c1] / real.c[c1])) < 4 * res.rel_sd[c1], "%g %g",
              m.c[c1], real.c[c1]);
    mmm_fit_result_dispose(&res);
    synth_close(&y);
}

/* A constant that the runs would take below its physical bound ends
 * there; one that no run depends on is undetermined; two that every run
 * sees in the same proportion are reported as traded one for the other. */
Test(fit, bounds_unused_and_traded_constants, .timeout = 300)
{
    synth y;
    mmm_time_machine real, m;
    mmm_error err;
    mmm_fit_options fo;
    mmm_fit_result res;
    double lo, hi;
    synth_open(&y);
    cr_assert_eq(mmm_time_machine_get(&real, y.inst[0], 0, &err), 0, "%s",
                 err.message);
    truth(&real);
    mmm_time_const_bounds(MMM_TIME_OP, &lo, &hi);
    real.c[MMM_TIME_OP] = lo / 5; /* runs of a machine beyond the bound */
    /* the optimized division only (design rows 0..10): no atomics */
    size_t n = synth_runs(&y, &real, 0, 1, 0, 10);
    m = real;
    m.c[MMM_TIME_OP] = 4;
    mmm_fit_options_init(&fo);
    fo.fit[MMM_TIME_OP] = fo.fit[MMM_TIME_ATOMIC] = 1;
    cr_assert_eq(mmm_time_fit(&m, y.s, n, &fo, &res, &err), 0, "%s",
                 err.message);
    cr_expect_eq(res.at_bound[MMM_TIME_OP], -1);
    cr_expect_eq(m.c[MMM_TIME_OP], lo);
    cr_expect(isnan(res.rel_sd[MMM_TIME_OP]));
    cr_expect(isinf(res.rel_sd[MMM_TIME_ATOMIC]) &&
                  !res.at_bound[MMM_TIME_ATOMIC] &&
                  isnan(res.corr[MMM_TIME_ATOMIC][MMM_TIME_OP]),
              "atomic_cycles sd %g", res.rel_sd[MMM_TIME_ATOMIC]);
    cr_expect_eq(m.c[MMM_TIME_ATOMIC], real.c[MMM_TIME_ATOMIC]);
    mmm_fit_result_dispose(&res);

    /* one configuration of the naive division (launch-bound), timed
     * three times: launch_s and start_s enter every run as
     * start + launches·launch_s, in the same proportion */
    truth(&real);
    for (int k = 0; k < 3; k++) {
        double t;
        cr_assert_eq(mmm_time_predict(&real, y.inst[11], 0, &t, &err), 0);
        y.s[k].inst = y.inst[11];
        y.s[k].graph = 0;
        y.s[k].seconds = t * (1 + 0.01 * (k - 1));
    }
    m = real;
    mmm_fit_options_init(&fo);
    fo.fit[MMM_TIME_LAUNCH] = fo.fit[MMM_TIME_START] = 1;
    cr_assert_eq(mmm_time_fit(&m, y.s, 3, &fo, &res, &err), 0, "%s",
                 err.message);
    cr_expect(isinf(res.rel_sd[MMM_TIME_LAUNCH]) &&
                  isinf(res.rel_sd[MMM_TIME_START]),
              "%g %g", res.rel_sd[MMM_TIME_LAUNCH], res.rel_sd[MMM_TIME_START]);
    cr_expect(fabs(res.corr[MMM_TIME_LAUNCH][MMM_TIME_START] + 1) < 1e-6,
              "correlation %.10g", res.corr[MMM_TIME_LAUNCH][MMM_TIME_START]);
    mmm_fit_result_dispose(&res);
    synth_close(&y);
}

/* ------------------------------------------------------------------ */
/* The command                                                         */

static int sh(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    cr_assert_not_null(p);
    while (n + 1 < size && fgets(out + n, (int)(size - n), p))
        n += strlen(out + n);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* mmm fit on DIR/ok.csv and the optimized division with --machine
 * dags/machines/MACHINE and ARGS, stdout and stderr into out; its exit
 * status. */
static int fit_ok(const char *dir, const char *machine, const char *args,
                  char *out, size_t size)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd " MMM_SOURCE_DIR " && " MMM_BIN " fit --data %s/ok.csv "
             "dags/cumodp/div_opt.xml --machine dags/machines/%s %s 2>&1",
             dir, machine, args);
    return sh(cmd, out, size);
}

Test(fit_cli, errors_and_written_machine, .timeout = 300)
{
    char dir[] = "/tmp/mmm_fit_XXXXXX", cmd[4096], out[65536];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "printf 'program,n,m,s,time_ms\\ndiv_opt,4096,2048,256,0.99\\n"
             "zzz,1,2,3,4\\n' > %s/bad.csv && cd " MMM_SOURCE_DIR " && "
             MMM_BIN " fit --data %s/bad.csv dags/cumodp/div_opt.xml "
             "--machine dags/machines/h100.xml 2>&1",
             dir, dir);
    cr_expect_eq(sh(cmd, out, sizeof out), 1);
    cr_expect_not_null(strstr(out, "/bad.csv:3: error: program 'zzz' is not "
                                   "one of the programs given (div_opt)"),
                       "%s", out);
    snprintf(cmd, sizeof cmd,
             "printf 'program,n,m,s,time_ms\\ndiv_opt,4096,2048,100,0.99\\n'"
             " > %s/bad2.csv && cd " MMM_SOURCE_DIR " && " MMM_BIN
             " fit --data %s/bad2.csv dags/cumodp/div_opt.xml "
             "--machine dags/machines/h100.xml 2>&1",
             dir, dir);
    cr_expect_eq(sh(cmd, out, sizeof out), 1);
    cr_expect_not_null(strstr(out, "/bad2.csv:2: error: "), "%s", out);
    cr_expect_not_null(strstr(out, "s == 2^floor(log2(s))"), "%s", out);
    /* a fit of two runs, written, read back by analyze */
    snprintf(cmd, sizeof cmd,
             "printf 'program,n,m,s,time_ms\\ndiv_opt,4096,2048,256,0.99\\n"
             "div_opt,4096,2048,32,1.29\\n' > %s/ok.csv && cd "
             MMM_SOURCE_DIR " && " MMM_BIN " fit --data %s/ok.csv "
             "dags/cumodp/div_opt.xml --machine dags/machines/h100.xml "
             "-o %s/m.xml --format json && " MMM_BIN
             " analyze dags/cumodp/div_opt.xml --machine %s/m.xml --model "
             "time --format json -D n=4096 -D m=2048",
             dir, dir, dir, dir);
    cr_expect_eq(sh(cmd, out, sizeof out), 0, "%s", out);
    cr_expect_not_null(strstr(out, "\"median_rel_error\""), "%s", out);
    cr_expect_not_null(strstr(out, "\"measured_s\": 0.00099"), "%s", out);
    cr_expect_not_null(strstr(out, "\"time\": {"), "%s", out);
    /* a kept constant must have a value */
    cr_expect_eq(fit_ok(dir, "h100.xml", "--fit op_cycles", out, sizeof out),
                 1, "%s", out);
    cr_expect_not_null(strstr(out, "the constant 'launch_s' is kept but has "
                                   "no value"),
                       "%s", out);
    /* kept constants keep the base machine's values (h100.xml declares
     * mem_latency_cycles = 690 and op_cycles = 4.2417) */
    cr_expect_eq(fit_ok(dir, "h100.xml",
                        "--fix mem_latency_cycles,op_cycles --format json",
                        out, sizeof out),
                 0, "%s", out);
    cr_expect_not_null(strstr(out, "\"op_cycles\": 4.2417"), "%s", out);
    cr_expect_not_null(strstr(out, "\"mem_latency_cycles\": 690"), "%s", out);
    /* how well the two runs determine what is fitted: op_cycles from
     * them, atomic_cycles (no atomics in the division) not at all */
    cr_expect_eq(fit_ok(dir, "h100-fitted.xml", "--fit op_cycles,atomic_cycles",
                        out, sizeof out),
                 0, "%s", out);
    cr_expect_not_null(strstr(out, " uncertainty "), "%s", out);
    const char *ln = strstr(out, "\natomic_cycles ");
    cr_expect(ln && strstr(ln, " undetermined ") &&
                  strstr(ln, " undetermined ") < strchr(ln + 1, '\n') &&
                  strstr(out, "note: no run depends on atomic_cycles"),
              "%s", out);
    ln = strstr(out, "\nop_cycles ");
    cr_expect(ln && strstr(ln, " +/-") && strstr(ln, " +/-") < strchr(ln + 1, '\n'),
              "%s", out);
    cr_expect_not_null(strstr(out, "\nlaunch_s                   3.62416e-06    "
                                   "kept "),
                       "%s", out);
    cr_expect_eq(fit_ok(dir, "h100-fitted.xml",
                        "--fit op_cycles,atomic_cycles --format json", out,
                        sizeof out),
                 0, "%s", out);
    cr_expect(strstr(out, "\"uncertainty\": {\n    \"op_cycles\": 0.0") &&
                  strstr(out, "\"atomic_cycles\": null\n  }") &&
                  strstr(out, "\"at_bound\": {}") &&
                  strstr(out, "\"tradeoffs\": []"),
              "%s", out);
    /* start_s is optional: a file without it (h100-calibrated.xml) is
     * predicted with 0 when nothing is fitted */
    cr_expect_eq(fit_ok(dir, "h100-calibrated.xml", "--fit none --format json",
                        out, sizeof out),
                 0, "%s", out);
    cr_expect_not_null(strstr(out, "\"start_s\": 0"), "%s", out);
    /* --help names every constant the fit knows */
    cr_expect_eq(sh(MMM_BIN " fit --help", out, sizeof out), 0);
    for (int i = 0; i < MMM_TIME_NCONST; i++)
        cr_expect_not_null(strstr(out, mmm_time_const_name(i)),
                           "--help does not name %s", mmm_time_const_name(i));
    /* a -D the program does not declare is noted once, not once per run */
    snprintf(cmd, sizeof cmd,
             "cd " MMM_SOURCE_DIR " && " MMM_BIN " fit --data %s/ok.csv "
             "dags/cumodp/div_opt.xml --machine dags/machines/h100.xml "
             "-D nosuch=1 --format json 2>&1 >/dev/null",
             dir);
    cr_expect_eq(sh(cmd, out, sizeof out), 0, "%s", out);
    const char *note = "note: -D nosuch ignored: the file declares no such "
                       "parameter";
    const char *first = strstr(out, note);
    cr_expect_not_null(first, "%s", out);
    cr_expect_null(first ? strstr(first + 1, note) : NULL, "%s", out);
    /* the written file says which constants were kept and which fitted */
    snprintf(cmd, sizeof cmd,
             "cd " MMM_SOURCE_DIR " && " MMM_BIN " fit --data %s/ok.csv "
             "dags/cumodp/div_opt.xml --machine dags/machines/h100.xml "
             "--fix op_cycles,mem_latency_cycles -o %s/m2.xml >/dev/null && "
             "grep -c 'op_cycles: .*, kept from the base machine -->' "
             "%s/m2.xml && grep -c 'launch_s: .*, fitted -->' %s/m2.xml && "
             "grep -c 'mem_latency_cycles: .*, fitted -->' %s/m2.xml",
             dir, dir, dir, dir, dir);
    cr_expect_eq(sh(cmd, out, sizeof out), 1, "%s", out);
    cr_expect_str_eq(out, "1\n1\n0\n");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_expect_eq(system(cmd), 0);
}

/* A number after "key": in a JSON text (the first occurrence from p). */
static double json_num(const char *p, const char *key)
{
    char k[64];
    snprintf(k, sizeof k, "\"%s\": ", key);
    const char *q = strstr(p, k);
    cr_assert_not_null(q, "no %s in %s", key, p);
    return strtod(q + strlen(k), NULL);
}

Test(fit_cli, objective_time_compare_report, .timeout = 300)
{
    static char out[1 << 20], one[1 << 16];
    double at[2];
    const int s[2] = {32, 256};
    /* analyze --model time at each value: the independent prediction */
    for (int i = 0; i < 2; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "cd " MMM_SOURCE_DIR " && " MMM_BIN " analyze "
                 "dags/cumodp/div_opt.xml --machine "
                 "dags/machines/h100-fitted.xml --model time --format json "
                 "-D n=4096 -D m=2048 -D s=%d",
                 s[i]);
        cr_assert_eq(sh(cmd, one, sizeof one), 0, "%s", one);
        at[i] = json_num(strstr(one, "\"time\": {"), "seconds");
        cr_expect_gt(at[i], 0);
    }
    cr_assert_eq(sh("cd " MMM_SOURCE_DIR " && " MMM_BIN " optimize "
                    "dags/cumodp/div_opt.xml --machine "
                    "dags/machines/h100-fitted.xml --objective time --param s "
                    "--values 32,256 -D n=4096 -D m=2048 --format json",
                    out, sizeof out),
                 0, "%s", out);
    int best = at[1] < at[0];
    const char *b = strstr(out, "\"best\"");
    cr_assert_not_null(b);
    cr_expect_eq((int)json_num(b, "s"), s[best], "%s", out);
    cr_expect_eq(json_num(strstr(out, "\"sweep\""), "seconds"), at[0]);
    /* compare --time: the ratio of the two predictions */
    cr_assert_eq(sh("cd " MMM_SOURCE_DIR " && " MMM_BIN " compare "
                    "dags/cumodp/div_opt.xml dags/cumodp/div_opt.xml "
                    "--machine dags/machines/h100-fitted.xml --time "
                    "--format json -D n=4096 -D m=2048",
                    out, sizeof out),
                 0, "%s", out);
    cr_expect_eq(json_num(strstr(out, "\"ratios\""), "time"), 1.0);
    /* the report has the section */
    cr_assert_eq(sh("cd " MMM_SOURCE_DIR " && " MMM_BIN " report "
                    "dags/cumodp/div_opt.xml --machine "
                    "dags/machines/h100-fitted.xml -D n=4096 -D m=2048 "
                    "--no-sweep --no-simulation -o - 2>&1 | grep -c "
                    "'<h2>Predicted time</h2>'",
                    out, sizeof out),
                 0, "%s", out);
}

/* A lone CR ends a line too (found by fuzz_runs): the row after it is on
 * line 2. */
Test(runs, lone_cr)
{
    BAD("program,time_ms\ra,x\r", 2, "time_ms 'x'");
    BAD("program,time_ms\r\"a\rb\",1\rc,y\n", 4, "time_ms 'y'");
}
