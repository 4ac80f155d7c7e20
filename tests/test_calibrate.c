/* test_calibrate.c: the analysis of raw microbenchmark samples into machine
 * constants, the machine file of a calibration read back through the
 * ordinary machine loader, and the calibrate command where no GPU is.
 * No GPU is needed: the raw samples are synthesized from chosen constants,
 * and every expected value is computed here from those constants (or by
 * hand), never taken from the tool's output. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mmm/mmm.h"
#include "time/time_inputs.h"
#include "mmm_run.h"
#include "tmpdir.h"
#include "slurp.h"

static int close_to(double a, double b, double tol)
{
    double s = fmax(fabs(a), fabs(b));
    return fabs(a - b) <= tol * s || s == 0;
}

/* ---- robust statistics ---- */

Test(calibrate, stat_odd_count)
{
    const double v[] = {5, 1, 3, 2, 4};
    mmm_calib_stat s;
    mmm_calib_stat_of(&s, v, 5);
    /* sorted 1 2 3 4 5: median 3, quartiles (type 7) at h = 1 and 3 */
    cr_expect_eq(s.n, 5);
    cr_expect_eq(s.median, 3);
    cr_expect_eq(s.q1, 2);
    cr_expect_eq(s.q3, 4);
    cr_expect_eq(s.min, 1);
    cr_expect_eq(s.max, 5);
    cr_expect_eq(s.mad, 1); /* |d| = 2 1 0 1 2 */
    cr_expect_eq(s.outliers, 0);
    cr_expect_eq(v[0], 5, "the input is not reordered");
}

Test(calibrate, stat_even_count_interpolates)
{
    const double v[] = {4, 1, 3, 2};
    mmm_calib_stat s;
    mmm_calib_stat_of(&s, v, 4);
    /* h = 3/4 for q1: 1 + 0.75 (2 - 1); h = 9/4 for q3: 3 + 0.25 (4 - 3) */
    cr_expect_eq(s.median, 2.5);
    cr_expect_eq(s.q1, 1.75);
    cr_expect_eq(s.q3, 3.25);
    cr_expect_eq(s.mad, 1); /* |d| = 1.5 .5 .5 1.5 */
}

Test(calibrate, stat_outlier_does_not_move_median)
{
    const double v[] = {2, 100, 1, 3, 4};
    mmm_calib_stat s;
    mmm_calib_stat_of(&s, v, 5);
    /* q1 2, q3 4, IQR 2: the upper fence is 7, so 100 is an outlier */
    cr_expect_eq(s.median, 3);
    cr_expect_eq(s.mad, 1); /* |d| = 2 1 0 1 97 */
    cr_expect_eq(s.outliers, 1);
    cr_expect_eq(s.max, 100);
}

Test(calibrate, stat_one_sample)
{
    const double v[] = {7.5};
    mmm_calib_stat s;
    mmm_calib_stat_of(&s, v, 1);
    cr_expect_eq(s.median, 7.5);
    cr_expect_eq(s.q1, 7.5);
    cr_expect_eq(s.q3, 7.5);
    cr_expect_eq(s.mad, 0);
}

Test(calibrate, theil_sen_ignores_a_gross_outlier)
{
    /* y = 7 + 3x except the last point: 10 of the 15 pairwise slopes are
     * exactly 3, so the median slope is 3 and the median residual 7. */
    const double x[] = {1, 2, 4, 8, 16, 32};
    double y[6], a = 0, b = 0;
    int i;
    for (i = 0; i < 6; i++)
        y[i] = 7 + 3 * x[i];
    y[5] = 1000;
    cr_assert_eq(mmm_calib_theil_sen(&a, &b, x, y, 6), 0);
    cr_expect_eq(b, 3);
    cr_expect_eq(a, 7);
}

Test(calibrate, theil_sen_needs_two_distinct_x)
{
    const double x[] = {4, 4, 4}, y[] = {1, 2, 3};
    double a, b;
    cr_expect_eq(mmm_calib_theil_sen(&a, &b, x, y, 3), -1);
}

/* ---- the analysis ---- */

/* Chosen constants of a synthetic machine. */
#define F 1.5e9        /* SM clock, Hz */
#define SMS 100
#define LAUNCH 3.0e-6  /* seconds per stream launch */
#define BLOCK_CYCLES 150.0 /* cycles per block start on an SM */
#define ATOMIC_CYCLES 3.5  /* cycles between two atomics on one word */
#define GRAPH 1.0e-6
#define LOAD 600.0     /* cycles */
#define SYNC0 10.0     /* barrier: SYNC0 + SYNC1 * warps cycles */
#define SYNC1 2.5
#define COPY_BYTES 1.0e9
#define ROUNDS 32
#define ISSUE_INSTR 1048576.0

static const double bw[MMM_CALIB_NBLOCK] = {2.0e12, 2.4e12, 2.2e12, 1.9e12};
static const double ulat[MMM_CALIB_NBLOCK] = {800, 820, 900, 1000};
static const double ubw[MMM_CALIB_NBLOCK] = {1100, 1150, 1200, 1300};
/* Gathered words: regions of 16, 64, 128, 256 and 2048 MiB; a word costs
 * GHIT bytes of the best copy bandwidth (2.4e12 B/s) in the first, GMISS
 * in the last, and between h GHIT + (1 - h) GMISS with h = GL2 / region,
 * so that every middle region gives back GL2 exactly. */
#define GHIT 20.0
#define GMISS 90.0
#define GL2 (30.0 * 1048576)
static const double gregion_mib[MMM_CALIB_NGATHER] = {16, 64, 128, 256, 2048};
static double gcost(int i)
{
    double h = i == 0 ? 1 : i == MMM_CALIB_NGATHER - 1
                                ? 0 : GL2 / (gregion_mib[i] * 1048576);
    return h * GHIT + (1 - h) * GMISS;
}
static const int resident[MMM_CALIB_NBLOCK] = {16, 8, 4, 2};
/* Copies and sets (d2d, h2d, d2h, set): a call of b bytes takes GRAPH (the
 * gap between two nodes of the replayed graph) + xfixed + b / xrate
 * seconds, at 4 KiB, 16 MiB and 256 MiB. */
static const double xrate[MMM_CALIB_NXFERKIND] = {1.25e12, 5.5e10, 5.2e10,
                                                  2.6e12};
static const double xfixed[MMM_CALIB_NXFERKIND] = {1.5e-6, 2.5e-6, 3.0e-6,
                                                   1.0e-6};
static const int64_t xbytes[MMM_CALIB_NTRANSFER] = {4096, 16 << 20,
                                                   (int64_t)256 << 20};
/* The L2 (40 MiB as the device reports it): arrays of 10 to 320 MiB read
 * twice; the second read, from an L2 that serves L2RATE bytes/s and of
 * capacity L2CAP (a pass over C < S < 2C bytes finds 2C - S of them, over
 * 2C or more none), with DRAM reading READRATE bytes/s alone, takes
 * max(miss / READRATE, S / L2RATE) seconds. */
#define L2RATE 8.0e12
#define L2CAP (32.0 * 1048576)
#define READRATE 3.0e12
static double l2_read_s(double size)
{
    double miss = size <= L2CAP ? 0 : size >= 2 * L2CAP ? size : 2 * (size - L2CAP);
    return fmax(miss / READRATE, size / L2RATE);
}

/* n samples: m exactly, then m(1 +- k eps) in pairs, so the median is m. */
static void fill(mmm_calib_series *s, double m, int n)
{
    int k;
    s->n = n;
    s->v[0] = m;
    for (k = 1; k < n; k++)
        s->v[k] = m * (1 + (k % 2 ? 1 : -1) * 0.01 * ((k + 1) / 2));
}

static void synth(mmm_calib_raw *r)
{
    int i;
    memset(r, 0, sizeof *r);
    snprintf(r->dev.name, sizeof r->dev.name, "Test GPU <A&B> --x-- \"q\"");
    r->dev.cc_major = 9;
    r->dev.cc_minor = 0;
    r->dev.sms = SMS;
    r->dev.clock_hz = 1.6e9; /* reported; the measured one is F */
    r->dev.mem_clock_hz = 2.0e9;
    r->dev.bus_width_bits = 4096;
    r->dev.l2_bytes = 40 << 20;
    r->dev.global_bytes = 1ll << 34;
    r->dev.sm_shared_bytes = 233472;
    r->dev.block_shared_bytes = 49152;
    r->dev.block_shared_optin_bytes = 232448;
    r->dev.reserved_shared_bytes = 1024;
    r->dev.sm_registers = 65536;
    r->dev.sm_threads = 2048;
    r->dev.sm_blocks = 32;
    r->dev.block_threads = 1024;
    r->dev.warp_size = 32;
    r->dev.shared_granule_bytes = 128;
    r->dev.register_granule = 256;
    r->dev.register_partitions = 4;
    fill(&r->clock_hz, F, 9);
    r->launch_chain = 1000;
    fill(&r->launch_stream_s, LAUNCH, 9);
    fill(&r->launch_own_stream_s, LAUNCH * 1.1, 9);
    fill(&r->launch_graph_s, GRAPH, 9);
    /* 150 cycles per block per SM: whole-GPU seconds per block =
     * 150 / (F * SMS) */
    r->block_threads = 64;
    r->block_grid[0] = 32 * SMS * 16;
    r->block_grid[1] = 32 * SMS * 64;
    fill(&r->block_s, BLOCK_CYCLES / (F * SMS), 9);
    r->atomic_grid[0] = 32 * SMS * 16;
    r->atomic_grid[1] = 32 * SMS * 64;
    fill(&r->atomic_s, ATOMIC_CYCLES / F, 9);
    /* atomics beside traffic: 2^17 / w blocks, atomics alone A = blocks x
     * ATOMIC_CYCLES / F, reads alone M = 0.1 ms; the launch with both
     * T = max(A, M) + x min(A, M), x = 0.2, 0.3, 0.3, 0.5 */
    for (i = 0; i < MMM_CALIB_NATOMSTREAM; i++) {
        static const double x[MMM_CALIB_NATOMSTREAM] = {0.2, 0.3, 0.3, 0.5};
        r->atomic_stream_blocks[i] = ((int64_t)1 << 17) / mmm_calib_atomic_stream_words[i];
        double A = (double)r->atomic_stream_blocks[i] * ATOMIC_CYCLES / F, M = 1e-4;
        fill(&r->plain_stream_s[i], M, 7);
        fill(&r->atomic_stream_s[i], fmax(A, M) + x[i] * fmin(A, M), 7);
    }
    r->issue_warp_instructions = ISSUE_INSTR;
    /* 3.5 warp-instructions per SM cycle */
    fill(&r->issue_s, ISSUE_INSTR / (3.5 * F * SMS), 5);
    r->chase_region_bytes = 1 << 29;
    r->chase_steps = 32768;
    fill(&r->load_cycles, LOAD, 7);
    fill(&r->l2_load_cycles, 250, 7);
    fill(&r->shared_cycles, 30, 7);
    for (i = 0; i < MMM_CALIB_NOPS; i++)
        fill(&r->op_cycles[i], 4.0 * (i + 1), 5);
    for (i = 0; i < MMM_CALIB_NSYNC; i++)
        fill(&r->sync_cycles[i],
             SYNC0 + SYNC1 * ceil(mmm_calib_sync_sizes[i] / 32.0), 5);
    r->copy_bytes = (int64_t)COPY_BYTES;
    fill(&r->memcpy_s, COPY_BYTES / 2.5e12, 5);
    r->u_rounds = ROUNDS;
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        /* seconds = bytes / bandwidth (the median sample is exact) */
        fill(&r->copy_s[i], COPY_BYTES / bw[i], 9);
        fill(&r->u_latency_cycles[i], ulat[i], 9);
        r->u_resident[i] = resident[i];
        r->u_blocks[i] = 8ll * resident[i] * SMS; /* 8 waves */
        /* 8 waves of ROUNDS rounds of ubw[i] cycles each */
        fill(&r->u_bandwidth_s[i], 8.0 * ROUNDS * ubw[i] / F, 9);
    }
    r->gather_words = (int64_t)1 << 25;
    for (i = 0; i < MMM_CALIB_NGATHER; i++) {
        r->gather_region_bytes[i] = (int64_t)(gregion_mib[i] * 1048576);
        fill(&r->gather_s[i], gcost(i) / 2.4e12, 7);
        fill(&r->scatter_s[i], (i + 1) * 50.0 / 2.4e12, 7); /* 50 .. 250 */
    }
    for (i = 0; i < MMM_CALIB_NL2; i++) {
        r->l2_array_bytes[i] = r->dev.l2_bytes / 8 * mmm_calib_l2_eighths[i];
        fill(&r->l2_read_s[i], l2_read_s((double)r->l2_array_bytes[i]), 7);
    }
    r->transfer_chain = 16;
    for (i = 0; i < MMM_CALIB_NTRANSFER; i++) {
        r->transfer_bytes[i] = xbytes[i];
        for (int k = 0; k < MMM_CALIB_NXFERKIND; k++)
            fill(&r->transfer_s[k][i],
                 GRAPH + xfixed[k] + (double)xbytes[i] / xrate[k], 7);
    }
}

Test(calibrate, analysis_recovers_chosen_constants)
{
    mmm_calib_raw *r = calloc(1, sizeof *r);
    mmm_calib c;
    mmm_error err;
    int i;
    cr_assert_not_null(r);
    synth(r);
    cr_assert_eq(mmm_calib_analyze(&c, r, &err), 0, "%s", err.message);
    cr_expect(close_to(c.clock_hz.median, F, 1e-12));
    cr_expect(close_to(c.launch_stream_s.median, LAUNCH, 1e-12));
    cr_expect(close_to(c.launch_own_stream_s.median, LAUNCH * 1.1, 1e-12));
    cr_expect(close_to(c.launch_graph_s.median, GRAPH, 1e-12));
    cr_expect(close_to(c.block_cycles.median, BLOCK_CYCLES, 1e-12));
    /* whole-GPU seconds per atomic x clock, not x p: one word */
    cr_expect(close_to(c.atomic_cycles.median, ATOMIC_CYCLES, 1e-12));
    /* atomics beside traffic: each launch's share, their median */
    cr_expect(close_to(c.atomic_exposed_by_launch[0], 0.2, 1e-9), "%.17g",
              c.atomic_exposed_by_launch[0]);
    cr_expect(close_to(c.atomic_exposed_by_launch[3], 0.5, 1e-9));
    cr_expect(close_to(c.atomic_exposed, 0.3, 1e-9), "%.17g", c.atomic_exposed);
    cr_expect(c.block_threads == 64);
    cr_expect(close_to(c.issue_per_cycle.median, 3.5, 1e-12));
    cr_expect(close_to(c.load_cycles.median, LOAD, 1e-12));
    cr_expect(close_to(c.sync_base_cycles, SYNC0, 1e-12), "%g", c.sync_base_cycles);
    cr_expect(close_to(c.sync_per_warp_cycles, SYNC1, 1e-12), "%g",
              c.sync_per_warp_cycles);
    /* the best block size is 256 (2.4e12 B/s) */
    cr_expect(close_to(c.bandwidth_bytes_per_s, 2.4e12, 1e-12));
    cr_expect_eq(c.bandwidth_block, 256);
    cr_expect(close_to(c.bandwidth_bytes_per_cycle_per_sm, 2.4e12 / F / SMS, 1e-12));
    cr_expect(close_to(c.memcpy_bandwidth.median, 2.5e12, 1e-12));
    /* 57.1875, 73.59375, 81.796875 bytes between: each gives 30 MiB */
    cr_expect(close_to(c.gather_word_bytes[1].median, 57.1875, 1e-12), "%.17g",
              c.gather_word_bytes[1].median);
    cr_expect(close_to(c.gather_hit_bytes, GHIT, 1e-12));
    cr_expect(close_to(c.gather_miss_bytes, GMISS, 1e-12));
    cr_expect(close_to(c.gather_l2_bytes, GL2, 1e-12), "%.17g", c.gather_l2_bytes);
    cr_expect(close_to(c.scatter_hit_bytes, 50, 1e-12));
    cr_expect(close_to(c.scatter_miss_bytes, 250, 1e-12));
    cr_expect(close_to(c.scatter_word_bytes[2].median, 150, 1e-12));
    cr_expect_eq(c.gather_region_bytes[4], (int64_t)2048 * 1048576);
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        cr_expect(close_to(c.bandwidth[i].median, bw[i], 1e-12));
        cr_expect(close_to(c.u_latency[i].median, ulat[i], 1e-12));
        cr_expect(close_to(c.u_bandwidth[i].median, ubw[i], 1e-12), "%d: %g",
                  mmm_calib_block_sizes[i], c.u_bandwidth[i].median);
        cr_expect_eq(c.u_resident[i], resident[i]);
    }
    /* Little's law: 600 cycles x (2.4e12 / 1.5e9 / 100 = 16 B per cycle) / 4 */
    cr_expect(close_to(c.saturation_words_per_sm, 600.0 * 16 / 4, 1e-12));
    /* latency_exposed: a round's transfer is resident x threads x 4 B over
     * 16 B per cycle per SM = 512 cycles at every block size, shorter than
     * each U_latency; (U_bandwidth - U_latency) / 512 is 300/512, 330/512,
     * 300/512, 300/512: the median 300/512. */
    cr_expect(close_to(c.latency_exposed, 300.0 / 512, 1e-12), "%.17g",
              c.latency_exposed);
    /* the L2: the smallest array's rate; of the arrays below twice the
     * 40 MiB the device reports, 60 MiB is read below 0.9 of it and gives
     * back 32 MiB (60 - 19.57 us x 3e12 / 2); 40 MiB is not (it misses 2
     * x 8 MiB: 40/16 x READRATE = 7.5e12 bytes/s, above 0.9 x 8e12) */
    cr_expect(close_to(c.l2_bytes_per_s, L2RATE, 1e-12), "%.17g", c.l2_bytes_per_s);
    cr_expect(close_to(c.l2_capacity_bytes, L2CAP, 1e-9), "%.17g",
              c.l2_capacity_bytes);
    cr_expect(close_to(c.l2_read_bytes_per_s[3].median, 40.0 / 16 * READRATE, 1e-12));
    /* reads alone: the largest array's re-read (64 eighths of the L2, 8 x
     * its 40 MiB = 320 MiB, more than 2 L2CAP: all from DRAM) */
    cr_expect(close_to(c.read_bytes_per_s, READRATE, 1e-12), "%.17g", c.read_bytes_per_s);
    /* copies: the rate from the two extreme sizes, the fixed time beyond
     * the graph's gap */
    for (i = 0; i < MMM_CALIB_NXFERKIND; i++) {
        cr_expect(close_to(c.transfer_bytes_per_s[i], xrate[i], 1e-9), "%d: %.17g",
                  i, c.transfer_bytes_per_s[i]);
        cr_expect(close_to(c.transfer_fixed_s[i], xfixed[i], 1e-6), "%d: %.17g",
                  i, c.transfer_fixed_s[i]);
    }
    free(r);
}

Test(calibrate, analysis_rejects_bad_samples)
{
    mmm_calib_raw *r = calloc(1, sizeof *r);
    mmm_calib c;
    mmm_error err;
    int i;
    cr_assert_not_null(r);

    synth(r);
    r->load_cycles.n = 0;
    mmm_error_clear(&err);
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "load_cycles") != NULL, "%s", err.message);

    synth(r);
    r->copy_s[2].v[3] = NAN;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "copy_s[512]") != NULL, "%s", err.message);

    synth(r);
    r->sync_cycles[0].v[0] = -1;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "sync_cycles[32]") != NULL, "%s", err.message);

    synth(r);
    r->dev.sms = 0;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "sms") != NULL, "%s", err.message);

    synth(r);
    r->u_resident[1] = 0;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);

    synth(r);
    r->atomic_s.n = 0;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "atomic_s") != NULL, "%s", err.message);

    synth(r);
    r->gather_s[2].n = 0;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "gather_s[2]") != NULL, "%s", err.message);

    synth(r);
    r->gather_region_bytes[3] = r->gather_region_bytes[2];
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "gather regions") != NULL, "%s", err.message);

    synth(r);
    r->scatter_s[4].v[0] = -1;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "scatter_s[4]") != NULL, "%s", err.message);

    synth(r);
    r->gather_words = 0;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "gather_words") != NULL, "%s", err.message);

    /* a GPU whose far region costs no more than its near one: every
     * gathered word is found, as far as the regions measured reach */
    synth(r);
    for (i = 0; i < MMM_CALIB_NGATHER; i++)
        fill(&r->gather_s[i], GHIT / 2.4e12, 7);
    cr_assert_eq(mmm_calib_analyze(&c, r, &err), 0, "%s", err.message);
    cr_expect(close_to(c.gather_l2_bytes, 2048.0 * 1048576, 1e-12));

    synth(r);
    r->atomic_grid[1] = r->atomic_grid[0];
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "atomic launches") != NULL, "%s",
              err.message);

    synth(r);
    r->transfer_s[1][2].n = 0;
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "transfer_s[h2d][2]") != NULL, "%s",
              err.message);

    synth(r);
    r->transfer_bytes[1] = r->transfer_bytes[0];
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "copy sizes") != NULL, "%s", err.message);

    synth(r);
    r->l2_array_bytes[2] = r->l2_array_bytes[1];
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "L2 arrays") != NULL, "%s", err.message);

    synth(r); /* every array at the L2's rate: the size the device reports */
    for (i = 0; i < MMM_CALIB_NL2; i++)
        fill(&r->l2_read_s[i], (double)r->l2_array_bytes[i] / L2RATE, 7);
    cr_assert_eq(mmm_calib_analyze(&c, r, &err), 0, "%s", err.message);
    cr_expect(close_to(c.l2_capacity_bytes, 40.0 * 1048576, 1e-12));

    synth(r); /* 256 MiB as fast as 4 KiB: no rate */
    fill(&r->transfer_s[3][2], r->transfer_s[3][0].v[0], 7);
    cr_expect_eq(mmm_calib_analyze(&c, r, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "set calls") != NULL, "%s", err.message);
    free(r);
}

/* ---- the machine file ---- */

static const mmm_machine_param *find(const mmm_machine *m, const char *name)
{
    size_t i;
    for (i = 0; i < m->nparams; i++)
        if (!strcmp(m->params[i].name, name))
            return &m->params[i];
    return NULL;
}

Test(calibrate, machine_file_round_trip)
{
    mmm_calib_raw *r = calloc(1, sizeof *r);
    mmm_calib c;
    mmm_calib_constants k;
    mmm_machine *m = NULL;
    mmm_error err;
    char dir[256], path[512], *xml = NULL;
    size_t len = 0;
    const mmm_machine_param *mp;
    int i;
    FILE *f;

    cr_assert_not_null(r);
    synth(r);
    cr_assert_eq(mmm_calib_analyze(&c, r, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_calib_machine_xml(&xml, &len, &c, &err), 0, "%s", err.message);
    cr_assert_eq(strlen(xml), len);
    mmm_tmpdir_make(dir, sizeof dir, "mmm_calib");
    snprintf(path, sizeof path, "%s/m.xml", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    cr_assert_eq(fwrite(xml, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    /* The ordinary loader, schema included. */
    cr_assert_eq(mmm_machine_load_file(&m, path, NULL, &err), 0, "%s:%ld: %s\n%s",
                 path, err.line, err.message, xml);
    cr_expect_str_eq(m->name, "Test GPU _A_B_ --x-- _q_ (calibrated)");

    /* Counts are exact integers. */
    cr_assert_not_null(mp = find(m, "p"));
    cr_expect(mp->value.exact && mp->value.num == SMS && mp->value.den == 1);
    cr_assert_not_null(mp = find(m, "sm_threads"));
    cr_expect(mp->value.exact && mp->value.num == 2048);
    cr_assert_not_null(mp = find(m, "Z"));
    cr_expect(mp->value.exact && mp->value.num == 233472 / 4);
    cr_assert_not_null(mp = find(m, "X")); /* 2048 threads / 128 lanes */
    cr_expect(mp->value.exact && mp->value.num == 16 && mp->value.den == 1);
    cr_assert_not_null(mp = find(m, "P"));
    cr_expect(mp->value.exact && mp->value.num == SMS * 128);
    cr_assert_not_null(mp = find(m, "Ztotal"));
    cr_expect(mp->value.exact && mp->value.num == SMS * (65536 + 233472 / 4));

    cr_assert_eq(mmm_calib_constants_from_machine(&k, m, &err), 0, "%s", err.message);
    /* 10 significant digits are written */
    cr_expect(close_to(k.clock_hz, F, 1e-9));
    cr_expect(close_to(k.launch_s, LAUNCH, 1e-9));
    cr_expect(close_to(k.launch_graph_s, GRAPH, 1e-9));
    cr_expect(close_to(k.block_cycles, BLOCK_CYCLES, 1e-9));
    cr_expect(close_to(k.atomic_cycles, ATOMIC_CYCLES, 1e-9));
    cr_expect(close_to(k.atomic_exposed, 0.3, 1e-9), "%.17g", k.atomic_exposed);
    cr_expect(close_to(k.gather_hit_bytes, GHIT, 1e-9));
    cr_expect(close_to(k.gather_miss_bytes, GMISS, 1e-9));
    cr_expect(close_to(k.gather_l2_bytes, GL2, 1e-9));
    cr_expect(close_to(k.scatter_hit_bytes, 50, 1e-9));
    cr_expect(close_to(k.scatter_miss_bytes, 250, 1e-9));
    cr_expect(close_to(k.latency_exposed, 300.0 / 512, 1e-9));
    cr_expect(close_to(k.l2_bytes, L2CAP, 1e-9), "%.17g", k.l2_bytes);
    cr_expect(close_to(k.l2_bytes_per_cycle, L2RATE / F, 1e-9));
    cr_expect(close_to(k.read_bytes_per_cycle, READRATE / F, 1e-9), "%.17g",
              k.read_bytes_per_cycle);
    cr_expect(close_to(k.copy_d2d_bytes_per_s, xrate[0], 1e-9));
    cr_expect(close_to(k.copy_h2d_bytes_per_s, xrate[1], 1e-9));
    cr_expect(close_to(k.copy_d2h_bytes_per_s, xrate[2], 1e-9));
    cr_expect(close_to(k.set_bytes_per_s, xrate[3], 1e-9));
    /* each kind's own fixed time */
    cr_expect(close_to(k.copy_s, xfixed[0], 1e-6), "%.17g", k.copy_s);
    cr_expect(close_to(k.copy_host_s, xfixed[1], 1e-6), "%.17g", k.copy_host_s);
    cr_expect(close_to(k.copy_d2h_s, xfixed[2], 1e-6), "%.17g", k.copy_d2h_s);
    cr_expect(close_to(k.set_s, xfixed[3], 1e-6), "%.17g", k.set_s);
    cr_expect(close_to(k.issue_per_cycle, 3.5, 1e-9));
    cr_expect(close_to(k.mem_latency_cycles, LOAD, 1e-9));
    cr_expect(close_to(k.L, LOAD, 1e-9));
    cr_expect(close_to(k.sync_cycles, SYNC0, 1e-9));
    cr_expect(close_to(k.sync_cycles_per_warp, SYNC1, 1e-9));
    cr_expect(close_to(k.bandwidth_bytes_per_cycle, 2.4e12 / F, 1e-9));
    cr_expect(close_to(k.op_cycles, 4.0 * (MMM_CALIB_OP_FP32_FMA + 1), 1e-9));
    for (i = 0; i < MMM_CALIB_NOPS; i++)
        cr_expect(close_to(k.op_cycles_of[i], 4.0 * (i + 1), 1e-9));
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        cr_expect(close_to(k.U_latency[i], ulat[i], 1e-9));
        cr_expect(close_to(k.U_bandwidth[i], ubw[i], 1e-9));
    }
    cr_expect(close_to(k.U, ulat[1], 1e-9), "U is U_latency_256");
    cr_expect_eq(k.p, SMS);
    cr_expect_eq(k.warp_size, 32);
    cr_expect_eq(k.word_bytes, 4);
    cr_expect_eq(k.block_threads, 1024);
    cr_expect_eq(k.shared_reserved_bytes, 1024);
    cr_expect_eq(k.shared_granule_bytes, 128);
    cr_expect_eq(k.register_granule, 256);
    cr_expect_eq(k.register_partitions, 4);
    mmm_machine_free(m);
    mmm_tmpdir_remove(dir);
    free(xml);
    free(r);
}

/* The machine file `mmm calibrate` writes has every constant of the time
 * model's table (src/time/time_inputs.h) that the table says calibrate
 * measures, and none of the others (a full calibration: the conditional
 * ones are all known). */
Test(calibrate, writes_the_calibrated_rows_of_the_table)
{
    mmm_calib_raw *r = calloc(1, sizeof *r);
    mmm_calib c;
    mmm_machine *m = NULL;
    mmm_error err;
    char dir[256], path[512], *xml = NULL;
    size_t len = 0;
    FILE *f;

    cr_assert_not_null(r);
    synth(r);
    cr_assert_eq(mmm_calib_analyze(&c, r, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_calib_machine_xml(&xml, &len, &c, &err), 0, "%s",
                 err.message);
    mmm_tmpdir_make(dir, sizeof dir, "mmm_calib_rows");
    snprintf(path, sizeof path, "%s/m.xml", dir);
    cr_assert_not_null(f = fopen(path, "w"));
    cr_assert_eq(fwrite(xml, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(mmm_machine_load_file(&m, path, NULL, &err), 0, "%s",
                 err.message);
    for (int i = 0; i < MMM__TI_N; i++) {
        const char *name = mmm__time_input_name(i);
        int calibrated = (mmm__time_input_flags(i) & TI_CALIBRATED) != 0;
        cr_expect_eq(find(m, name) != NULL, calibrated,
                     "%s: %s by the table, %s by the file", name,
                     calibrated ? "calibrated" : "not calibrated",
                     find(m, name) ? "written" : "not written");
    }
    mmm_machine_free(m);
    mmm_tmpdir_remove(dir);
    free(xml);
    free(r);
}

Test(calibrate, constants_need_a_calibrated_file)
{
    mmm_machine *m = NULL;
    mmm_calib_constants k;
    mmm_error err;
    char path[1024];
    snprintf(path, sizeof path, "%s/machines/gtx480.xml", MMM_DAGS_DIR);
    cr_assert_eq(mmm_machine_load_file(&m, path, NULL, &err), 0, "%s", err.message);
    cr_expect_eq(mmm_calib_constants_from_machine(&k, m, &err), MMM_EINPUT);
    cr_expect(strstr(err.message, "no parameter") != NULL, "%s", err.message);
    mmm_machine_free(m);
}

/* The number after "KEY": inside the "measured" object of a JSON text. */
static double json_measured(const char *json, const char *key)
{
    char pat[128];
    const char *m = strstr(json, "\"measured\"");
    const char *p;
    cr_assert_not_null(m, "no \"measured\" object");
    snprintf(pat, sizeof pat, "\"%s\": ", key);
    p = strstr(m, pat);
    cr_assert_not_null(p, "no key %s", key);
    return strtod(p + strlen(pat), NULL);
}

/* The committed H100 files: the machine file loads, holds every name the
 * reader wants, and the figures of its JSON twin (both from one run). */
Test(calibrate, committed_h100_files_agree)
{
    mmm_machine *m = NULL;
    mmm_calib_constants k;
    mmm_error err;
    char path[1024], *json;
    snprintf(path, sizeof path, "%s/machines/h100-calibrated.xml", MMM_DAGS_DIR);
    cr_assert_eq(mmm_machine_load_file(&m, path, NULL, &err), 0, "%s", err.message);
    cr_assert_eq(mmm_calib_constants_from_machine(&k, m, &err), 0, "%s", err.message);
    snprintf(path, sizeof path, "%s/machines/h100-calibrated.json", MMM_DAGS_DIR);
    json = slurp(path, NULL);
    cr_assert(json[0], "%s is empty", path);
    cr_expect(close_to(k.mem_latency_cycles, json_measured(json, "load_latency_cycles"), 1e-9));
    cr_expect(close_to(k.launch_s * 1e6, json_measured(json, "launch_stream_us"), 1e-9));
    cr_expect(close_to(k.launch_graph_s * 1e6, json_measured(json, "launch_graph_us"), 1e-9));
    cr_expect(close_to(k.clock_hz, json_measured(json, "clock_hz"), 1e-9));
    cr_expect(close_to(k.issue_per_cycle, json_measured(json, "issue_per_cycle"), 1e-9));
    cr_expect(close_to(k.block_cycles, json_measured(json, "block_cycles"), 1e-9));
    cr_expect(close_to(k.latency_exposed, json_measured(json, "latency_exposed"), 1e-9));
    cr_expect(close_to(k.bandwidth_bytes_per_cycle * k.clock_hz,
                       json_measured(json, "bandwidth_bytes_per_s"), 1e-8));
    cr_expect(close_to(k.sync_cycles_per_warp,
                       json_measured(json, "sync_cycles_per_warp"), 1e-9));
    cr_expect_eq(k.p, 132);
    cr_expect_eq(k.sm_threads, 2048);
    free(json);
    mmm_machine_free(m);
}

/* ---- the command ---- */

Test(calibrate, command_help_and_usage)
{
    mmm_run_result r;
    const char *help[] = {"calibrate", "--help", NULL};
    const char *bad[] = {"calibrate", "--format", "csv", NULL};
    const char *extra[] = {"calibrate", "file.xml", NULL};
    mmm_run(&r, help, NULL, &MMM_RUN_LIMITS_DEFAULT);
    cr_expect(r.exited && r.status == 0);
    cr_expect(strstr(r.out, "--quick") && strstr(r.out, "--device"), "%s", r.out);
    mmm_run_dispose(&r);
    mmm_run(&r, bad, NULL, &MMM_RUN_LIMITS_DEFAULT);
    cr_expect(r.exited && r.status == 2, "%d", r.status);
    mmm_run_dispose(&r);
    mmm_run(&r, extra, NULL, &MMM_RUN_LIMITS_DEFAULT);
    cr_expect(r.exited && r.status == 2, "%d", r.status);
    mmm_run_dispose(&r);
}

/* Without a GPU (built without CUDA, or with CUDA on a machine without a
 * usable device) the command fails with one error line and writes nothing. */
Test(calibrate, command_without_gpu_fails_cleanly)
{
    mmm_run_result r;
    char dir[256], out[512];
    struct stat st;
    const char *argv[] = {"calibrate", "--quick", "--device", "1023", "-o", out, NULL};
    mmm_tmpdir_make(dir, sizeof dir, "mmm_calib_cmd");
    snprintf(out, sizeof out, "%s/m.xml", dir);
    mmm_run(&r, argv, NULL, &MMM_RUN_LIMITS_DEFAULT);
    cr_expect(r.exited && r.status == 1, "status %d: %s", r.status, r.err);
    cr_expect(strncmp(r.err, "mmm calibrate: error: ", 22) == 0, "%s", r.err);
    cr_expect(strchr(r.err, '\n') == r.err + r.err_len - 1, "one line: %s", r.err);
    cr_expect(strstr(r.err, "without CUDA") || strstr(r.err, "CUDA device") ||
                  strstr(r.err, "no NVIDIA GPU or driver found"),
              "%s", r.err);
    cr_expect_eq(r.out_len, 0u);
    cr_expect_neq(stat(out, &st), 0, "no machine file is written");
    mmm_run_dispose(&r);
    mmm_tmpdir_remove(dir);
}
