/* test_time.c: the time model (docs/time.md): occupancy against
 * hand-computed cases (threads-, blocks-, shared- and register-limited,
 * after the CUDA occupancy calculator's rules), one launch's waves and
 * terms computed by hand, the launch modes, the longest path, the errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mmm/mmm.h"
#include "time/time_inputs.h"

/* The H100 limits of dags/machines/h100.xml, set by hand. */
static mmm_time_machine h100(void)
{
    mmm_time_machine m;
    memset(&m, 0, sizeof m);
    m.clock_hz = 1.98e9;
    m.p = 132;
    m.warp_size = 32;
    m.sm_threads = 2048;
    m.sm_blocks = 32;
    m.block_threads = 1024;
    m.sm_shared_bytes = 233472;
    m.block_shared_bytes = 49152;
    m.shared_reserved_bytes = 1024;
    m.shared_granule_bytes = 128;
    m.sm_registers = 65536;
    m.register_granule = 256;
    m.register_partitions = 4;
    m.word_bytes = 4;
    return m;
}

static void occ(int64_t T, int64_t sh, int64_t regs, int64_t want,
                mmm_time_limit want_lim)
{
    mmm_time_machine m = h100();
    mmm_time_limit lim;
    int64_t a = mmm_time_occupancy(&m, T, sh, regs, &lim);
    cr_expect_eq(a, want, "T=%lld shared=%lld regs=%lld: A=%lld, want %lld",
                 (long long)T, (long long)sh, (long long)regs, (long long)a,
                 (long long)want);
    cr_expect_eq(lim, want_lim, "T=%lld shared=%lld regs=%lld: limit %s",
                 (long long)T, (long long)sh, (long long)regs,
                 mmm_time_limit_name(lim));
}

Test(time, occupancy_threads)
{
    occ(256, 0, 0, 8, MMM_TIME_LIMIT_THREADS);   /* 2048/256 */
    occ(1024, 0, 0, 2, MMM_TIME_LIMIT_THREADS);  /* 2048/1024 */
    occ(96, 0, 0, 21, MMM_TIME_LIMIT_THREADS);   /* floor(2048/96) */
    occ(100, 0, 0, 16, MMM_TIME_LIMIT_THREADS);  /* 4 warps: 2048/128 */
    occ(256, 0, 32, 8, MMM_TIME_LIMIT_THREADS);  /* 32 regs: 64 warps fit */
}

Test(time, occupancy_blocks)
{
    occ(32, 0, 0, 32, MMM_TIME_LIMIT_BLOCKS);    /* 64 > 32 blocks */
    occ(1, 0, 12, 32, MMM_TIME_LIMIT_BLOCKS);    /* <<<1,1>>> */
}

Test(time, occupancy_shared)
{
    /* s = 32 multiplication block: 33020 B + 1024 reserved = 34044,
     * rounded to 128: 34048; 233472/34048 = 6.86 -> 6 < 8 */
    occ(256, 33020, 32, 6, MMM_TIME_LIMIT_SHARED);
    /* division, s = 64: 1816 + 1024 = 2840 -> 2944; 233472/2944 = 79 ->
     * threads (32) and blocks (32) bind first */
    occ(64, 1816, 28, 32, MMM_TIME_LIMIT_THREADS);
    /* 7192 + 1024 = 8216 -> 8320; 233472/8320 = 28.06 -> 28 < 32 */
    occ(64, 7192, 0, 28, MMM_TIME_LIMIT_SHARED);
    /* a block using 48 KiB: 49152 + 1024 = 50176; 233472/50176 = 4.65 */
    occ(128, 49152, 0, 4, MMM_TIME_LIMIT_SHARED);
}

Test(time, occupancy_registers)
{
    /* 71 regs: 71*32 = 2272 -> 2304 per warp; 16384/2304 = 7 warps per
     * sub-partition, 28 per SM; 8 warps per block: 3 blocks */
    occ(256, 16508, 71, 3, MMM_TIME_LIMIT_REGISTERS);
    /* 64 regs, 256 threads: 2048 per warp, 8 per sub-partition, 32 per SM,
     * 4 blocks (the notes' worked example; 50 % occupancy) */
    occ(256, 0, 64, 4, MMM_TIME_LIMIT_REGISTERS);
    /* 40 regs: 1280 per warp, 12 per sub-partition, 48 per SM: 6 blocks */
    occ(256, 0, 40, 6, MMM_TIME_LIMIT_REGISTERS);
    /* 255 regs, 1024 threads: 8160 -> 8192; 2 warps per sub-partition, 8
     * per SM < 32 warps of one block: cannot run */
    occ(1024, 0, 255, 0, MMM_TIME_LIMIT_REGISTERS);
}

/* A small machine for hand computations: p = 2 SMs of 512 threads and 4
 * blocks, 1 MHz clock, round constants. */
#define SMALL_MACHINE \
    "<param name='U' value='1'/>\n" \
    "<param name='clock_hz' value='1e6'/>\n" \
    "<param name='p' value='2'/>\n" \
    "<param name='sm_threads' value='512'/>\n" \
    "<param name='sm_blocks' value='4'/>\n" \
    "<param name='sm_shared_bytes' value='65536'/>\n" \
    "<param name='sm_registers' value='65536'/>\n" \
    "<param name='launch_s' value='1e-3'/>\n" \
    "<param name='launch_graph_s' value='1e-4'/>\n" \
    "<param name='op_cycles' value='2'/>\n" \
    "<param name='issue_per_cycle' value='1'/>\n" \
    "<param name='sync_cycles' value='10'/>\n" \
    "<param name='sync_cycles_per_warp' value='5'/>\n" \
    "<param name='mem_latency_cycles' value='100'/>\n" \
    "<param name='bandwidth_bytes_per_cycle' value='100'/>\n"

/* A program with its own small machine. */
static const char small[] =
    "<program name='t'>\n"
    SMALL_MACHINE
    "<param name='graph' value='0'/>\n"
    "<param name='N' value='10'/>\n"
    "<kernel id='a' blocks='N' threads='128' work='128*50' span='100'\n"
    "        reads='2' writes='1' rounds='1' barriers='2'/>\n"
    "<kernel id='b' repeat='3' blocks='1' threads='1' work='1' span='1'\n"
    "        reads='0' writes='0'/>\n"
    "<kernel id='c' blocks='1' threads='1' work='1' span='1' reads='0'\n"
    "        writes='0'/>\n"
    "<edge from='a' to='b'/>\n"
    "<param name='block_cycles' value='0'/>\n"
    "<param name='latency_exposed' value='0'/>\n"
    "</program>\n";

/* Load a program from text (named file in messages) with a new instance. */
static void load_text(const char *text, const char *file, mmm_program **p,
                      mmm_instance **inst)
{
    mmm_error err;
    cr_assert_eq(mmm_program_load_memory(p, text, strlen(text), file, NULL,
                                         &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(inst, *p, &err), 0);
}

static void load_small(mmm_program **p, mmm_instance **inst)
{
    load_text(small, "small.xml", p, inst);
}

static void eval_small(mmm_program *p, mmm_instance *inst, const char *name,
                       double v)
{
    mmm_error err;
    mmm_override ov = {mmm_program_find_param(p, name),
                       mmm_value_double(v)};
    cr_assert_eq(mmm_instance_eval(inst, name ? &ov : NULL, name ? 1 : 0,
                                   &err),
                 0, "%s", err.message);
}

/* Load a program from text, evaluate it at its defaults and compute its
 * time with its own machine. */
static void time_text(const char *text, const char *file, mmm_program **p,
                      mmm_instance **inst, mmm_time *t)
{
    mmm_error err;
    load_text(text, file, p, inst);
    eval_small(*p, *inst, NULL, 0);
    cr_assert_eq(mmm_time_compute(t, *inst, NULL, &err), 0, "%s",
                 err.message);
}

/* Kernel a's execution time with N blocks and one more parameter set. */
static void expect_exec2(mmm_program *p, mmm_instance *inst, double N,
                         const char *name, double v, double want,
                         mmm_time_term dominant)
{
    mmm_error err;
    mmm_time t;
    mmm_override ov[2] = {
        {mmm_program_find_param(p, "N"), mmm_value_double(N)},
        {mmm_program_find_param(p, name), mmm_value_double(v)}};
    cr_assert_eq(mmm_instance_eval(inst, ov, 2, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                 err.message);
    cr_expect(fabs(t.kernels[0].exec_seconds - want) < 1e-15,
              "%s = %g: %.17g, want %.17g", name, v, t.kernels[0].exec_seconds,
              want);
    cr_expect_eq(t.kernels[0].dominant, dominant, "%s = %g", name, v);
    mmm_time_dispose(&t);
}

Test(time, one_launch_by_hand)
{
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    mmm_error err;
    load_small(&p, &inst);
    eval_small(p, inst, NULL, 0);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                 err.message);
    /* Kernel a: 128 threads = 4 warps; A = 512/128 = 4 blocks per SM, 8
     * slots; 10 blocks: one full wave of 8 and one of 2.
     *   C_lat   = 2*100 + 100*1 + 2*(10 + 5*4) = 360
     *   issue per block = 4 warps * 6400/128 = 200 warp-instructions
     *   full wave: a = 4 per SM: 800 cycles; bytes 8*128*3*4 = 12288:
     *     122.88 cycles -> 800 (issue)
     *   last wave: a = 1: 200; bytes 2*1536/100 = 30.72 -> 360 (latency)
     *   exec = 1160 cycles / 1e6 Hz = 1.16e-3 s
     * Stream: the host issues a launch every 1e-3 s, a, b, b, b, c in the
     * file's order; a launch starts when issued and 1e-4 after what it
     * depends on has ended.  a: issued at 1e-3, ends 2.16e-3. */
    const mmm_time_kernel *a = &t.kernels[0];
    cr_expect_eq(a->resident, 4);
    cr_expect_eq(a->waves, 2);
    cr_expect_eq(a->limit, MMM_TIME_LIMIT_THREADS);
    cr_expect(fabs(a->exec_seconds - 1.16e-3) < 1e-15, "%.17g",
              a->exec_seconds);
    cr_expect(fabs(a->seconds - 2.16e-3) < 1e-15, "%.17g", a->seconds);
    cr_expect_eq(a->dominant, MMM_TIME_TERM_ISSUE);
    /* Kernel b: 3 launches of one thread, C_lat = 2 cycles = 2e-6 s each.
     * The first is issued at 2e-3 and starts at 2.16e-3 + 1e-4, ends
     * 2.262e-3; the second issued at 3e-3 ends 3.002e-3; the third
     * 4.002e-3: b adds 4.002e-3 - 2.16e-3 = 1.842e-3, launch-bound. */
    const mmm_time_kernel *b = &t.kernels[1];
    cr_expect_eq(b->launches, 3);
    cr_expect(fabs(b->seconds - 1.842e-3) < 1e-15, "%.17g", b->seconds);
    cr_expect_eq(b->dominant, MMM_TIME_TERM_LAUNCH);
    /* c depends on nothing but is issued fifth, at 5e-3: it ends at
     * 5.002e-3, after b; the program ends there. */
    cr_expect(fabs(t.kernels[2].seconds - 5.002e-3) < 1e-15, "%.17g",
              t.kernels[2].seconds);
    cr_expect(fabs(t.seconds - 5.002e-3) < 1e-15, "%.17g", t.seconds);
    cr_expect_eq(t.path_len, 1);
    cr_expect_eq(t.path[0], 2);
    cr_expect_eq(t.launches, 5);
    cr_expect_eq(t.dominant, MMM_TIME_TERM_LAUNCH);
    mmm_time_dispose(&t);

    /* Graph replay: a costs 1e-4 + 1.16e-3, each b 1e-4 + 2e-6. */
    eval_small(p, inst, "graph", 1);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                 err.message);
    cr_expect(fabs(t.kernels[0].seconds - 1.26e-3) < 1e-15);
    cr_expect(fabs(t.kernels[1].seconds - 3 * 1.02e-4) < 1e-15, "%.17g",
              t.kernels[1].seconds);
    cr_expect(fabs(t.seconds - (1.26e-3 + 3.06e-4)) < 1e-15);
    mmm_time_dispose(&t);

    /* 16 blocks: two full waves of 8 -> 2 * 800 cycles. */
    eval_small(p, inst, "N", 16);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0);
    cr_expect(fabs(t.kernels[0].exec_seconds - 1.6e-3) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_ISSUE);
    mmm_time_dispose(&t);

    /* An SM that takes 300 cycles to start a block: a full wave puts 4
     * blocks on each SM, 4 * 300 = 1200 cycles > 800 (issue): two waves
     * 2400 cycles, the blocks' starts bind.  At 150 cycles (600 < 800)
     * the issue term binds again: 1600 cycles. */
    expect_exec2(p, inst, 16, "block_cycles", 300, 2.4e-3,
                 MMM_TIME_TERM_BLOCKS);
    expect_exec2(p, inst, 16, "block_cycles", 150, 1.6e-3,
                 MMM_TIME_TERM_ISSUE);

    /* Half the shorter of the critical path and the transfer exposed,
     * 10 blocks again: the full wave max(800 issue, 360 + 122.88/2) = 800;
     * the last wave 360 + 30.72/2 = 375.36 cycles: 1175.36 cycles, the
     * full wave's issue the dominant term. */
    expect_exec2(p, inst, 10, "latency_exposed", 0.5, 1.17536e-3,
                 MMM_TIME_TERM_ISSUE);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

static void expect_error(const char *what, const char *edit_from,
                         const char *edit_to, const char *needle, long line)
{
    char buf[4096];
    const char *at = strstr(small, edit_from);
    cr_assert_not_null(at, "%s", edit_from);
    snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - small), small, edit_to,
             at + strlen(edit_from));
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    mmm_time t;
    cr_assert_eq(mmm_program_load_memory(&p, buf, strlen(buf), "e.xml", NULL,
                                         &err),
                 0, "%s: %s", what, err.message);
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_expect_lt(mmm_time_compute(&t, inst, NULL, &err), 0, "%s", what);
    cr_expect_not_null(strstr(err.message, needle), "%s: '%s'", what,
                       err.message);
    cr_expect_eq(err.line, line, "%s: line %ld", what, err.line);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(time, errors)
{
    expect_error("too many threads", "threads='128'", "threads='2048'",
                 "more than the machine's block_threads = 1024", 19);
    expect_error("too much shared", "threads='128'",
                 "threads='128' shared_bytes='70000'",
                 "70000 bytes of shared memory", 19);
    expect_error("no room for registers", "threads='128'",
                 "threads='128' registers='600'",
                 "cannot be resident on an SM (limited by registers)", 19);
    expect_error("no threads", "threads='128'", "",
                 "needs the threads per block", 19);
    expect_error("reads alone too slow", "<param name='op_cycles' value='2'/>",
                 "<param name='op_cycles' value='2'/><param name='read_bytes_per_cycle' "
                 "value='50'/>",
                 "'read_bytes_per_cycle' = 50 is at most half of bandwidth_bytes_per_cycle", 11);
    expect_error("atomic_exposed above 1", "<param name='op_cycles' value='2'/>",
                 "<param name='op_cycles' value='2'/><param name='atomic_exposed' "
                 "value='1.5'/>",
                 "'atomic_exposed' = 1.5 is more than 1", 11);
    expect_error("chain longer than the path", "span='100'",
                 "span='100' chain='101'",
                 "chain = 101 is more than its span = 100", 19);
    expect_error("missing constant", "<param name='op_cycles' value='2'/>",
                 "", "needs the machine parameter 'op_cycles'", 0);
    expect_error("bad graph", "name='graph' value='0'",
                 "name='graph' value='2'", "must be 0 (stream) or 1", 0);
    expect_error("fractional limit", "name='sm_blocks' value='4'",
                 "name='sm_blocks' value='4.5'", "must be an integer", 6);
}

/* The bundled programs with the fitted H100 load and predict. */
Test(time, attributes_validated)
{
    static const char bad[] =
        "<program name='t'><param name='U' value='1'/>\n"
        "<kernel id='a' blocks='1' threads='1' work='1' span='1' reads='0'\n"
        "        writes='0' registrs='4'/></program>\n";
    mmm_program *p = NULL;
    mmm_error err;
    cr_expect_lt(mmm_program_load_memory(&p, bad, strlen(bad), "b.xml", NULL,
                                         &err),
                 0);
    cr_expect_eq(err.line, 2);
    cr_expect_not_null(strstr(err.message, "registrs"), "%s", err.message);
    static const char neg[] =
        "<program name='t'><param name='U' value='1'/>\n"
        "<kernel id='a' blocks='1' threads='1' work='1' span='1' reads='0'\n"
        "        writes='0' registers='-4'/></program>\n";
    mmm_instance *inst;
    cr_assert_eq(mmm_program_load_memory(&p, neg, strlen(neg), "n.xml", NULL,
                                         &err),
                 0, "%s", err.message);
    cr_assert_eq(mmm_instance_new(&inst, p, &err), 0);
    cr_expect_lt(mmm_instance_eval(inst, NULL, 0, &err), 0);
    cr_expect_eq(err.line, 2);
    cr_expect_not_null(strstr(err.message, "registers of kernel 'a'"), "%s",
                       err.message);
    mmm_instance_free(inst);
    mmm_program_free(p);
    /* the same check for the later attributes, on a <blocks> child too */
    static const char *const later[][2] = {
        {"atomics='-1'", "atomics of kernel 'a' = -1 is negative"},
        {"global_wavefronts='-2'",
         "global_wavefronts of kernel 'a' = -2 is negative"},
        {"gathers='-3'", "gathers of kernel 'a' = -3 is negative"},
        {"gather_bytes='-4'", "gather_bytes of kernel 'a' = -4 is negative"},
        {"scatters='-5'", "scatters of kernel 'a' = -5 is negative"},
    };
    for (size_t i = 0; i < sizeof later / sizeof *later; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "<program name='t'><param name='U' value='1'/>\n"
                 "<kernel id='a' threads='1' %s>\n"
                 "<blocks count='1' work='1' span='1' reads='0' writes='0'/>"
                 "</kernel></program>\n",
                 later[i][0]);
        load_text(text, "n.xml", &p, &inst);
        cr_expect_lt(mmm_instance_eval(inst, NULL, 0, &err), 0);
        cr_expect_not_null(strstr(err.message, later[i][1]), "%s",
                           err.message);
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
}

/* Coalescing (read_stride, write_stride): a bandwidth-bound launch whose
 * traffic is multiplied by the sectors a warp's access touches.  2 blocks
 * of one warp on 2 SMs (one wave, a = 1); each thread writes 8 words (or
 * reads them in kernel r; kernel w2 gives its stride to a <blocks> child).
 *   useful bytes = 2 * 32 * 8 * 4 = 2048; 100 bytes/cycle -> 20.48 cycles
 *   a warp's access at stride S words touches
 *     min(32, ceil(32 * S * 4 / sector_bytes)) sectors of sector_bytes:
 *   S = 1: 4 sectors of 32 = 128 bytes for 128 useful: x1
 *   S = 2: 8 -> x2;  S = 3: 12 -> x3;  S = 16: min(32, 64) -> x8
 *   S = 16 with 128-byte sectors: ceil(2048/128) = 16 of 128 -> x16
 *   latency 2*1 = 2 cycles and issue 1 cycle never bind. */
static const char strided[] =
    "<program name='st'>\n"
    SMALL_MACHINE
    "<param name='sector_bytes' value='32'/>\n"
    "<param name='S' value='1'/>\n"
    "<kernel id='w' blocks='2' threads='32' work='32' span='1' reads='0'\n"
    "        writes='8' rounds='0' write_stride='S'/>\n"
    "<kernel id='r' blocks='2' threads='32' work='32' span='1' reads='8'\n"
    "        writes='0' rounds='0' read_stride='S' write_stride='99'/>\n"
    "<kernel id='w2' threads='32' write_stride='S'>\n"
    "  <blocks count='2' work='32' span='1' reads='0' writes='8'\n"
    "          rounds='0'/>\n"
    "</kernel>\n"
    "</program>\n";

static void strided_case(const char *name, double v, const char *name2,
                         double v2, double factor)
{
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    mmm_error err;
    load_text(strided, "st.xml", &p, &inst);
    mmm_override ov[2] = {{mmm_program_find_param(p, name),
                           mmm_value_double(v)},
                          {mmm_program_find_param(p, name2 ? name2 : name),
                           mmm_value_double(name2 ? v2 : v)}};
    cr_assert_eq(mmm_instance_eval(inst, ov, 2, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                 err.message);
    for (int k = 0; k < 3; k++) {
        double want = 20.48 * factor / 1e6;
        cr_expect(fabs(t.kernels[k].exec_seconds - want) < 1e-12 * want,
                  "kernel %d, %s = %g: %.17g, want %.17g", k, name, v,
                  t.kernels[k].exec_seconds, want);
        cr_expect_eq(t.kernels[k].dominant, MMM_TIME_TERM_LAUNCH);
    }
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

Test(time, coalescing_by_hand)
{
    strided_case("S", 1, NULL, 0, 1);
    strided_case("S", 0.5, NULL, 0, 1); /* below 1: coalesced */
    strided_case("S", 2, NULL, 0, 2);
    strided_case("S", 3, NULL, 0, 3);
    strided_case("S", 16, NULL, 0, 8);
    strided_case("S", 1000, NULL, 0, 8); /* one sector per word at most */
    strided_case("S", 16, "sector_bytes", 128, 16);
    /* 32 words 16 B apart span 512 B: 4 sectors of 128 for 128 useful */
    strided_case("S", 4, "sector_bytes", 128, 4);
}

/* Without rounds, a thread that reads waits for one round trip, however
 * many words it reads; one that reads nothing for none.  One block of 32
 * threads on the small machine (1 MHz): C_lat = 2*10 + 100*rounds; the
 * issue (1 cycle) and the traffic (32*7*4/100 = 8.96 cycles) stay below. */
Test(time, rounds_default_by_hand)
{
    static const char text[] =
        "<program name='r'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<kernel id='d' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='7' writes='0'/>\n"
        "<kernel id='e' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='7' writes='0' rounds='7'/>\n"
        "<kernel id='f' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='0' writes='1'/>\n"
        "</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    time_text(text, "rounds.xml", &p, &inst, &t);
    cr_expect(fabs(t.kernels[0].exec_seconds - 120e-6) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect(fabs(t.kernels[1].exec_seconds - 720e-6) < 1e-15, "%.17g",
              t.kernels[1].exec_seconds);
    cr_expect(fabs(t.kernels[2].exec_seconds - 20e-6) < 1e-15, "%.17g",
              t.kernels[2].exec_seconds);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* DRAM reads alone at R = 125 bytes a cycle (read_bytes_per_cycle),
 * writes alone at W = 200 (set_bytes_per_s 2e8 at 1 MHz), a copy at B =
 * 100 (bytes read plus written): mixing costs the turnaround share p
 * x(1 - x), p = 4 (1/100 - 1/250 - 1/400) = 0.014.  One block of 32
 * threads, 1,000 words a thread = 128,000 bytes: read alone 128,000 / 125
 * = 1,024 cycles, written alone 128,000 / 200 = 640, half and half
 * 64,000/125 + 64,000/200 + 0.014 x 32,000 = 1,280 (a copy: its bytes at
 * B); the latency (2 x 10 + 100 a round) and the issue stay below. */
Test(time, reads_alone_by_hand)
{
    static const char text[] =
        "<program name='rw'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='read_bytes_per_cycle' value='125'/>\n"
        "<param name='set_bytes_per_s' value='2e8'/>\n"
        "<kernel id='r' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='1000' writes='0'/>\n"
        "<kernel id='w' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='0' writes='1000'/>\n"
        "<kernel id='c' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='500' writes='500'/>\n"
        "</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    time_text(text, "rw.xml", &p, &inst, &t);
    cr_expect(fabs(t.kernels[0].exec_seconds - 1024e-6) < 1e-12, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect(fabs(t.kernels[1].exec_seconds - 640e-6) < 1e-12, "%.17g",
              t.kernels[1].exec_seconds);
    cr_expect(fabs(t.kernels[2].exec_seconds - 1280e-6) < 1e-12, "%.17g",
              t.kernels[2].exec_seconds);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* chain, where given, is the latency term's count in place of span: one
 * block of 32 threads on the small machine (1 MHz), no reads: C_lat =
 * op_cycles (2) * chain; span 10 and chain 4 give 8 cycles, chain 10 (as
 * span) 20; the issue (work 32: 1 cycle) and one written word (32*4/100 =
 * 1.28 cycles) stay below.  The MMM's span S is the path's, 10, either way. */
Test(time, chain_by_hand)
{
    static const char text[] =
        "<program name='c'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<kernel id='g' blocks='1' threads='32' work='32' span='10'\n"
        "        chain='4' reads='0' writes='1'/>\n"
        "<kernel id='h' blocks='1' threads='32' work='32' span='10'\n"
        "        chain='10' reads='0' writes='1'/>\n"
        "<kernel id='i' blocks='1' threads='32' work='32' span='10'\n"
        "        reads='0' writes='1'/>\n"
        "</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    time_text(text, "chain.xml", &p, &inst, &t);
    cr_expect(fabs(t.kernels[0].exec_seconds - 8e-6) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect(fabs(t.kernels[1].exec_seconds - 20e-6) < 1e-15, "%.17g",
              t.kernels[1].exec_seconds);
    cr_expect(fabs(t.kernels[2].exec_seconds - 20e-6) < 1e-15, "%.17g",
              t.kernels[2].exec_seconds);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* The shared-memory term adds the block's critical path (a warp waits for
 * its conflicted accesses before the operations that depend on them), and
 * a run of stream launches costs start_s once more (not a graph replay). */
Test(time, shared_and_start_by_hand)
{
    static const char prog[] =
        "<program name='sh'>\n" SMALL_MACHINE
        "<param name='start_s' value='5e-3'/>\n"
        "<param name='graph' value='0'/>\n"
        "<kernel id='k' blocks='2' threads='64' work='64' span='10'\n"
        "        reads='0' writes='0' wavefronts='100'/>\n"
        "</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    mmm_time t;
    time_text(prog, "sh.xml", &p, &inst, &t);
    /* 64 threads = 2 warps; A = min(512/64, 4 blocks) = 4, 8 slots: the 2
     * blocks are one wave, a = ceil(2/2) = 1 block per SM.
     *   C_lat   = 2 cycles * span 10 = 20
     *   C_issue = 1 * 2 warps * 64/64 / 1 = 2
     *   C_sh    = 1 * 2 warps * 100 wavefronts / 1 + C_lat = 220
     * exec = 220 cycles / 1e6 Hz = 2.2e-4 s (shared);
     * stream: issued at 1e-3, ends 1.22e-3, plus start_s 5e-3 */
    cr_expect(fabs(t.kernels[0].exec_seconds - 2.2e-4) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect(fabs(t.kernels[0].seconds - 1.22e-3) < 1e-15, "%.17g",
              t.kernels[0].seconds);
    cr_expect(fabs(t.seconds - 6.22e-3) < 1e-15, "%.17g", t.seconds);
    mmm_time_dispose(&t);
    /* graph: 1e-4 + 2.2e-4, no start_s */
    eval_small(p, inst, "graph", 1);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                 err.message);
    cr_expect(fabs(t.seconds - 3.2e-4) < 1e-15, "%.17g", t.seconds);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_SHARED);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* Stream launches: the host issues one every launch_s, a launch starts when
 * it is issued and launch_graph_s after what it depends on has ended.  The
 * library computes a repeat of identical launches in closed form and a
 * repeat that reads its index launch by launch; both are checked here
 * against the same recurrence run launch by launch, from the kernels'
 * execution times, with the host ahead of the GPU, behind it, and catching
 * up in the middle of a repeat. */
static double simulate_chain(const double *exec, int n, double pace,
                             double gap)
{
    double end = 0;
    for (int i = 1; i <= n; i++)
        end = fmax(i * pace, end + gap) + exec[i - 1];
    return end;
}

Test(time, stream_launches_follow_the_host)
{
    /* a: span Sa (2 cycles each, 1e6 Hz); then b, K launches of span Sb;
     * then v, K launches of span Sb*(i+1) for its index i = 1..K. */
    static const char prog[] =
        "<program name='chain'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='Sa' value='1'/>\n"
        "<param name='Sb' value='1'/>\n"
        "<param name='K' value='20'/>\n"
        "<kernel id='a' blocks='1' threads='1' work='1' span='Sa'\n"
        "        reads='0' writes='0'/>\n"
        "<kernel id='b' blocks='1' threads='1' work='1' span='Sb'\n"
        "        reads='0' writes='0' repeat='K'/>\n"
        "<kernel id='v' blocks='1' threads='1' work='1' span='Sb*(i+1)'\n"
        "        reads='0' writes='0' repeat='K' index='i'/>\n"
        "<edge from='a' to='b'/>\n"
        "<edge from='b' to='v'/>\n"
        "</program>\n";
    /* launch_s = 1e-3, launch_graph_s = 1e-4; exec of a span S: 2e-6 S. */
    static const struct {
        double Sa, Sb, K;
    } cases[] = {
        {1, 1, 20},      /* host-bound throughout */
        {1, 1000, 20},   /* b: 2e-3 + 1e-4 per launch, GPU-bound */
        {2500, 100, 20}, /* a runs 5e-3 while the host issues ahead; b's
                          * 3e-4 per launch catches up with the host */
        {2500, 400, 37}, /* v's growing launches overtake the host */
        {1, 1, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        mmm_program *p;
        mmm_instance *inst;
        mmm_error err;
        mmm_time t;
        load_text(prog, "chain.xml", &p, &inst);
        mmm_override ov[3] = {
            {mmm_program_find_param(p, "Sa"), mmm_value_double(cases[c].Sa)},
            {mmm_program_find_param(p, "Sb"), mmm_value_double(cases[c].Sb)},
            {mmm_program_find_param(p, "K"), mmm_value_double(cases[c].K)}};
        cr_assert_eq(mmm_instance_eval(inst, ov, 3, &err), 0, "%s",
                     err.message);
        cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                     err.message);
        int K = (int)cases[c].K, n = 1 + 2 * K;
        double exec[1 + 2 * 37];
        exec[0] = 2e-6 * cases[c].Sa;
        for (int i = 1; i <= K; i++) {
            exec[i] = 2e-6 * cases[c].Sb;
            exec[K + i] = 2e-6 * cases[c].Sb * (i + 1);
        }
        double want = simulate_chain(exec, n, 1e-3, 1e-4);
        cr_expect(fabs(t.seconds - want) < 1e-12, "case %zu: %.17g, want %.17g",
                  c, t.seconds, want);
        /* b's own end, before v: a and b's seconds add up to it. */
        double want_b = simulate_chain(exec, 1 + K, 1e-3, 1e-4);
        cr_expect(fabs(t.kernels[0].seconds + t.kernels[1].seconds - want_b) <
                      1e-12,
                  "case %zu: b ends at %.17g, want %.17g", c,
                  t.kernels[0].seconds + t.kernels[1].seconds, want_b);
        /* The kernels' seconds add up along the chain. */
        double sum = t.kernels[0].seconds + t.kernels[1].seconds +
                     t.kernels[2].seconds;
        cr_expect(fabs(sum - want) < 1e-12, "case %zu: %.17g", c, sum);
        mmm_time_dispose(&t);
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
}

/* Atomics on one word are served one after another beside the waves: a
 * launch lasts at least blocks x atomics x atomic_cycles.  Kernel k: 10
 * blocks of 128 threads as kernel a of the small program (1160 cycles of
 * waves); its <blocks> children inherit the kernel's atomics. */
Test(time, atomics_on_one_word_by_hand)
{
    static const char prog[] =
        "<program name='at'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='atomic_cycles' value='50'/>\n"
        "<param name='A' value='1'/>\n"
        "<kernel id='k' threads='128' shared='0' barriers='2' atomics='A'>\n"
        "  <blocks count='8' work='6400' span='100' reads='2' writes='1' rounds='1'/>\n"
        "  <blocks count='2' work='6400' span='100' reads='2' writes='1' rounds='1'/>\n"
        "</kernel>\n"
        "</program>\n";
    static const struct {
        double A, exec;
        mmm_time_term term;
    } cases[] = {
        {0, 1.16e-3, MMM_TIME_TERM_ISSUE},   /* no atomics: the waves */
        {1, 1.16e-3, MMM_TIME_TERM_ISSUE},   /* 10 x 50 = 500 < 1160 */
        {2.32, 1.16e-3, MMM_TIME_TERM_ISSUE}, /* 1160: a tie keeps the waves */
        {3, 1.5e-3, MMM_TIME_TERM_ATOMICS},  /* 10 x 3 x 50 = 1500 cycles */
    };
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    load_text(prog, "at.xml", &p, &inst);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        mmm_time t;
        eval_small(p, inst, "A", cases[c].A);
        cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                     err.message);
        cr_expect(fabs(t.kernels[0].exec_seconds - cases[c].exec) < 1e-15,
                  "A = %g: %.17g, want %.17g", cases[c].A,
                  t.kernels[0].exec_seconds, cases[c].exec);
        cr_expect_eq(t.kernels[0].dominant, cases[c].term, "A = %g",
                     cases[c].A);
        mmm_time_dispose(&t);
    }
    mmm_instance_free(inst);
    mmm_program_free(p);

    /* the minimal form reads the attribute too */
    static const char minimal[] =
        "<program name='at1'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='atomic_cycles' value='50'/>\n"
        "<kernel id='k' blocks='10' threads='128' work='6400' span='100'\n"
        "        reads='2' writes='1' rounds='1' barriers='2' atomics='3'/>\n"
        "</program>\n";
    mmm_time t;
    time_text(minimal, "at1.xml", &p, &inst, &t);
    cr_expect(fabs(t.kernels[0].exec_seconds - 1.5e-3) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_ATOMICS);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);

    /* atomic_exposed 0.4: the shorter of the atomics (1,500 cycles) and
     * the waves (1,160) adds 0.4 of itself: 1,500 + 464 = 1,964 cycles;
     * with 1 atomic a block (500 cycles), 1,160 + 200 = 1,360 */
    static const char exposed[] =
        "<program name='at2'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='atomic_cycles' value='50'/>\n"
        "<param name='atomic_exposed' value='0.4'/>\n"
        "<kernel id='k' blocks='10' threads='128' work='6400' span='100'\n"
        "        reads='2' writes='1' rounds='1' barriers='2' atomics='3'/>\n"
        "<kernel id='j' blocks='10' threads='128' work='6400' span='100'\n"
        "        reads='2' writes='1' rounds='1' barriers='2' atomics='1'/>\n"
        "</program>\n";
    time_text(exposed, "at2.xml", &p, &inst, &t);
    cr_expect(fabs(t.kernels[0].exec_seconds - 1.964e-3) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_ATOMICS);
    cr_expect(fabs(t.kernels[1].exec_seconds - 1.36e-3) < 1e-15, "%.17g",
              t.kernels[1].exec_seconds);
    cr_expect_neq(t.kernels[1].dominant, MMM_TIME_TERM_ATOMICS);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* The L1 passes one 128-byte line per cycle for global and shared
 * accesses alike: a warp's global accesses that touch G lines cost a·W_b·
 * (wavefronts + G) cycles per wave on the SM.  Kernel a of the small
 * program (10 blocks of 128 threads = 4 warps; waves of a = 4 and a = 1
 * blocks per SM: 800 issue and 360 latency cycles) with G = 100 per warp:
 * 4·4·100 = 1600 and 1·4·100 = 400 cycles, 2000 in all (the L1 binds);
 * with G = 40: 640 < 800 and 160 < 360, the waves as before (1160). */
Test(time, global_wavefronts_by_hand)
{
    static const char prog[] =
        "<program name='gw'>\n" SMALL_MACHINE
        "<param name='block_cycles' value='0'/>\n"
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='G' value='100'/>\n"
        "<kernel id='a' blocks='10' threads='128' work='128*50' span='100'\n"
        "        reads='2' writes='1' rounds='1' barriers='2'\n"
        "        global_wavefronts='G'/>\n"
        "</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    mmm_time t;
    time_text(prog, "gw.xml", &p, &inst, &t);
    cr_expect(fabs(t.kernels[0].exec_seconds - 2.0e-3) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_L1);
    cr_expect_str_eq(mmm_time_term_name(MMM_TIME_TERM_L1), "l1");
    mmm_time_dispose(&t);
    eval_small(p, inst, "G", 40);
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s",
                 err.message);
    cr_expect(fabs(t.kernels[0].exec_seconds - 1.16e-3) < 1e-15, "%.17g",
              t.kernels[0].exec_seconds);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_ISSUE);
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* The first kernel's execution time and dominant term, computed. */
static void expect_first_exec(mmm_instance *inst, double want,
                              mmm_time_term dominant, const char *what)
{
    mmm_error err;
    mmm_time t;
    cr_assert_eq(mmm_time_compute(&t, inst, NULL, &err), 0, "%s", err.message);
    cr_expect(fabs(t.kernels[0].exec_seconds - want) < 1e-15,
              "%s: %.17g, want %.17g", what, t.kernels[0].exec_seconds, want);
    cr_expect_eq(t.kernels[0].dominant, dominant, "%s", what);
    mmm_time_dispose(&t);
}

/* Gathered reads: of a thread's 100 reads, 80 at random addresses over a
 * region of G bytes, 20 coalesced (4 bytes each).  Two blocks of 32
 * threads, one wave (a = 1): latency 2·1 + 100·1 = 102 cycles; the
 * bandwidth term (100 bytes per cycle) binds.  With gather_hit_bytes 20,
 * gather_miss_bytes 90 and gather_l2_bytes 1000 a gathered word costs
 * h·20 + (1 − h)·90 bytes, h = min(1, 1000/G):
 *   G = 500:  h = 1, 20 bytes:      64·(80 + 80·20)   = 107520 bytes, 1075.2 cycles;
 *   G = 4000: h = 1/4, 72.5 bytes:  64·(80 + 80·72.5) = 376320 bytes, 3763.2 cycles;
 *   no region given: h = 0, 90:     64·(80 + 80·90)   = 465920 bytes, 4659.2 cycles.
 * Without those machine constants a gathered word costs one 32-byte
 * sector (the rule for spread reads): 64·(80 + 80·32) = 168960 bytes,
 * 1689.6 cycles.  Gathers beyond the reads are refused. */
Test(time, gathers_by_hand)
{
#define GATHER_KERNEL(REGION)                                                \
    "<kernel id='g' blocks='2' threads='32' work='32' span='1'\n"            \
    "        reads='100' writes='0' rounds='1' gathers='80'" REGION "/>\n"
    static const char *const texts[] = {
        "<program name='g1'>\n" SMALL_MACHINE
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='gather_hit_bytes' value='20'/>\n"
        "<param name='gather_miss_bytes' value='90'/>\n"
        "<param name='gather_l2_bytes' value='1000'/>\n"
        "<param name='G' value='500'/>\n"
        GATHER_KERNEL(" gather_bytes='G'") "</program>\n",
        "<program name='g2'>\n" SMALL_MACHINE
        "<param name='gather_hit_bytes' value='20'/>\n"
        "<param name='gather_miss_bytes' value='90'/>\n"
        "<param name='gather_l2_bytes' value='1000'/>\n"
        GATHER_KERNEL("") "</program>\n",
        "<program name='g3'>\n" SMALL_MACHINE
        "<param name='G' value='500'/>\n"
        GATHER_KERNEL(" gather_bytes='G'") "</program>\n"};
    static const double want[] = {1075.2e-6, 4659.2e-6, 1689.6e-6};
    for (int i = 0; i < 3; i++) {
        mmm_program *p;
        mmm_instance *inst;
        load_text(texts[i], "g.xml", &p, &inst);
        eval_small(p, inst, NULL, 0);
        expect_first_exec(inst, want[i], MMM_TIME_TERM_BANDWIDTH, texts[i]);
        if (i == 0) {
            eval_small(p, inst, "G", 4000);
            expect_first_exec(inst, 3763.2e-6, MMM_TIME_TERM_BANDWIDTH,
                              "G = 4000");
        }
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
    {
        static const char more[] = "<program name='g4'>\n" SMALL_MACHINE
            "<kernel id='g' blocks='2' threads='32' work='32' span='1'\n"
            "        reads='10' writes='0' gathers='12'/>\n</program>\n";
        mmm_program *p;
        mmm_instance *inst;
        mmm_error err;
        mmm_time t;
        load_text(more, "g4.xml", &p, &inst);
        eval_small(p, inst, NULL, 0);
        cr_expect_neq(mmm_time_compute(&t, inst, NULL, &err), 0);
        cr_expect(strstr(err.message, "gathers = 12 is more than its reads = 10"),
                  "%s", err.message);
        cr_expect_eq(err.line, 17, "line %ld", err.line); /* after the 15 machine lines */
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
#undef GATHER_KERNEL
}

/* Scattered writes: of a thread's 100 writes, 80 at random addresses over
 * G = 4000 bytes, 20 coalesced.  With scatter_hit_bytes 40,
 * scatter_miss_bytes 200 and gather_l2_bytes 1000 (h = 1/4) a scattered
 * word costs 0.25·40 + 0.75·200 = 160 bytes: 64·(80 + 80·160) = 824320
 * bytes, 8243.2 cycles at 100 bytes per cycle (the latency, 102 cycles,
 * is shorter).  Without those constants a scattered word costs one 32-byte
 * sector: 64·(80 + 80·32) = 168960 bytes, 1689.6 cycles.  Scatters beyond
 * the writes are refused. */
Test(time, scatters_by_hand)
{
#define SCATTER_KERNEL(WRITES)                                               \
    "<param name='G' value='4000'/>\n"                                       \
    "<kernel id='s' blocks='2' threads='32' work='32' span='1'\n"            \
    "        reads='0' writes='" WRITES "' rounds='1' scatters='80'"         \
    " gather_bytes='G'/>\n"
    static const char *const texts[] = {
        "<program name='s1'>\n" SMALL_MACHINE
        "<param name='latency_exposed' value='0'/>\n"
        "<param name='scatter_hit_bytes' value='40'/>\n"
        "<param name='scatter_miss_bytes' value='200'/>\n"
        "<param name='gather_l2_bytes' value='1000'/>\n"
        SCATTER_KERNEL("100") "</program>\n",
        "<program name='s2'>\n" SMALL_MACHINE SCATTER_KERNEL("100")
        "</program>\n",
        "<program name='s3'>\n" SMALL_MACHINE SCATTER_KERNEL("70")
        "</program>\n"};
    static const double want[] = {8243.2e-6, 1689.6e-6};
    for (int i = 0; i < 3; i++) {
        mmm_program *p;
        mmm_instance *inst;
        mmm_error err;
        mmm_time t;
        load_text(texts[i], "s.xml", &p, &inst);
        eval_small(p, inst, NULL, 0);
        if (i < 2) {
            expect_first_exec(inst, want[i], MMM_TIME_TERM_BANDWIDTH, texts[i]);
        } else {
            cr_expect_neq(mmm_time_compute(&t, inst, NULL, &err), 0);
            cr_expect(strstr(err.message,
                             "scatters = 80 is more than its writes = 70"),
                      "%s", err.message);
        }
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
#undef SCATTER_KERNEL
}

/* mmm_time_const_mark: `mmm fit --fit NAMES` and `--fix NAMES`. */
Test(time, const_mark_lists)
{
    int mark[MMM_TIME_NCONST] = {0};
    int op = mmm_time_const_find("op_cycles"), bw = mmm_time_const_find("bandwidth_bytes_per_cycle");
    cr_assert(op >= 0 && bw >= 0 && op != bw);
    cr_expect_eq(mmm_time_const_mark("op_cycles,bandwidth_bytes_per_cycle", mark, 1), 0);
    for (int i = 0; i < MMM_TIME_NCONST; i++)
        cr_expect_eq(mark[i], i == op || i == bw, "%d", i);
    cr_expect_eq(mmm_time_const_mark("op_cycles", mark, 0), 0);
    cr_expect_eq(mark[op], 0);
    cr_expect_eq(mark[bw], 1);
    /* an unknown name, an empty item or list: -1, mark untouched */
    cr_expect_eq(mmm_time_const_mark("bandwidth_bytes_per_cycle,nope", mark, 0), -1);
    cr_expect_eq(mmm_time_const_mark("bandwidth_bytes_per_cycle,", mark, 0), -1);
    cr_expect_eq(mmm_time_const_mark("", mark, 0), -1);
    cr_expect_eq(mmm_time_const_mark(NULL, mark, 0), -1);
    cr_expect_eq(mark[bw], 1);
}

/* The table of machine constants (src/time/time_inputs.h): its fitted
 * rows are the constants of mmm_time_const_*, in their order (the order
 * in which they are read, so the first missing one is reported). */
Test(time, machine_table_fitted_rows)
{
    int next = 0;
    for (int i = 0; i < MMM__TI_N; i++) {
        const char *name = mmm__time_input_name(i);
        cr_assert_not_null(name);
        if (!mmm__time_input_fitted(i)) {
            cr_expect_eq(mmm_time_const_find(name), -1, "%s", name);
            continue;
        }
        cr_expect_eq(mmm_time_const_find(name), next, "%s", name);
        cr_expect_str_eq(mmm_time_const_unit(next), mmm__time_input_unit(i));
        cr_expect_eq(mmm_time_const_optional(next),
                     (mmm__time_input_flags(i) & TI_OPTIONAL) != 0, "%s",
                     name);
        next++;
    }
    cr_expect_eq(next, MMM_TIME_NCONST);
    cr_expect_null(mmm__time_input_name(MMM__TI_N));
}

/* Copies and sets (<copy>) on the small machine: 100 bytes per cycle at
 * 1 MHz is 1e8 bytes/s, so a d2d copy without its own rate moves 5e7
 * bytes/s (each byte read and written) and a memset 1e8; the host link
 * is given, 1e7 bytes/s in, 5e6 out; a call costs 1e-5 s more on the
 * device, 2e-5 s over the host link:
 *   up    h2d 20000 B:    2e-5 + 20000/1e7   = 2.02e-3 s
 *   clear set 50000 B x2: 1e-5 + 50000/1e8   = 5.1e-4 s each
 *   k     one thread:     2 cycles           = 2e-6 s
 *   dup   d2d 5000 B:     1e-5 + 5000/5e7    = 1.1e-4 s
 *   down  d2h 10000 B:    2e-5 + 10000/5e6   = 2.02e-3 s
 * placed like launches (stream: the i-th call issued at i·1e-3, each
 * starting 1e-4 after what it waits for). */
#define COPIES_PROGRAM(mode)                                                 \
    "<program name='copies'>\n" SMALL_MACHINE                                \
    "<param name='graph' value='" mode "'/>\n"                               \
    "<param name='copy_s' value='1e-5'/>\n"                                  \
    "<param name='copy_host_s' value='2e-5'/>\n"                             \
    "<param name='copy_h2d_bytes_per_s' value='1e7'/>\n"                     \
    "<param name='copy_d2h_bytes_per_s' value='5e6'/>\n"                     \
    "<copy id='up' kind='h2d' bytes='20000'/>\n"                             \
    "<copy id='clear' kind='set' bytes='50000' repeat='2'/>\n"               \
    "<kernel id='k' blocks='1' threads='1' work='1' span='1' reads='0'\n"    \
    "        writes='0'/>\n"                                                 \
    "<copy id='dup' kind='d2d' bytes='5000'/>\n"                             \
    "<copy id='down' kind='d2h' bytes='10000'/>\n"                           \
    "<edge from='up' to='k'/><edge from='clear' to='k'/>\n"                  \
    "<edge from='k' to='dup'/><edge from='dup' to='down'/>\n"                \
    "</program>\n"

static void expect_s(double got, double want, const char *what)
{
    cr_expect(fabs(got - want) < 1e-15, "%s: %.17g, want %.17g", what, got,
              want);
}

Test(time, copies_by_hand)
{
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    time_text(COPIES_PROGRAM("0"), "copies.xml", &p, &inst, &t);
    /* the MMM sees one block: copies add nothing, and pass dependencies */
    cr_expect_eq(mmm_kernel_copy(p, 0), MMM_COPY_H2D);
    cr_expect_eq(mmm_kernel_copy(p, 2), MMM_COPY_NONE);
    cr_expect_eq(p->kernels[0].nclasses, 0);
    cr_expect_eq(mmm_instance_copy_bytes(inst, 0), 20000);
    cr_expect_eq(mmm_instance_copy_bytes(inst, 2), 0);
    cr_expect_eq(inst->kernels[1].repeat, 2);
    for (int k = 0; k < 5; k++)
        if (k != 2)
            cr_expect(inst->kernels[k].N == 0 && inst->kernels[k].W == 0 &&
                          inst->kernels[k].L == 0,
                      "copy %d", k);
    expect_s(t.kernels[0].exec_seconds, 2.02e-3, "up exec");
    expect_s(t.kernels[1].exec_seconds, 2 * 5.1e-4, "clear exec");
    expect_s(t.kernels[2].exec_seconds, 2e-6, "k exec");
    expect_s(t.kernels[3].exec_seconds, 1.1e-4, "dup exec");
    expect_s(t.kernels[4].exec_seconds, 2.02e-3, "down exec");
    /* up: issued at 1e-3, ends 3.02e-3.  clear: issued at 2e-3, ends
     * 2.51e-3; its second call issued at 3e-3 ends 3.51e-3.  k waits for
     * clear, is issued at 4e-3, ends 4.002e-3.  dup: issued at 5e-3, ends
     * 5.11e-3; down: issued at 6e-3, ends 8.02e-3. */
    expect_s(t.kernels[0].seconds, 3.02e-3, "up");
    expect_s(t.kernels[1].seconds, 3.51e-3, "clear");
    expect_s(t.kernels[2].seconds, 4.002e-3 - 3.51e-3, "k");
    expect_s(t.kernels[3].seconds, 5.11e-3 - 4.002e-3, "dup");
    expect_s(t.kernels[4].seconds, 8.02e-3 - 5.11e-3, "down");
    expect_s(t.seconds, 8.02e-3, "program");
    cr_expect_eq(t.launches, 6);
    cr_expect_eq(t.kernels[0].dominant, MMM_TIME_TERM_COPY);
    cr_expect_eq(t.kernels[1].dominant, MMM_TIME_TERM_LAUNCH);
    cr_expect_eq(t.kernels[4].waves, 0);
    cr_expect_str_eq(mmm_time_term_name(MMM_TIME_TERM_COPY), "copy");
    cr_assert_eq(t.path_len, 4);
    cr_expect(t.path[0] == 1 && t.path[1] == 2 && t.path[2] == 3 &&
              t.path[3] == 4);
    /* the same by the public formula */
    expect_s(mmm_time_copy_seconds(&t.machine, MMM_COPY_D2D, 5000), 1.1e-4,
             "d2d");
    expect_s(mmm_time_copy_seconds(&t.machine, MMM_COPY_SET, 50000), 5.1e-4,
             "set");
    cr_expect_eq(mmm_time_copy_seconds(&t.machine, MMM_COPY_NONE, 5000), 0);
    /* without set_s and copy_d2h_s a memset takes copy_s, a copy to the
     * host copy_host_s; with them, its own: 3e-5 + 5e-4, 4e-5 + the d2h
     * bytes' time (the same as with copy_host_s 2e-5, 2e-5 more) */
    {
        mmm_time_machine own = t.machine;
        cr_expect_eq(own.set_s, own.copy_s);
        cr_expect_eq(own.copy_d2h_s, own.copy_host_s);
        double d2h = mmm_time_copy_seconds(&own, MMM_COPY_D2H, 5000);
        own.set_s = 3e-5;
        own.copy_d2h_s = 4e-5;
        expect_s(mmm_time_copy_seconds(&own, MMM_COPY_SET, 50000), 5.3e-4, "set, own");
        expect_s(mmm_time_copy_seconds(&own, MMM_COPY_D2H, 5000), d2h + 2e-5, "d2h, own");
    }
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);

    /* Graph replay: every call issued at once, each 1e-4 after what it
     * waits for.  up ends 1e-4 + 2.02e-3 = 2.12e-3; clear 1e-4 + 5.1e-4,
     * then 6.1e-4 more: 1.22e-3; k 2.12e-3 + 1e-4 + 2e-6 = 2.222e-3; dup
     * 2.432e-3; down 2.432e-3 + 1e-4 + 2.02e-3 = 4.552e-3. */
    time_text(COPIES_PROGRAM("1"), "copies.xml", &p, &inst, &t);
    expect_s(t.kernels[1].seconds, 1.22e-3, "clear (graph)");
    expect_s(t.kernels[2].seconds, 2.222e-3 - 2.12e-3, "k (graph)");
    expect_s(t.seconds, 4.552e-3, "program (graph)");
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* A copy's bytes are a count: a fraction is an error at its line. */
Test(time, copy_bytes_must_be_a_count)
{
    static const char text[] =
        "<program name='c'>\n<param name='n' value='10'/>\n"
        "<copy id='x' kind='d2d' bytes='n/4'/>\n</program>\n";
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    load_text(text, "c.xml", &p, &inst);
    cr_expect_eq(mmm_instance_eval(inst, NULL, 0, &err), MMM_EINFEASIBLE);
    cr_expect_eq(err.line, 3);
    cr_expect(strstr(err.message, "bytes of copy 'x'") != NULL, "%s",
              err.message);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* Several accesses per kernel (<access>), each costed by its pattern, on
 * the small machine: 2 blocks of 128 threads, one per SM, one wave; the
 * latency path is 2·1 + 100·1 = 102 cycles and every case below moves
 * more, so the launch lasts its bytes: 2 · 128 · B / 100 cycles for B
 * bytes per thread, at 1 MHz.  Random words: hit 20 / miss 90 bytes read,
 * 40 / 200 written, 1e6 bytes of L2, so a region of 4e6 bytes hits a
 * quarter of the time. */
#define ACCESS_MACHINE                                                       \
    SMALL_MACHINE                                                            \
    "<param name='graph' value='1'/>\n"                                      \
    "<param name='block_cycles' value='0'/>\n"                               \
    "<param name='latency_exposed' value='0'/>\n"                            \
    "<param name='atomic_cycles' value='3'/>\n"                              \
    "<param name='gather_hit_bytes' value='20'/>\n"                          \
    "<param name='gather_miss_bytes' value='90'/>\n"                         \
    "<param name='scatter_hit_bytes' value='40'/>\n"                         \
    "<param name='scatter_miss_bytes' value='200'/>\n"                       \
    "<param name='gather_l2_bytes' value='1e6'/>\n"

/* The execution of a kernel of 2 blocks of 128 threads whose accesses
 * are `acc`, and its dominant term. */
static double access_exec(const char *acc, mmm_time_term *term)
{
    char text[4096];
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    snprintf(text, sizeof text,
             "<program name='a'>\n" ACCESS_MACHINE
             "<kernel id='k' blocks='2' threads='128' work='128' span='1'>\n"
             "%s</kernel>\n</program>\n",
             acc);
    time_text(text, "a.xml", &p, &inst, &t);
    double e = t.kernels[0].exec_seconds;
    if (term)
        *term = t.kernels[0].dominant;
    mmm_time_dispose(&t);
    mmm_instance_free(inst);
    mmm_program_free(p);
    return e;
}

/* 2 · 128 · B / 100 cycles at 1 MHz. */
static double bytes_exec(double b)
{
    return 2.0 * 128 * b / 100 / 1e6;
}

static void expect_access(const char *acc, double want, mmm_time_term term)
{
    mmm_time_term got;
    double e = access_exec(acc, &got);
    cr_expect(fabs(e - want) < 1e-15 * (1 + want * 1e6), "%s: %.17g, want %.17g",
              acc, e, want);
    cr_expect_eq(got, term, "%s: dominant %s", acc, mmm_time_term_name(got));
}

Test(time, access_patterns_by_hand)
{
    /* coalesced, 4 words apart: each word moves min(4, 8) · 4 = 16 bytes */
    expect_access("<access words='10' stride='4'/>", bytes_exec(160),
                  MMM_TIME_TERM_BANDWIDTH);
    /* a word for the whole warp: one sector per warp, 1 byte a thread;
     * a quarter of the threads: the warp reads it unless all 32 skip */
    expect_access("<access words='100' pattern='broadcast'/>", bytes_exec(100),
                  MMM_TIME_TERM_BANDWIDTH);
    /* across the block: one sector per 128 threads */
    expect_access("<access words='1000' pattern='broadcast' scope='block'/>",
                  bytes_exec(1000 * 32.0 / 128), MMM_TIME_TERM_BANDWIDTH);
    /* random over 4e6 bytes: 0.25 · 20 + 0.75 · 90 = 72.5 bytes read,
     * 0.25 · 40 + 0.75 · 200 = 160 written; taken scales the words */
    expect_access("<access words='10' pattern='random' region='4e6'/>",
                  bytes_exec(725), MMM_TIME_TERM_BANDWIDTH);
    expect_access("<access words='10' pattern='random' region='4e6' mode='write'/>",
                  bytes_exec(1600), MMM_TIME_TERM_BANDWIDTH);
    /* atomics on one word: 2 · 128 of them, 3 cycles apart, no traffic */
    expect_access("<access words='1' pattern='atomic'/>", 256 * 3 / 1e6,
                  MMM_TIME_TERM_ATOMICS);
    /* over 4096 bytes (1024 words): 8 per thread, each a scattered word
     * found in the L2 (40 bytes); 2 · 128 · 8 / 1024 = 2 on each word */
    expect_access("<access words='8' pattern='atomic' region='4096'/>",
                  bytes_exec(8 * 40.0), MMM_TIME_TERM_BANDWIDTH);
    /* several accesses add their bytes */
    expect_access("<access words='10' stride='4'/>"
                  "<access words='100' pattern='broadcast'/>"
                  "<access words='10' pattern='random' region='4e6'/>",
                  bytes_exec(160 + 100 + 725), MMM_TIME_TERM_BANDWIDTH);
}

/* The attributes of today's kernels are the shorthand of one access per
 * kind: reads at read_stride, the gathers apart, writes at write_stride
 * and the scatters apart.  The same kernel written both ways predicts the
 * same seconds and has the same measures (reads, writes, O). */
Test(time, shorthand_is_one_access_each)
{
    static const char *const forms[2] = {
        "<kernel id='k' blocks='7' threads='96' work='960' span='12'\n"
        "  reads='6' read_stride='4' gathers='2' gather_bytes='4e6'\n"
        "  writes='4' write_stride='2' scatters='1' rounds='3'/>\n",
        "<array name='G' bytes='4e6'/>\n"
        "<kernel id='k' blocks='7' threads='96' work='960' span='12'\n"
        "  rounds='3'>\n"
        "  <access words='4' stride='4'/>\n"
        "  <access words='2' pattern='random' array='G'/>\n"
        "  <access words='3' mode='write' stride='2'/>\n"
        "  <access words='1' mode='write' pattern='random' region='4e6'/>\n"
        "</kernel>\n"};
    double exec[2], O[2];
    for (int i = 0; i < 2; i++) {
        char text[4096];
        mmm_program *p;
        mmm_instance *inst;
        mmm_time t;
        snprintf(text, sizeof text, "<program name='s'>\n" ACCESS_MACHINE
                 "%s</program>\n", forms[i]);
        time_text(text, "s.xml", &p, &inst, &t);
        exec[i] = t.kernels[0].exec_seconds;
        O[i] = inst->kernels[0].O;
        cr_expect_eq(inst->classes[0].reads, 6);
        cr_expect_eq(inst->classes[0].writes, 4);
        mmm_time_dispose(&t);
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
    cr_expect_eq(exec[0], exec[1], "%.17g vs %.17g", exec[0], exec[1]);
    cr_expect_eq(O[0], O[1]);
    cr_expect(exec[0] > 0);
}

/* An access's values are checked like the other attributes: non-negative;
 * the errors name the kernel. */
Test(time, access_values_checked)
{
    static const struct {
        const char *acc, *msg;
    } bad[] = {
        {"<access words='0-1'/>", "words of an <access> of kernel 'k' = -1 is negative"},
        {"<access words='1' pattern='random' region='0-4'/>", "region of an <access> of kernel 'k' = -4 is negative"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[2048];
        mmm_program *p;
        mmm_instance *inst;
        mmm_error err;
        snprintf(text, sizeof text,
                 "<program name='a'>\n<param name='U' value='1'/>\n"
                 "<kernel id='k' blocks='2' threads='128' work='1' span='1'>\n"
                 "%s</kernel>\n</program>\n",
                 bad[i].acc);
        load_text(text, "a.xml", &p, &inst);
        cr_expect_eq(mmm_instance_eval(inst, NULL, 0, &err), MMM_EINFEASIBLE,
                     "%s", bad[i].acc);
        cr_expect_eq(err.line, 4);
        cr_expect(strstr(err.message, bad[i].msg) != NULL, "%s", err.message);
        mmm_instance_free(inst);
        mmm_program_free(p);
    }
}

/* The L2 (docs/time.md, "The L2"), on the small machine with an L2 of
 * 50 MiB (C = 52428800 bytes) that serves 400 bytes a cycle, DRAM 100: 2
 * blocks of 128 threads reading W words each (one wave); a launch lasts
 * max(DRAM bytes / 100, L2 bytes / 400) cycles at 1 MHz. */
#define L2_MACHINE                                                           \
    ACCESS_MACHINE                                                           \
    "<param name='l2_bytes' value='52428800'/>\n"                            \
    "<param name='l2_bytes_per_cycle' value='400'/>\n"

static void l2_time(const char *body, mmm_program **p, mmm_instance **inst,
                    mmm_time *t)
{
    char text[4096];
    snprintf(text, sizeof text, "<program name='l2'>\n" L2_MACHINE "%s"
             "</program>\n", body);
    time_text(text, "l2.xml", p, inst, t);
}

static void l2_done(mmm_program *p, mmm_instance *inst, mmm_time *t)
{
    mmm_time_dispose(t);
    mmm_instance_free(inst);
    mmm_program_free(p);
}

/* Cycles of a launch moving d bytes from DRAM and a through the L2. */
static double l2_exec(double d, double a)
{
    return fmax(d / 100, a / 400) / 1e6;
}

Test(time, l2_array_read_twice)
{
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    /* 4 MiB read by 2 · 128 threads: 4096 words each.  The first launch
     * finds nothing (4 MiB from DRAM: 41943.04 cycles), the second finds
     * it all (4 MiB from the L2: 10485.76), the third as the second. */
    l2_time("<array name='D' bytes='4*2^20'/>\n"
            "<kernel id='k' repeat='3' blocks='2' threads='128' work='128'"
            " span='1'>\n<access words='4096' array='D'/>\n</kernel>\n",
            &p, &inst, &t);
    double mib4 = 4194304;
    expect_s(t.kernels[0].exec_seconds,
             l2_exec(mib4, mib4) + 2 * l2_exec(0, mib4), "4 MiB x3");
    l2_done(p, inst, &t);

    /* 75 MiB, 1.5 times the L2: the first launch moves it all from DRAM;
     * a second pass in the same order finds 2C - F = 25 MiB of it (the
     * stream's later bytes pushed out the earlier ones): 50 MiB from DRAM
     * (524288 cycles), 75 MiB through the L2 (196608). */
    l2_time("<array name='D' bytes='75*2^20'/>\n"
            "<kernel id='k' repeat='2' blocks='2' threads='128' work='128'"
            " span='1'>\n<access words='76800' array='D'/>\n</kernel>\n",
            &p, &inst, &t);
    double mib75 = 78643200, mib50 = 52428800;
    expect_s(t.kernels[0].exec_seconds,
             l2_exec(mib75, mib75) + l2_exec(mib50, mib75), "75 MiB x2");
    l2_done(p, inst, &t);

    /* 100 MiB, twice the L2: a second pass finds none of it. */
    l2_time("<array name='D' bytes='100*2^20'/>\n"
            "<kernel id='k' repeat='2' blocks='2' threads='128' work='128'"
            " span='1'>\n<access words='102400' array='D'/>\n</kernel>\n",
            &p, &inst, &t);
    double mib100 = 104857600;
    expect_s(t.kernels[0].exec_seconds, 2 * l2_exec(mib100, mib100), "100 MiB x2");
    l2_done(p, inst, &t);

    /* The same 4 MiB through a kernel's footprint (no <array>): the
     * launches of one kernel touch the same data. */
    l2_time("<kernel id='k' repeat='2' blocks='2' threads='128' work='128'"
            " span='1' footprint='4*2^20'>\n<access words='4096'/>\n"
            "</kernel>\n",
            &p, &inst, &t);
    expect_s(t.kernels[0].exec_seconds, l2_exec(mib4, mib4) + l2_exec(0, mib4),
             "footprint");
    l2_done(p, inst, &t);

    /* The shorthand with a footprint is the same kernel. */
    l2_time("<kernel id='k' repeat='2' blocks='2' threads='128' work='128'"
            " span='1' reads='4096' writes='0' footprint='4*2^20'/>\n",
            &p, &inst, &t);
    expect_s(t.kernels[0].exec_seconds, l2_exec(mib4, mib4) + l2_exec(0, mib4),
             "footprint, shorthand");
    l2_done(p, inst, &t);
}

Test(time, l2_between_kernels)
{
    mmm_program *p;
    mmm_instance *inst;
    mmm_time t;
    double mib4 = 4194304, mib60 = 62914560;
    /* w writes 4 MiB of X (through the L2, nothing from DRAM: 10485.76
     * cycles); r reads it: all found (10485.76); s then streams 60 MiB in
     * no array, more than the L2: X, dirty, is pushed out and written
     * back by s (60 + 4 MiB from DRAM); r2 reading X again finds none. */
    l2_time("<array name='X' bytes='4*2^20'/>\n"
            "<kernel id='w' blocks='2' threads='128' work='128' span='1'>\n"
            "<access words='4096' mode='write' array='X'/>\n</kernel>\n"
            "<kernel id='r' blocks='2' threads='128' work='128' span='1'>\n"
            "<access words='4096' array='X'/>\n</kernel>\n"
            "<kernel id='s' blocks='2' threads='128' work='128' span='1'"
            " reads='61440' writes='0'/>\n"
            "<kernel id='r2' blocks='2' threads='128' work='128' span='1'>\n"
            "<access words='4096' array='X'/>\n</kernel>\n"
            "<edge from='w' to='r'/><edge from='r' to='s'/>"
            "<edge from='s' to='r2'/>\n",
            &p, &inst, &t);
    expect_s(t.kernels[0].exec_seconds, l2_exec(0, mib4), "w");
    expect_s(t.kernels[1].exec_seconds, l2_exec(0, mib4), "r");
    /* s costs its bytes and the write-back at DRAM's bandwidth */
    expect_s(t.kernels[2].exec_seconds, (mib60 + mib4) / 100 / 1e6, "s");
    expect_s(t.kernels[3].exec_seconds, l2_exec(mib4, mib4), "r2");
    l2_done(p, inst, &t);

    /* A copy fills the L2 with its destination: the kernel after it finds
     * D there. */
    l2_time("<array name='D' bytes='4*2^20'/>\n<array name='S' bytes='4*2^20'/>\n"
            "<copy id='c' kind='d2d' bytes='4*2^20' src='S' dst='D'/>\n"
            "<kernel id='r' blocks='2' threads='128' work='128' span='1'>\n"
            "<access words='4096' array='D'/>\n</kernel>\n"
            "<edge from='c' to='r'/>\n",
            &p, &inst, &t);
    expect_s(t.kernels[1].exec_seconds, l2_exec(0, mib4), "after the copy");
    l2_done(p, inst, &t);

    /* Without an L2 of its own capacity (l2_bytes 0) arrays change
     * nothing: every byte from DRAM, as the shorthand costs it. */
    char text[4096];
    snprintf(text, sizeof text,
             "<program name='l2'>\n" ACCESS_MACHINE
             "<array name='D' bytes='4*2^20'/>\n"
             "<kernel id='k' repeat='2' blocks='2' threads='128' work='128'"
             " span='1'>\n<access words='4096' array='D'/>\n</kernel>\n"
             "</program>\n");
    time_text(text, "l2.xml", &p, &inst, &t);
    expect_s(t.kernels[0].exec_seconds, 2 * mib4 / 100 / 1e6, "no L2");
    l2_done(p, inst, &t);
}

/* Data-dependent work (taken: the share of the threads, or of a
 * thread's iterations, that do an access), on the machine of
 * access_patterns_by_hand: the words move as the lanes that do them
 * touch sectors. */
Test(time, access_taken_by_hand)
{
    /* half the threads, stride 1: a 32-byte sector holds 8 lanes' words
     * and moves unless all 8 skip: 4 sectors · 32 B · (1 - 0.5^8) / 32 */
    expect_access("<access words='40' taken='0.5'/>",
                  bytes_exec(40 * 4 * (1 - pow(0.5, 8))),
                  MMM_TIME_TERM_BANDWIDTH);
    /* stride 8: every lane its own sector, half of them move */
    expect_access("<access words='10' stride='8' taken='0.5'/>",
                  bytes_exec(10 * 16.0), MMM_TIME_TERM_BANDWIDTH);
    /* a store by 5 % of the threads (Floyd-Warshall's: a path shortens):
     * 4 sectors · 32 B · (1 - 0.95^8) / 32 per word */
    expect_access("<access words='200' mode='write' taken='0.05'/>",
                  bytes_exec(200 * 4 * (1 - pow(0.95, 8))),
                  MMM_TIME_TERM_BANDWIDTH);
    /* a broadcast word: the warp reads it unless all 32 lanes skip */
    expect_access("<access words='100' pattern='broadcast' taken='0.25'/>",
                  bytes_exec(100 * (1 - pow(0.75, 32))),
                  MMM_TIME_TERM_BANDWIDTH);
    /* random words: each costs its bytes, so half the words half */
    expect_access("<access words='20' pattern='random' region='4e6' taken='0.5'/>",
                  bytes_exec(725), MMM_TIME_TERM_BANDWIDTH);
    /* atomics on one word: a quarter of 2 · 128 threads, 3 cycles apart */
    expect_access("<access words='1' pattern='atomic' taken='0.25'/>",
                  64 * 3 / 1e6, MMM_TIME_TERM_ATOMICS);
    /* taken = 1 is no access skipped: the coalesced formula of stride 4 */
    expect_access("<access words='10' stride='4' taken='1'/>", bytes_exec(160),
                  MMM_TIME_TERM_BANDWIDTH);
}

/* The MMM counts the words of an access as at most (taken changes no
 * measure), and taken is a share. */
Test(time, access_taken_checked)
{
    char text[2048];
    mmm_program *p;
    mmm_instance *inst;
    mmm_error err;
    snprintf(text, sizeof text,
             "<program name='a'>\n<param name='U' value='1'/>\n"
             "<param name='q' value='0.1'/>\n"
             "<kernel id='k' blocks='2' threads='128' work='1' span='1'>\n"
             "<access words='3' taken='q'/>\n"
             "<access words='1' mode='write' taken='q'/>\n"
             "</kernel>\n</program>\n");
    load_text(text, "a.xml", &p, &inst);
    cr_assert_eq(mmm_instance_eval(inst, NULL, 0, &err), 0, "%s", err.message);
    cr_expect_eq(inst->classes[0].reads, 3);
    cr_expect_eq(inst->classes[0].writes, 1);
    cr_expect_eq(inst->kernels[0].O, 2 * (3 + 1));
    mmm_override ov = {mmm_program_find_param(p, "q"), mmm_value_ratio(3, 2)};
    cr_expect_eq(mmm_instance_eval(inst, &ov, 1, &err), MMM_EINFEASIBLE);
    cr_expect_eq(err.line, 5);
    cr_expect(strstr(err.message, "taken of an <access> of kernel 'k' = 1.5 "
                                  "is not a share from 0 to 1") != NULL,
              "%s", err.message);
    mmm_instance_free(inst);
    mmm_program_free(p);
}
