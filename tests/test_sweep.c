/*
 * test_sweep.c: what a sweep enforces and how it is laid out — the
 * machine's launch limits for every objective (mmm_time_check_launches),
 * any number of swept parameters, lists of tuples, geometric ranges — and
 * how `mmm optimize` reports them.  Expected values come from brute force
 * coded here (the limits applied by hand, the grid enumerated by nested
 * loops), never from the tool's earlier output.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/mmm.h"
#include "mmm/optimize.h"
#include "mmm/timemodel.h"
#include "numbers.h"

/* ------------------------------------------------------------------ */
/* A program with its own machine: launch limits small enough to reach. */

/* block_threads 256, block_shared_bytes 2048, an SM of 512 threads, 4
 * blocks, 4096 bytes of shared memory and 8192 registers (granules and
 * partitions 1); the time model's constants round numbers. */
#define LIMITS \
    "<param name='block_threads' value='256'/>\n" \
    "<param name='block_shared_bytes' value='2048'/>\n" \
    "<param name='sm_threads' value='512'/>\n" \
    "<param name='sm_blocks' value='4'/>\n" \
    "<param name='sm_shared_bytes' value='4096'/>\n" \
    "<param name='sm_registers' value='8192'/>\n"
#define CONSTANTS \
    "<param name='clock_hz' value='1e6'/>\n" \
    "<param name='launch_s' value='1e-3'/>\n" \
    "<param name='launch_graph_s' value='1e-4'/>\n" \
    "<param name='op_cycles' value='2'/>\n" \
    "<param name='issue_per_cycle' value='1'/>\n" \
    "<param name='sync_cycles' value='10'/>\n" \
    "<param name='sync_cycles_per_warp' value='5'/>\n" \
    "<param name='mem_latency_cycles' value='100'/>\n" \
    "<param name='bandwidth_bytes_per_cycle' value='100'/>\n"
/* A block of s threads with 12 s bytes of shared memory and 64 registers
 * a thread; 4096/s blocks (rounded up) and 8/s launches, so that O, the
 * bounds and the time all fall as s grows: every objective wants the
 * largest s that fits. */
#define KERNEL \
    "<param name='U' value='10'/>\n" \
    "<param name='p' value='2'/>\n" \
    "<param name='s' value='32' min='1' max='2000'/>\n" \
    "<kernel id='k' repeat='ceil(8/s)' blocks='ceil(4096/s)' threads='s'\n" \
    "        work='s' span='1' reads='1' writes='1' shared_bytes='12*s'\n" \
    "        registers='64'/>\n"

static const char limited_xml[] =
    "<program name='limited'>\n" LIMITS CONSTANTS KERNEL "</program>\n";
static const char unlimited_xml[] =
    "<program name='unlimited'>\n" KERNEL "</program>\n";

/* Why s does not fit the machine above, checked in the time model's
 * order (threads per block, shared memory per block, then one block
 * resident on an SM); MMM_TIME_FITS when it does. */
static mmm_time_excess by_hand(int64_t s)
{
    int64_t warps = cdiv(s, 32);
    if (s > 256)
        return MMM_TIME_OVER_BLOCK_THREADS;
    if (12 * s > 2048)
        return MMM_TIME_OVER_BLOCK_SHARED;
    if (warps * 32 > 512)
        return MMM_TIME_OVER_SM_THREADS;
    if (12 * s > 4096)
        return MMM_TIME_OVER_SM_SHARED;
    if (8192 / (64 * 32) < warps) /* 4 warps of 64-register threads */
        return MMM_TIME_OVER_SM_REGISTERS;
    return MMM_TIME_FITS;
}

typedef struct fx {
    mmm_program *prog;
    mmm_instance *inst;
    mmm_sweep_spec spec;
} fx;

static void fx_open(fx *f, const char *xml)
{
    mmm_error err;
    memset(f, 0, sizeof *f);
    mmm_sweep_spec_init(&f->spec);
    cr_assert_eq(mmm_program_load_memory(&f->prog, xml, strlen(xml), "t.xml", NULL, &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&f->inst, f->prog, &err), 0, "%s", err.message);
}

static void fx_close(fx *f)
{
    mmm_sweep_spec_dispose(&f->spec);
    mmm_instance_free(f->inst);
    mmm_program_free(f->prog);
}

static int slot(const fx *f, const char *name)
{
    int s = mmm_program_find_param(f->prog, name);
    cr_assert_geq(s, 0, "no parameter %s", name);
    return s;
}

/* Parse --param texts as mmm optimize takes them. */
static int fx_parse(fx *f, const mmm_sweep_axis_text *axes, size_t n, mmm_error *err)
{
    return mmm_sweep_spec_parse(&f->spec, f->prog, axes, n, NULL, NULL, err);
}

typedef struct points {
    size_t n;
    mmm_sweep_point pt[1024];
} points;

static int keep(const mmm_sweep_point *pt, const mmm_error *why, void *payload)
{
    points *p = payload;
    (void)why;
    cr_assert_lt(p->n, 1024);
    p->pt[p->n++] = *pt;
    return 0;
}

static void run(fx *f, mmm_sweep_result *res, points *p)
{
    mmm_error err;
    if (p)
        p->n = 0;
    cr_assert_eq(mmm_sweep_run(res, f->inst, &f->spec, p ? keep : NULL, p, &err), 0,
                 "%s", err.message);
}

/* ------------------------------------------------------------------ */
/* Launch limits */

Test(sweep, every_objective_keeps_to_the_machines_launch_limits)
{
    static const mmm_objective objs[] = {MMM_OBJECTIVE_OVERHEAD, MMM_OBJECTIVE_BOUND,
                                         MMM_OBJECTIVE_COROLLARY, MMM_OBJECTIVE_TIME};
    uint64_t want[MMM_SWEEP_NWHY] = {0}, feasible = 0;
    int64_t largest = 0; /* the largest s that fits */
    fx f;
    for (int64_t s = 1; s <= 600; s++) {
        mmm_time_excess x = by_hand(s);
        if (x == MMM_TIME_FITS) {
            feasible++;
            largest = s;
        } else {
            want[x]++;
        }
    }
    /* the brute force itself: 4 warps fit the registers, 128 threads */
    cr_assert_eq(feasible, 128);
    cr_assert_eq(want[MMM_TIME_OVER_SM_REGISTERS], 42);   /* 129 .. 170 */
    cr_assert_eq(want[MMM_TIME_OVER_BLOCK_SHARED], 86);   /* 171 .. 256 */
    cr_assert_eq(want[MMM_TIME_OVER_BLOCK_THREADS], 344); /* 257 .. 600 */
    fx_open(&f, limited_xml);
    for (size_t o = 0; o < sizeof objs / sizeof *objs; o++) {
        mmm_sweep_result res;
        points p;
        f.spec.objective = objs[o];
        f.spec.naxes = 1;
        f.spec.axes[0].slot = slot(&f, "s");
        f.spec.axes[0].has_to = 1;
        f.spec.axes[0].to = mmm_value_int(600);
        run(&f, &res, &p);
        cr_assert_eq(res.npoints, 600);
        cr_assert_eq(res.nfeasible, feasible, "%s: %llu feasible",
                     mmm_objective_name(objs[o]), (unsigned long long)res.nfeasible);
        for (int w = 0; w < MMM_SWEEP_NWHY; w++)
            cr_assert_eq(res.infeasible_by[w], want[w], "%s: why %d: %llu",
                         mmm_objective_name(objs[o]), w,
                         (unsigned long long)res.infeasible_by[w]);
        cr_assert_eq(res.limits_given, 5);
        /* the best: the smallest objective among the points that fit,
         * the smaller s on a tie */
        const mmm_sweep_point *low = NULL;
        for (size_t i = 0; i < p.n; i++) {
            mmm_time_excess x = by_hand(p.pt[i].params[0].num);
            cr_assert_eq(p.pt[i].status != 0, x != MMM_TIME_FITS);
            if (x != MMM_TIME_FITS)
                cr_assert_eq(p.pt[i].why, (int)x, "s = %lld",
                             (long long)p.pt[i].params[0].num);
            else if (!low || p.pt[i].objective < low->objective * (1 - 1e-12))
                low = &p.pt[i];
        }
        cr_assert_not_null(low);
        cr_assert_leq(low->params[0].num, largest);
        cr_assert_eq(res.best.params[0].num, low->params[0].num, "%s picks %lld",
                     mmm_objective_name(objs[o]), (long long)res.best.params[0].num);
    }
    fx_close(&f);
}

Test(sweep, without_limits_nothing_is_refused_and_current_gpus_are_known)
{
    fx f;
    mmm_sweep_result res;
    mmm_error err;
    mmm_time_excess x;
    mmm_time_machine m;
    int given = -1;
    mmm_override ov;
    fx_open(&f, unlimited_xml);
    f.spec.naxes = 1;
    f.spec.axes[0].slot = slot(&f, "s");
    f.spec.axes[0].has_to = 1;
    f.spec.axes[0].to = mmm_value_int(600);
    run(&f, &res, NULL);
    cr_assert_eq(res.nfeasible, 600);
    cr_assert_eq(res.limits_given, 0);
    for (int w = 0; w < MMM_SWEEP_NWHY; w++)
        cr_assert_eq(res.infeasible_by[w], 0);
    /* the largest limits of current GPUs: 1024 threads per block, 64
     * registers x 1024 threads = 65536 per SM */
    cr_assert_eq(mmm_time_limits_get(&m, f.inst, MMM_TIME_LIMITS_GIVEN, &given, &err), 0);
    cr_assert_eq(given, 0);
    cr_assert_eq(m.block_threads, INT64_MAX);
    cr_assert_eq(mmm_time_limits_get(&m, f.inst, MMM_TIME_LIMITS_CURRENT, &given, &err), 0);
    cr_assert_eq(m.block_threads, 1024);
    cr_assert_eq(m.block_shared_bytes, 227 * 1024);
    ov.slot = slot(&f, "s");
    for (int64_t s = 1000; s <= 1030; s++) {
        ov.value = mmm_value_int(s);
        cr_assert_eq(mmm_instance_eval(f.inst, &ov, 1, &err), 0, "%s", err.message);
        int rc = mmm_time_check_launches(f.inst, NULL, &x, &err);
        cr_assert_eq(rc, s <= 1024 ? MMM_OK : MMM_EINFEASIBLE, "s = %lld", (long long)s);
        cr_assert_eq(x, s <= 1024 ? MMM_TIME_FITS : MMM_TIME_OVER_BLOCK_THREADS);
    }
    cr_assert_str_eq(err.message, "kernel 'k': 1030 threads per block, more than "
                                  "block_threads = 1024");
    cr_assert_str_eq(mmm_time_excess_name(MMM_TIME_OVER_SM_REGISTERS), "sm_registers");
    fx_close(&f);
}

/* ------------------------------------------------------------------ */
/* Any number of parameters, lists of tuples */

static const char grid_xml[] =
    "<program name='grid'>\n"
    "  <param name='U' value='1'/>\n"
    "  <param name='a' value='1'/><param name='b' value='1'/>\n"
    "  <param name='c' value='1'/><param name='d' value='1'/>\n"
    "  <kernel id='k' blocks='a' work='1' span='1'\n"
    "          reads='(b-3)^2 + (c-2)^2 + (d-4)^2' writes='1'/>\n"
    "</program>\n";

/* O = a ((b-3)^2 + (c-2)^2 + (d-4)^2 + 1) U */
static double grid_O(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return (double)(a * ((b - 3) * (b - 3) + (c - 2) * (c - 2) + (d - 4) * (d - 4) + 1));
}

Test(sweep, four_parameters_in_grid_order_brute_force)
{
    static const mmm_sweep_axis_text axes[] = {
        {.name = "a", .values = "2,1"}, {.name = "b", .from = "1", .to = "5"},
        {.name = "c", .values = "3,2,1"}, {.name = "d", .from = "8", .to = "2", .step = "*1/2"}};
    static const int64_t A[] = {2, 1}, C[] = {3, 2, 1}, D[] = {8, 4, 2};
    fx f;
    mmm_sweep_result res;
    mmm_error err;
    points p;
    size_t i = 0;
    double best = INFINITY;
    int64_t bb[4] = {0};
    fx_open(&f, grid_xml);
    cr_assert_eq(fx_parse(&f, axes, 4, &err), 0, "%s", err.message);
    cr_assert_eq(f.spec.naxes, 4);
    run(&f, &res, &p);
    cr_assert_eq(res.npoints, 2 * 5 * 3 * 3);
    cr_assert_eq(p.n, 90);
    for (int ia = 0; ia < 2; ia++)
        for (int64_t b = 1; b <= 5; b++)
            for (int ic = 0; ic < 3; ic++)
                for (int id = 0; id < 3; id++, i++) {
                    double o = grid_O(A[ia], b, C[ic], D[id]);
                    cr_assert_eq(p.pt[i].params[0].num, A[ia]);
                    cr_assert_eq(p.pt[i].params[1].num, b);
                    cr_assert_eq(p.pt[i].params[2].num, C[ic]);
                    cr_assert_eq(p.pt[i].params[3].num, D[id]);
                    cr_assert_eq(p.pt[i].O, o);
                    /* ties to the smaller values, in axis order */
                    if (o < best || (o == best && (A[ia] < bb[0] ||
                                     (A[ia] == bb[0] && b < bb[1])))) {
                        best = o;
                        bb[0] = A[ia], bb[1] = b, bb[2] = C[ic], bb[3] = D[id];
                    }
                }
    for (int a = 0; a < 4; a++)
        cr_assert_eq(res.best.params[a].num, bb[a], "axis %d", a);
    cr_assert_eq(res.best.O, best);
    fx_close(&f);
}

Test(sweep, a_list_of_tuples_is_one_point_each)
{
    static const mmm_sweep_axis_text axes[] = {
        {.name = "a", .values = "1,2"}, {.name = "b,c,d", .values = "3x2x4,1x1x1,max(1,2)x(3)x2^2"}};
    static const int64_t T[3][3] = {{3, 2, 4}, {1, 1, 1}, {2, 3, 4}};
    fx f;
    mmm_sweep_result res;
    mmm_error err;
    points p;
    fx_open(&f, grid_xml);
    cr_assert_eq(fx_parse(&f, axes, 2, &err), 0, "%s", err.message);
    cr_assert_eq(f.spec.naxes, 4);
    cr_assert(!f.spec.axes[1].tied && f.spec.axes[2].tied && f.spec.axes[3].tied);
    run(&f, &res, &p);
    cr_assert_eq(res.npoints, 6);
    for (size_t i = 0; i < 6; i++) {
        int64_t a = (int64_t)(i / 3) + 1;
        const int64_t *t = T[i % 3];
        cr_assert_eq(p.pt[i].params[0].num, a);
        for (int k = 0; k < 3; k++)
            cr_assert_eq(p.pt[i].params[1 + k].num, t[k], "point %zu axis %d", i, k + 1);
        cr_assert_eq(p.pt[i].O, grid_O(a, t[0], t[1], t[2]));
    }
    cr_assert_eq(res.best.params[0].num, 1);
    cr_assert_eq(res.best.params[1].num, 3); /* (3, 2, 4): O = a */
    fx_close(&f);
}

Test(sweep, bad_tuples_and_ranges_are_refused)
{
    static const struct {
        mmm_sweep_axis_text ax;
        const char *msg;
    } bad[] = {
        {{.name = "b,c", .values = "1x2x3"}, "a point of 2 parameters is 2 values joined by 'x'"},
        {{.name = "b,c", .values = "1x2,3"}, "a point of 2 parameters"},
        {{.name = "b,c", .from = "1", .to = "3"}, "takes a list of tuples"},
        {{.name = "b,b", .values = "1x2"}, "--param b given twice"},
        {{.name = "b,e", .values = "1x2"}, "declares no parameter 'e'"},
        {{.name = "b", .from = "1", .to = "9", .step = "*1"}, "a factor must be positive and not 1"},
        {{.name = "b", .from = "1", .to = "9", .step = "*-2"}, "a factor must be positive"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        fx f;
        mmm_error err;
        fx_open(&f, grid_xml);
        cr_assert_lt(fx_parse(&f, &bad[i].ax, 1, &err), 0, "case %zu", i);
        cr_assert(strstr(err.message, bad[i].msg), "case %zu: %s", i, err.message);
        fx_close(&f);
    }
}

/* ------------------------------------------------------------------ */
/* Geometric ranges */

/* The values of from, from*f, ... not passing to, by hand in rationals
 * num/den (f = fn/fd). */
static size_t geometric_by_hand(int64_t fnum, int64_t fden, int64_t tnum, int64_t tden,
                                int64_t fn, int64_t fd, double *out)
{
    double v = (double)fnum / (double)fden, to = (double)tnum / (double)tden;
    double f = (double)fn / (double)fd;
    int up = (v > 0) == (f > 1);
    size_t n = 0;
    while (up ? v <= to * (1 + 1e-15) : v >= to * (1 - 1e-15)) {
        out[n++] = v;
        v *= f;
    }
    return n;
}

Test(sweep, geometric_ranges_against_the_values_by_hand)
{
    static const struct {
        const char *from, *to, *step;
        int64_t fnum, fden, tnum, tden, fn, fd;
    } cases[] = {
        {"32", "1024", "*2", 32, 1, 1024, 1, 2, 1},
        {"3", "100", "*2", 3, 1, 100, 1, 2, 1},
        {"1000", "1", "*1/10", 1000, 1, 1, 1, 1, 10},
        {"-1", "-100", "*3", -1, 1, -100, 1, 3, 1},
        {"1/2", "8", "*2", 1, 2, 8, 1, 2, 1},
        {"1", "2^62", "*2", 1, 1, INT64_C(1) << 62, 1, 2, 1},
        {"5", "5", "*7", 5, 1, 5, 1, 7, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        mmm_sweep_axis_text ax = {.name = "b", .from = cases[c].from, .to = cases[c].to,
                                  .step = cases[c].step};
        double want[100];
        size_t n = geometric_by_hand(cases[c].fnum, cases[c].fden, cases[c].tnum,
                                     cases[c].tden, cases[c].fn, cases[c].fd, want);
        fx f;
        mmm_sweep_result res;
        mmm_error err;
        points p;
        fx_open(&f, grid_xml);
        cr_assert_eq(fx_parse(&f, &ax, 1, &err), 0, "%s", err.message);
        cr_assert(f.spec.axes[0].geometric);
        run(&f, &res, &p);
        cr_assert_eq(res.npoints, n, "case %zu: %llu values, want %zu", c,
                     (unsigned long long)res.npoints, n);
        for (size_t i = 0; i < n; i++) {
            cr_assert(p.pt[i].params[0].exact, "case %zu value %zu", c, i);
            cr_assert(close_rel(p.pt[i].params[0].d, want[i], 1e-15), "case %zu: %g, want %g",
                      c, p.pt[i].params[0].d, want[i]);
        }
        cr_assert_eq(res.axes[0].to.d, want[n - 1]);
        fx_close(&f);
    }
    /* empty, or never reaching its end */
    static const mmm_sweep_axis_text empty[] = {
        {.name = "b", .from = "64", .to = "32", .step = "*2"},
        {.name = "b", .from = "0", .to = "32", .step = "*2"},
        {.name = "b", .from = "4", .to = "-1", .step = "*1/2"}};
    for (size_t c = 0; c < 3; c++) {
        fx f;
        mmm_sweep_result res;
        mmm_error err;
        fx_open(&f, grid_xml);
        cr_assert_eq(fx_parse(&f, &empty[c], 1, &err), 0, "%s", err.message);
        cr_assert_eq(mmm_sweep_run(&res, f.inst, &f.spec, NULL, NULL, &err), MMM_EINVAL,
                     "case %zu", c);
        fx_close(&f);
    }
}

/* ------------------------------------------------------------------ */
/* mmm optimize */

static char out[1 << 20];

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

/* The issue this was built for: poly_div_opt's 3s threads per block on
 * an H100 (block_threads 1024): s <= 341 of 1 .. floor(58368/7) = 8338. */
Test(sweep_cli, every_objective_says_how_many_values_exceed_the_limits)
{
    static const char *objs[] = {"overhead", "bound", "corollary", "time"};
    for (size_t o = 0; o < 4; o++) {
        char args[512];
        const char *at;
        long s = 0;
        snprintf(args, sizeof args, "optimize dags/poly_div_opt.xml --param s --machine "
                 "dags/machines/h100-fitted.xml --objective %s --max-rows 3", objs[o]);
        cr_assert_eq(run_cmd(args), 0, "%s", out);
        cr_assert(strstr(out, "8338 values, 341 feasible"), "%s: %s", objs[o], out);
        cr_assert(strstr(out, "7997 of 8338 values are infeasible: 7997 over block_threads"),
                  "%s: %s", objs[o], out);
        at = strstr(out, " s=");
        cr_assert(at && sscanf(at, " s=%ld", &s) == 1, "%s", out);
        cr_assert(s >= 1 && 3 * s <= 1024, "%s picks s = %ld", objs[o], s);
    }
    /* without a machine: the program's own range, and a warning */
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --max-rows 3"), 0);
    cr_assert(strstr(out, "1755 values, 1755 feasible"), "%s", out);
    cr_assert(strstr(out, "warning    the best s = 1707 launches what no current GPU can: "
                          "kernel 'step': 5121 threads per block, more than block_threads "
                          "= 1024"), "%s", out);
    cr_assert_eq(run_cmd("optimize dags/poly_div_opt.xml --param s --format json "
                         "--machine dags/machines/h100-fitted.xml | tr -d ' \\n' | "
                         "grep -o '\"infeasible\":{[^}]*},\"launch_limits\":[0-9]*'"), 0);
    cr_assert_str_eq(out, "\"infeasible\":{\"program\":0,\"block_threads\":7997,"
                          "\"block_shared_bytes\":0,\"sm_threads\":0,\"sm_shared_bytes\":0,"
                          "\"sm_registers\":0,\"time\":0},\"launch_limits\":5\n");
}

/* The value of "key": N after position p (NAN when absent). */
static double number_after(const char *p, const char *key)
{
    const char *q = p ? strstr(p, key) : NULL;
    return q ? strtod(q + strlen(key), NULL) : NAN;
}

Test(sweep_cli, the_best_of_the_time_objective_has_its_seconds_in_json)
{
    const char *p, *best;
    double low = INFINITY;
    int rows = 0;
    cr_assert_eq(run_cmd("optimize dags/cumodp/mul.xml --machine dags/machines/h100-fitted.xml "
                         "--objective time --param s --values 1,2,4,8 --format json"), 0, "%s",
                 out);
    best = strstr(out, "\"best\": {");
    cr_assert_not_null(best);
    for (p = out; (p = strstr(p, "\"seconds\": ")) && p < best; p++, rows++)
        low = fmin(low, strtod(p + 11, NULL));
    cr_assert_eq(rows, 4);
    cr_assert_eq(number_after(best, "\"seconds\": "), low, "%s", best);
    cr_assert_lt(strstr(best, "\"seconds\": "), strstr(best, "\"baseline\": {"));
}

Test(sweep_cli, three_parameters_and_tuples_in_every_format)
{
    const char *line;
    int rows = 0;
    cr_assert_eq(run_cmd("optimize dags/cumodp/mul.xml --param l --values 128,256 --param s "
                         "--values 1,2 --param n --values 16384,32768 --format csv"), 0, "%s", out);
    cr_assert(!strncmp(out, "l,s,n,feasible,W,", 17), "%s", out);
    for (line = strchr(out, '\n'); line && line[1]; line = strchr(line + 1, '\n'))
        rows++;
    cr_assert_eq(rows, 8, "%s", out);
    cr_assert(strstr(out, "\n256,1,32768,1,"), "%s", out);
    cr_assert_eq(run_cmd("optimize dags/cumodp/mul.xml --param l --values 128,256 --param s "
                         "--values 1,2 --param n --values 16384,32768 --max-rows 0"), 0);
    cr_assert(strstr(out, "l in {128, 256}  x  s in {1, 2}  x  n in {16384, 32768}: 8 values"),
              "%s", out);
    cr_assert_eq(run_cmd("optimize dags/cumodp/mul.xml --param l,s --values 128x1,256x2,64x4 "
                         "--param n --values 16384,32768 --format json"), 0, "%s", out);
    cr_assert(strstr(out, "\"param\": [\"l\", \"s\", \"n\"]") ||
                  strstr(out, "\"param\": [\n    \"l\",\n    \"s\",\n    \"n\"\n  ]"), "%s", out);
    cr_assert(strstr(out, "\"with\": \"l\""), "%s", out);
    cr_assert(strstr(out, "\"points\": 6"), "%s", out);
    cr_assert_eq(run_cmd("optimize dags/cumodp/mul.xml --param l,s --values 128x1,256x2,64x4"),
                 0, "%s", out);
    cr_assert(strstr(out, "(l, s) in {(128, 1), (256, 2), (64, 4)}: 3 values"), "%s", out);
    cr_assert_eq(run_cmd("optimize dags/cumodp/div_opt.xml --param s --from 32 --to 1024 "
                         "--step '*2'"), 0, "%s", out);
    cr_assert(strstr(out, "s = 32 .. 1024 step *2: 6 values"), "%s", out);
    cr_assert_eq(run_cmd("optimize dags/cumodp/mul.xml --param l,s --values 128x1 --plot x.svg"),
                 2, "%s", out);
}
