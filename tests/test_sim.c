/* test_sim.c: the simulator against numbers computed by hand: exact
 * makespans of chains of uniform kernels (sum of ceil(b/p) c for every
 * policy), hand-made timelines of small DAGs for each policy, the records
 * (no SM runs two blocks at once), edge cases, and the CLI (exit codes,
 * JSON keys, trace JSON parsed by python3, SVG checked by xmllint). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mmm/gantt.h"
#include "mmm/mmm.h"
#include "mmm/sim.h"
#include "load_xml.h"
#include "slurp.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                            */

static mmm_instance *evaluate(const mmm_program *prog, int64_t p)
{
    mmm_instance *inst = NULL;
    mmm_error err;
    cr_assert_eq(mmm_instance_new(&inst, prog, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "eval: %s", err.message);
    if (p > 0)
        mmm_instance_set_p(inst, p);
    return inst;
}

static mmm_sim_result simulate(const mmm_instance *inst, const char *policy,
                               int64_t p, int record)
{
    mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    mmm_error err;
    opt.p = p;
    opt.policy = mmm_sim_policy_find(policy);
    opt.record = record;
    opt.seed = 7;
    cr_assert_not_null(opt.policy, "policy %s", policy);
    cr_assert_eq(mmm_simulate(&r, inst, &opt, &err), 0, "simulate: %s", err.message);
    cr_assert_eq(mmm_sim_check(&r, -1.0, &err), 0, "%s", err.message);
    return r;
}

static long kernel_index(const mmm_program *prog, const char *id)
{
    long k = mmm_program_find_kernel(prog, id);
    cr_assert_geq(k, 0, "kernel %s", id);
    return k;
}

/* Every SM runs one block at a time: expand the records per SM and check
 * that intervals do not overlap; return Σ busy time of the records. */
static double check_records(const mmm_sim_result *r, const mmm_instance *inst)
{
    size_t i, j, n = 0;
    double busy = 0.0;
    struct iv { int64_t sm; double a, b; } *v;
    for (i = 0; i < r->nrecords; i++)
        n += (size_t)r->records[i].sm_count;
    v = malloc((n ? n : 1) * sizeof *v);
    cr_assert_not_null(v);
    n = 0;
    for (i = 0; i < r->nrecords; i++) {
        const mmm_sim_record *rec = &r->records[i];
        int64_t sm;
        cr_assert_geq(rec->sm_first, 0);
        cr_assert_leq(rec->sm_first + rec->sm_count, r->p);
        cr_assert_leq(rec->start, rec->end);
        if (rec->kind == MMM_SIM_BLOCKS) {
            double c = inst->classes[rec->klass].cost;
            if (!inst->kernels[rec->kernel].varies)
                cr_assert_float_eq(rec->end - rec->start, (double)rec->waves * c,
                                   1e-9 * (1 + rec->end));
            busy += (double)rec->sm_count * (rec->end - rec->start);
        }
        for (sm = rec->sm_first; sm < rec->sm_first + rec->sm_count; sm++) {
            v[n].sm = sm;
            v[n].a = rec->start;
            v[n].b = rec->end;
            n++;
        }
    }
    for (i = 0; i < n; i++) /* small inputs: quadratic is fine */
        for (j = i + 1; j < n; j++)
            if (v[i].sm == v[j].sm && v[i].b > v[i].a && v[j].b > v[j].a)
                cr_assert(v[i].b <= v[j].a || v[j].b <= v[i].a,
                          "SM %lld runs [%g,%g) and [%g,%g)", (long long)v[i].sm,
                          v[i].a, v[i].b, v[j].a, v[j].b);
    free(v);
    return busy;
}

/* ------------------------------------------------------------------ */
/* Chains of uniform kernels: T = Σ ceil(b/p)·c for every policy       */

static const int64_t chain_blocks[] = {1, 7, 16, 1000003, 1000000000};

static void chain_xml(char *buf, size_t size, int repeat_form)
{
    /* Three kernels of cost 3+2·2 = 7, 2+0 = 2 and 5+3·2 = 11 (U = 2). */
    if (repeat_form)
        snprintf(buf, size,
                 "<program name='c'><param name='U' value='2'/><param name='b' value='1'/>"
                 "<kernel id='x' repeat='4' blocks='b' work='1' span='3' reads='1' writes='1'/>"
                 "<kernel id='y' blocks='2*b' work='1' span='2' reads='0' writes='0'/>"
                 "<kernel id='z' repeat='3' blocks='b+1' work='1' span='5' reads='2' writes='1'/>"
                 "<edge from='x' to='y'/><edge from='y' to='z'/></program>");
    else
        snprintf(buf, size,
                 "<program name='c'><param name='U' value='2'/><param name='b' value='1'/>"
                 "<kernel id='x' blocks='b' work='1' span='3' reads='1' writes='1'/>"
                 "<kernel id='y' blocks='2*b' work='1' span='2' reads='0' writes='0'/>"
                 "<kernel id='z' blocks='b+1' work='1' span='5' reads='2' writes='1'/>"
                 "<edge from='x' to='y'/><edge from='y' to='z'/></program>");
}

static double ceil_div(int64_t a, int64_t b)
{
    return (double)((a + b - 1) / b);
}

static void chain_case(int repeat_form)
{
    char xml[1024];
    mmm_program *prog;
    mmm_instance *inst;
    size_t bi, pi;
    chain_xml(xml, sizeof xml, repeat_form);
    prog = load_xml(xml);
    inst = evaluate(prog, 0);
    for (bi = 0; bi < sizeof chain_blocks / sizeof chain_blocks[0]; bi++) {
        int64_t b = chain_blocks[bi];
        mmm_override ov = {mmm_program_find_param(prog, "b"), mmm_value_int(b)};
        mmm_error err;
        cr_assert_eq(mmm_instance_eval(inst, &ov, 1, &err), 0, "%s", err.message);
        for (pi = 1; pi <= 8; pi++) {
            int64_t p = (int64_t)pi;
            double nx = repeat_form ? 4 : 1, nz = repeat_form ? 3 : 1;
            double want = nx * ceil_div(b, p) * 7 + ceil_div(2 * b, p) * 2
                          + nz * ceil_div(b + 1, p) * 11;
            size_t k;
            for (k = 0; k < mmm_sim_policy_count(); k++) {
                const char *name = mmm_sim_policy_at(k)->name;
                mmm_sim_result r = simulate(inst, name, p, b < 100);
                cr_assert_eq(r.makespan, want, "%s b=%lld p=%lld: %.17g, want %.17g",
                             name, (long long)b, (long long)p, r.makespan, want);
                cr_assert_eq(r.total, nx * 7 * (double)b + 2 * 2 * (double)b
                                          + nz * 11 * (double)(b + 1));
                cr_assert_eq(r.critical_path, nx * 7 + 2 + nz * 11);
                /* Few events: never one per wave. */
                cr_assert_leq(r.events, 40, "%llu events", (unsigned long long)r.events);
                if (b < 100)
                    check_records(&r, inst);
                mmm_sim_result_dispose(&r);
            }
        }
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_chain, explicit_chain_every_policy)
{
    chain_case(0);
}

Test(sim_chain, repeat_chain_every_policy)
{
    chain_case(1);
}

Test(sim_chain, long_repeat_is_closed_form)
{
    /* 10^12 launches of 3 blocks on 2 SMs: each launch takes 2 waves of 5. */
    mmm_program *prog = load_xml("<program name='r'>"
                             "<kernel id='k' repeat='10^12' blocks='3' work='1' span='5' "
                             "reads='0' writes='0'/></program>");
    mmm_instance *inst = evaluate(prog, 2);
    size_t k;
    for (k = 0; k < mmm_sim_policy_count(); k++) {
        mmm_sim_result r = simulate(inst, mmm_sim_policy_at(k)->name, 2, 1);
        cr_assert_eq(r.makespan, 1e13);
        cr_assert_eq(r.launch_jumps, 1);
        cr_assert_eq(r.blocks, 3000000000000);
        cr_assert_eq(r.kernels[0].blocks, 3000000000000);
        cr_assert_eq(r.busy, 1.5e13);
        cr_assert_float_eq(r.utilization, 0.75, 1e-15);
        mmm_sim_result_dispose(&r);
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_chain, bundled_poly_div_opt)
{
    /* 241 launches of 8 blocks on 14 SMs: T = 241·C = 241·(3·256 + 9·400). */
    mmm_program *prog = NULL;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_instance *inst;
    mmm_error err;
    mmm_sim_result r;
    cr_assert_eq(mmm_program_load_file(&prog, MMM_DAGS_DIR "/poly_div_opt.xml", &opt, &err),
                 0, "%s", err.message);
    inst = evaluate(prog, 0);
    r = simulate(inst, "critical-path", 0, 0);
    cr_assert_eq(r.p, 14);
    cr_assert_eq(r.makespan, 241.0 * (3 * 256 + 9 * 400));
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* ------------------------------------------------------------------ */
/* Hand-computed schedules                                            */

typedef struct span_want {
    const char *id;
    double first, last;
} span_want;

static void expect_schedule(const mmm_program *prog, const mmm_instance *inst,
                            const char *policy, int64_t p, double makespan,
                            const span_want *w, size_t nw)
{
    mmm_sim_result r = simulate(inst, policy, p, 1);
    size_t i;
    cr_assert_eq(r.makespan, makespan, "%s: makespan %g, want %g", policy,
                 r.makespan, makespan);
    for (i = 0; i < nw; i++) {
        long k = kernel_index(prog, w[i].id);
        cr_assert_eq(r.kernels[k].first_start, w[i].first, "%s: %s starts at %g, want %g",
                     policy, w[i].id, r.kernels[k].first_start, w[i].first);
        cr_assert_eq(r.kernels[k].last_end, w[i].last, "%s: %s ends at %g, want %g",
                     policy, w[i].id, r.kernels[k].last_end, w[i].last);
    }
    cr_assert_float_eq(check_records(&r, inst), r.total, 1e-9);
    mmm_sim_result_dispose(&r);
}

/* x: 3 blocks of 2; y: 1 block of 5; z: 2 blocks of 1, then w: 1 block of
 * 4 (z -> w).  p = 2.  total 17, critical path 5: bounds [8.5, 11]. */
static const char h1_xml[] =
    "<program name='h1'>"
    "<kernel id='x' blocks='3' work='1' span='2' reads='0' writes='0'/>"
    "<kernel id='y' blocks='1' work='1' span='5' reads='0' writes='0'/>"
    "<kernel id='z' blocks='2' work='1' span='1' reads='0' writes='0'/>"
    "<kernel id='w' blocks='1' work='1' span='4' reads='0' writes='0'/>"
    "<edge from='z' to='w'/></program>";

Test(sim_hand, h1_each_policy)
{
    mmm_program *prog = load_xml(h1_xml);
    mmm_instance *inst = evaluate(prog, 2);
    /* fifo (x, y, z by declaration): 0 x x | 2 x y | 4 z | 5 z | 6 w | 10. */
    static const span_want fifo[] = {{"x", 0, 4}, {"y", 2, 7}, {"z", 4, 6}, {"w", 6, 10}};
    /* critical-path: levels y 5, z 1+4 = 5 (tie: declared later), x 2,
     * w 4: 0 y z | 1 z | 2 w | 5 x | 6 x | 7 x | 9. */
    static const span_want cp[] = {{"x", 5, 9}, {"y", 0, 5}, {"z", 0, 2}, {"w", 2, 6}};
    /* most-blocks: x 3, z 2, y 1, w 1 (y ready earlier than w):
     * 0 x x | 2 x z | 3 z | 4 y w | 9. */
    static const span_want most[] = {{"x", 0, 4}, {"y", 4, 9}, {"z", 2, 4}, {"w", 4, 8}};
    /* fewest-blocks: y, then z, then w (ready at 2) before x. */
    static const span_want fewest[] = {{"x", 5, 9}, {"y", 0, 5}, {"z", 0, 2}, {"w", 2, 6}};
    /* longest-block: y 5, w 4, x 2, z 1: 0 y x | 2 x | 4 x | 5 z | 6 z | 7 w | 11
     * (this one meets Graham's bound). */
    static const span_want lpt[] = {{"x", 0, 6}, {"y", 0, 5}, {"z", 5, 7}, {"w", 7, 11}};
    /* shortest-block: z 1, x 2, w 4, y 5: 0 z z | 1 x x | 3 x w | 5 y | 10. */
    static const span_want spt[] = {{"x", 1, 5}, {"y", 5, 10}, {"z", 0, 1}, {"w", 3, 7}};
    expect_schedule(prog, inst, "fifo", 2, 10, fifo, 4);
    expect_schedule(prog, inst, "lifo", 2, 10, fifo, 4); /* all sources ready at 0 */
    expect_schedule(prog, inst, "critical-path", 2, 9, cp, 4);
    expect_schedule(prog, inst, "most-blocks", 2, 9, most, 4);
    expect_schedule(prog, inst, "fewest-blocks", 2, 9, fewest, 4);
    expect_schedule(prog, inst, "longest-block", 2, 11, lpt, 4);
    expect_schedule(prog, inst, "shortest-block", 2, 10, spt, 4);
    {
        mmm_sim_result r = simulate(inst, "fifo", 2, 0);
        cr_assert_eq(r.total, 17);
        cr_assert_eq(r.critical_path, 5);
        cr_assert_eq(r.lower_bound, 8.5);
        cr_assert_eq(r.graham, 11);
        cr_assert_eq(r.idle, 3);
        mmm_sim_result_dispose(&r);
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_hand, lifo_goes_depth_first)
{
    /* p = 1; a -> c, b -> d; unit blocks.  fifo: a b c d; lifo: a c b d. */
    mmm_program *prog = load_xml("<program name='l'>"
                             "<kernel id='a' blocks='1' work='1' span='1' reads='0' writes='0'/>"
                             "<kernel id='b' blocks='1' work='1' span='1' reads='0' writes='0'/>"
                             "<kernel id='c' blocks='1' work='1' span='1' reads='0' writes='0'/>"
                             "<kernel id='d' blocks='1' work='1' span='1' reads='0' writes='0'/>"
                             "<edge from='a' to='c'/><edge from='b' to='d'/></program>");
    mmm_instance *inst = evaluate(prog, 1);
    static const span_want fifo[] = {{"a", 0, 1}, {"b", 1, 2}, {"c", 2, 3}, {"d", 3, 4}};
    static const span_want lifo[] = {{"a", 0, 1}, {"c", 1, 2}, {"b", 2, 3}, {"d", 3, 4}};
    expect_schedule(prog, inst, "fifo", 1, 4, fifo, 4);
    expect_schedule(prog, inst, "lifo", 1, 4, lifo, 4);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_hand, diamond_fifo)
{
    /* dags/diamond.xml, p = 2, costs a 24 (2), b 32 (3), c 17 (5), d 55 (1):
     * 0 a a | 24 b b | 56 b c | 73 c | 88 c | 90 c | 105 c | 122 d | 177. */
    static const span_want w[] = {{"a", 0, 24}, {"b", 24, 88}, {"c", 56, 122}, {"d", 122, 177}};
    mmm_program *prog = NULL;
    mmm_load_options opt = MMM_LOAD_OPTIONS_INIT;
    mmm_instance *inst;
    mmm_error err;
    cr_assert_eq(mmm_program_load_file(&prog, MMM_DAGS_DIR "/diamond.xml", &opt, &err), 0,
                 "%s", err.message);
    inst = evaluate(prog, 0);
    expect_schedule(prog, inst, "fifo", 2, 177, w, 4);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_hand, classes_and_waves)
{
    /* One kernel, two classes: 10 blocks of 3 and 4 blocks of 7, p = 4.
     * longest-block: 7s first: 0-7 on 4 SMs; then 10 threes: 7,10,13 (4+4+2):
     * T = 16.  shortest-block: threes at 0,3 (8 blocks), 6: 2 threes + 2
     * sevens (6-9, 6-13), 9: 2 sevens (9-16): T = 16.  fifo = class order
     * = shortest here.  total 58, LB 14.5, CP 7. */
    mmm_program *prog = load_xml("<program name='w'><kernel id='k'>"
                             "<blocks count='10' work='1' span='3' reads='0' writes='0'/>"
                             "<blocks count='4' work='1' span='7' reads='0' writes='0'/>"
                             "</kernel></program>");
    mmm_instance *inst = evaluate(prog, 4);
    static const span_want w[] = {{"k", 0, 16}};
    expect_schedule(prog, inst, "longest-block", 4, 16, w, 1);
    expect_schedule(prog, inst, "shortest-block", 4, 16, w, 1);
    expect_schedule(prog, inst, "fifo", 4, 16, w, 1);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* ------------------------------------------------------------------ */
/* Edge cases                                                         */

Test(sim_edge, empty_kernels_and_zero_costs)
{
    /* a has no blocks, b has no launches, c costs 0, d costs 1: the
     * dependencies still hold through them. */
    mmm_program *prog = load_xml("<program name='e'>"
                             "<kernel id='s' blocks='2' work='1' span='3' reads='0' writes='0'/>"
                             "<kernel id='a' blocks='0' work='1' span='1' reads='0' writes='0'/>"
                             "<kernel id='b' repeat='0' blocks='5' work='1' span='1' reads='0' writes='0'/>"
                             "<kernel id='c' repeat='1000000' blocks='1000' work='0' span='0' reads='0' writes='0'/>"
                             "<kernel id='d' blocks='3' work='1' span='1' reads='0' writes='0'/>"
                             "<edge from='s' to='a'/><edge from='a' to='b'/>"
                             "<edge from='b' to='c'/><edge from='c' to='d'/></program>");
    mmm_instance *inst = evaluate(prog, 2);
    size_t k;
    for (k = 0; k < mmm_sim_policy_count(); k++) {
        mmm_sim_result r = simulate(inst, mmm_sim_policy_at(k)->name, 2, 1);
        long d = kernel_index(prog, "d");
        cr_assert_eq(r.makespan, 3 + 2);
        cr_assert_eq(r.kernels[d].first_start, 3);
        cr_assert_eq(r.blocks, 2 + 1000000000 + 3);
        mmm_sim_result_dispose(&r);
    }
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_edge, no_blocks_at_all)
{
    mmm_program *prog = load_xml("<program name='n'>"
                             "<kernel id='a' blocks='0' work='1' span='1' reads='0' writes='0'/>"
                             "</program>");
    mmm_instance *inst = evaluate(prog, 3);
    mmm_sim_result r = simulate(inst, "fifo", 3, 1);
    cr_assert_eq(r.makespan, 0);
    cr_assert_eq(r.utilization, 1);
    cr_assert_eq(r.idle, 0);
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_edge, p_unknown_and_launch_limit)
{
    mmm_program *prog = load_xml("<program name='q'>"
                             "<kernel id='a' repeat='100' index='i' blocks='i' work='1' span='1' "
                             "reads='0' writes='0'/></program>");
    mmm_instance *inst = evaluate(prog, 0);
    mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    mmm_error err;
    cr_assert_eq(mmm_simulate(&r, inst, &opt, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "p") != NULL);
    opt.p = 4;
    opt.max_launches = 50;
    cr_assert_eq(mmm_simulate(&r, inst, &opt, &err), MMM_ELIMIT);
    cr_assert(strstr(err.message, "launches") != NULL, "%s", err.message);
    opt.max_launches = 0;
    cr_assert_eq(mmm_simulate(&r, inst, &opt, &err), 0);
    /* Σ_i ceil(i/4)·1 for i = 1..100 */
    {
        double want = 0;
        int i;
        for (i = 1; i <= 100; i++)
            want += (i + 3) / 4;
        cr_assert_eq(r.makespan, want);
    }
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_edge, records_cap)
{
    mmm_program *prog = load_xml("<program name='q'>"
                             "<kernel id='a' repeat='40' index='i' blocks='i' work='1' span='1' "
                             "reads='0' writes='0'/></program>");
    mmm_instance *inst = evaluate(prog, 3);
    mmm_sim_options opt = MMM_SIM_OPTIONS_INIT;
    mmm_sim_result r;
    mmm_error err;
    opt.record = 1;
    opt.max_records = 5;
    cr_assert_eq(mmm_simulate(&r, inst, &opt, &err), 0);
    cr_assert_eq(r.nrecords, 5);
    cr_assert(r.records_truncated);
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

Test(sim_edge, check_rejects_out_of_bounds)
{
    mmm_sim_result r;
    mmm_error err;
    memset(&r, 0, sizeof r);
    r.policy = &mmm_sim_policy_fifo;
    r.p = 2;
    r.lower_bound = 10;
    r.graham = 15;
    r.makespan = 12;
    cr_assert_eq(mmm_sim_check(&r, 20, &err), 0);
    r.makespan = 10 * (1 - 1e-12); /* within the tolerance */
    cr_assert_eq(mmm_sim_check(&r, 20, &err), 0);
    r.makespan = 9.9;
    cr_assert_eq(mmm_sim_check(&r, 20, &err), MMM_EINVAL);
    r.makespan = 15.1;
    cr_assert_eq(mmm_sim_check(&r, 20, &err), MMM_EINVAL);
    r.makespan = 14;
    cr_assert_eq(mmm_sim_check(&r, 13, &err), MMM_EINVAL);
    cr_assert(strstr(err.message, "MMM bound") != NULL);
}

Test(sim_policy, table)
{
    size_t i;
    cr_assert_geq(mmm_sim_policy_count(), 8);
    for (i = 0; i < mmm_sim_policy_count(); i++)
        cr_assert_eq(mmm_sim_policy_find(mmm_sim_policy_at(i)->name), mmm_sim_policy_at(i));
    cr_assert_null(mmm_sim_policy_find("nope"));
    cr_assert_null(mmm_sim_policy_at(mmm_sim_policy_count()));
}

/* ------------------------------------------------------------------ */
/* The command line                                                   */

static int run(const char *args)
{
    char cmd[4096];
    int st;
    snprintf(cmd, sizeof cmd, "%s %s", MMM_BIN, args);
    st = system(cmd);
    cr_assert(st != -1);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(sim_cli, json_keys_and_files)
{
    char dir[] = "/tmp/mmm_sim_cliXXXXXX", args[2048], path[1200];
    char *out;
    cr_assert_not_null(mkdtemp(dir));
    snprintf(args, sizeof args,
             "simulate %s/diamond.xml --policy critical-path --format json "
             "--gantt %s/g.svg --trace %s/t.json > %s/out.json",
             MMM_DAGS_DIR, dir, dir, dir);
    cr_assert_eq(run(args), 0);
    snprintf(path, sizeof path, "%s/out.json", dir);
    out = slurp(path, NULL);
    {
        static const char *keys[] = {"\"p\": 2", "\"policy\": \"critical-path\"",
                                     "\"makespan\": 177", "\"lower_bound\": 142",
                                     "\"graham\": 197.5", "\"graham_brent\": 467.5",
                                     "\"utilization\""};
        size_t i;
        for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
            cr_assert(strstr(out, keys[i]) != NULL, "missing %s in %s", keys[i], out);
    }
    free(out);
    /* The trace parses as JSON and has an X event per block (11 blocks). */
    snprintf(args, sizeof args,
             "python3 -c \"import json,sys; d=json.load(open('%s/t.json')); "
             "x=[e for e in d['traceEvents'] if e['ph']=='X']; "
             "sys.exit(0 if sum(e['args']['blocks'] for e in x)==11 and "
             "all(e['dur']>0 and 0<=e['tid']<2 for e in x) else 1)\"", dir);
    cr_assert_eq(system(args), 0, "trace: %s", args);
    snprintf(args, sizeof args, "xmllint --noout %s/g.svg", dir);
    cr_assert_eq(system(args), 0);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
}

Test(sim_cli, policy_all_table_and_csv)
{
    char dir[] = "/tmp/mmm_sim_cliXXXXXX", args[2048], path[1200];
    char *out;
    size_t i;
    cr_assert_not_null(mkdtemp(dir));
    snprintf(args, sizeof args, "simulate %s/diamond.xml --policy all --format json > %s/a.json",
             MMM_DAGS_DIR, dir);
    cr_assert_eq(run(args), 0);
    snprintf(args, sizeof args,
             "python3 -c \"import json,sys; d=json.load(open('%s/a.json')); "
             "sys.exit(0 if len(d['runs'])==%zu and all(r['makespan']>=r['lower_bound'] "
             "for r in d['runs']) else 1)\"", dir, mmm_sim_policy_count());
    cr_assert_eq(system(args), 0);
    snprintf(args, sizeof args, "simulate %s/diamond.xml --policy all --format csv -p 3 > %s/a.csv",
             MMM_DAGS_DIR, dir);
    cr_assert_eq(run(args), 0);
    snprintf(path, sizeof path, "%s/a.csv", dir);
    out = slurp(path, NULL);
    cr_assert(strncmp(out, "policy,p,seed,makespan,", 23) == 0, "%s", out);
    for (i = 0; i < mmm_sim_policy_count(); i++)
        cr_assert(strstr(out, mmm_sim_policy_at(i)->name) != NULL);
    free(out);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
}

Test(sim_cli, usage_errors)
{
    char args[1024];
    snprintf(args, sizeof args, "simulate %s/diamond.xml --policy nope 2>/dev/null", MMM_DAGS_DIR);
    cr_assert_eq(run(args), 2);
    snprintf(args, sizeof args, "simulate 2>/dev/null");
    cr_assert_eq(run(args), 2);
    snprintf(args, sizeof args, "simulate %s/diamond.xml --gantt x.jpg 2>/dev/null", MMM_DAGS_DIR);
    cr_assert_eq(run(args), 2);
    snprintf(args, sizeof args, "simulate %s/diamond.xml --seed -3 2>/dev/null", MMM_DAGS_DIR);
    cr_assert_eq(run(args), 2);
    snprintf(args, sizeof args, "simulate /nonexistent.xml 2>/dev/null");
    cr_assert_eq(run(args), 1);
    snprintf(args, sizeof args, "simulate --help > /dev/null");
    cr_assert_eq(run(args), 0);
}

Test(sim_cli, p_required)
{
    char dir[] = "/tmp/mmm_sim_cliXXXXXX", args[2048], path[1200];
    FILE *f;
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/nop.xml", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("<program name='nop'><kernel id='a' blocks='3' work='1' span='1' "
          "reads='0' writes='0'/></program>\n", f);
    fclose(f);
    snprintf(args, sizeof args, "simulate %s 2>/dev/null >/dev/null", path);
    cr_assert_eq(run(args), 2);
    snprintf(args, sizeof args, "simulate %s -p 2 >/dev/null", path);
    cr_assert_eq(run(args), 0);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    cr_assert_eq(system(args), 0);
}

/* ------------------------------------------------------------------ */
/* Pictures through the library                                       */

static void write_pictures(const char *dir, const char *xml, size_t max_rects,
                           int record)
{
    mmm_program *prog = load_xml(xml);
    mmm_instance *inst = evaluate(prog, 3);
    mmm_sim_result r = simulate(inst, "critical-path", 3, record);
    mmm_gantt_options go = MMM_GANTT_OPTIONS_INIT;
    mmm_error err;
    char path[1200], cmd[2600];
    go.mmm_bound = 1000;
    go.max_rects = max_rects;
    snprintf(path, sizeof path, "%s/g.svg", dir);
    cr_assert_eq(mmm_gantt_write(path, &r, prog, &go, &err), 0, "%s", err.message);
    snprintf(cmd, sizeof cmd, "xmllint --noout %s", path);
    cr_assert_eq(system(cmd), 0, "%s is not well-formed", path);
    snprintf(path, sizeof path, "%s/t.json", dir);
    cr_assert_eq(mmm_sim_trace_write(path, &r, prog, 1000, &err), 0, "%s", err.message);
    snprintf(cmd, sizeof cmd,
             "python3 -c \"import json,sys; d=json.load(open('%s')); "
             "x=[e for e in d['traceEvents'] if e['ph']=='X']; "
             "many=any(e['cat']!='blocks' or e['args']['blocks']>1 for e in x); "
             "sys.exit(0 if d['otherData']['aggregated']==many and len(x)>0 else 1)\"",
             path);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    if (mmm_gantt_png_available()) {
        char *png;
        snprintf(path, sizeof path, "%s/g.png", dir);
        cr_assert_eq(mmm_gantt_write(path, &r, prog, &go, &err), 0, "%s", err.message);
        png = slurp(path, NULL);
        cr_assert(memcmp(png, "\x89PNG", 4) == 0, "not a PNG");
        free(png);
    }
    /* Unknown extension: refused, nothing written. */
    snprintf(path, sizeof path, "%s/g.gif", dir);
    cr_assert_eq(mmm_gantt_write(path, &r, prog, &go, &err), MMM_EINVAL);
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}

/* Ids with characters that XML, JSON and PLplot escape. */
static const char odd_xml[] =
    "<program name='o&lt;d&amp;d&quot;'>"
    "<kernel id='a&amp;b&lt;c&quot;d#e' repeat='6' blocks='4' work='1' span='2' reads='0' writes='0'/>"
    "<kernel id='x\\y' blocks='7' work='1' span='3' reads='0' writes='0'/>"
    "<kernel id='z' index='i' repeat='3' blocks='i' work='1' span='1' reads='0' writes='0'/>"
    "<edge from='x\\y' to='z'/></program>";

/* One block per event: p = 3 SMs, three single blocks in a chain. */
static const char single_xml[] =
    "<program name='single'>"
    "<kernel id='a' blocks='3' work='1' span='2' reads='0' writes='0'/>"
    "<kernel id='b' blocks='1' work='1' span='2' reads='0' writes='0'/>"
    "<edge from='a' to='b'/></program>";

Test(sim_pictures, detailed_aggregated_and_escaped)
{
    char dir[] = "/tmp/mmm_sim_picXXXXXX", cmd[1100];
    cr_assert_not_null(mkdtemp(dir));
    write_pictures(dir, single_xml, 0, 1); /* aggregated: false */
    write_pictures(dir, odd_xml, 0, 1);  /* one lane per SM */
    write_pictures(dir, odd_xml, 3, 1);  /* too many rectangles: per kernel */
    write_pictures(dir, odd_xml, 0, 0);  /* no records: per kernel */
    write_pictures(dir, h1_xml, 0, 1);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(sim_pictures, write_errors_are_reported)
{
    mmm_program *prog = load_xml(h1_xml);
    mmm_instance *inst = evaluate(prog, 2);
    mmm_sim_result r = simulate(inst, "fifo", 2, 1);
    mmm_error err;
    cr_assert_eq(mmm_gantt_write("/nonexistent/dir/g.svg", &r, prog, NULL, &err), MMM_EIO);
    cr_assert_eq(mmm_sim_trace_write("/nonexistent/dir/t.json", &r, prog, -1, &err), MMM_EIO);
    mmm_sim_result_dispose(&r);
    mmm_instance_free(inst);
    mmm_program_free(prog);
}
