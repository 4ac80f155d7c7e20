/*
 * calibrate.c: raw microbenchmark samples into machine constants, and the
 * machine file of a calibration (docs/calibrate.md).  Plain C: the GPU
 * module that takes the samples (cuda/calibrate.cu) is not part of the
 * library.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmm/calibrate.h"
#include "time/time_inputs.h"
#include "base/outfile.h"

const int mmm_calib_block_sizes[MMM_CALIB_NBLOCK] = {128, 256, 512, 1024};
const int mmm_calib_sync_sizes[MMM_CALIB_NSYNC] = {32, 64, 128, 256, 512, 1024};
const int mmm_calib_l2_eighths[MMM_CALIB_NL2] = {2, 4, 6, 8, 12, 16, 64};
const int mmm_calib_atomic_stream_words[MMM_CALIB_NATOMSTREAM] = {1, 2, 4, 8};

static const char *const op_names[MMM_CALIB_NOPS] = {
    "int32_add", "fp32_fma", "fp64_fma", "mulmod64", "mulmod64_rem"};

const char *mmm_calib_op_name(mmm_calib_op op)
{
    return (unsigned)op < MMM_CALIB_NOPS ? op_names[op] : "?";
}

/* ------------------------------------------------------------------ */
/* Robust statistics                                                   */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile of sorted x[0..n-1] by linear interpolation (R's type 7). */
static double quantile_sorted(const double *x, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return x[n - 1];
    return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

static double median_of(double *v, size_t n) /* sorts v */
{
    qsort(v, n, sizeof *v, cmp_double);
    return quantile_sorted(v, n, 0.5);
}

void mmm_calib_stat_of(mmm_calib_stat *out, const double *v, size_t n)
{
    double s[MMM_CALIB_MAX_SAMPLES], d[MMM_CALIB_MAX_SAMPLES];
    double iqr;
    size_t i;
    memset(out, 0, sizeof *out);
    if (n == 0)
        return;
    if (n > MMM_CALIB_MAX_SAMPLES)
        n = MMM_CALIB_MAX_SAMPLES;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    out->n = (int)n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = quantile_sorted(s, n, 0.5);
    out->q1 = quantile_sorted(s, n, 0.25);
    out->q3 = quantile_sorted(s, n, 0.75);
    for (i = 0; i < n; i++)
        d[i] = fabs(s[i] - out->median);
    out->mad = median_of(d, n);
    iqr = out->q3 - out->q1;
    for (i = 0; i < n; i++)
        if (s[i] < out->q1 - 1.5 * iqr || s[i] > out->q3 + 1.5 * iqr)
            out->outliers++;
}

int mmm_calib_theil_sen(double *a, double *b, const double *x,
                        const double *y, size_t n)
{
    double slopes[MMM_CALIB_MAX_SAMPLES * (MMM_CALIB_MAX_SAMPLES - 1) / 2];
    double res[MMM_CALIB_MAX_SAMPLES];
    size_t i, j, k = 0;
    if (n > MMM_CALIB_MAX_SAMPLES)
        n = MMM_CALIB_MAX_SAMPLES;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++)
            if (x[j] != x[i])
                slopes[k++] = (y[j] - y[i]) / (x[j] - x[i]);
    if (k == 0)
        return -1;
    *b = median_of(slopes, k);
    for (i = 0; i < n; i++)
        res[i] = y[i] - *b * x[i];
    *a = median_of(res, n);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Analysis                                                            */

static int check_series(const mmm_calib_series *s, const char *what,
                        mmm_error *err)
{
    int i;
    if (s->n < 1 || s->n > MMM_CALIB_MAX_SAMPLES)
        return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                             "calibration: %s has %d samples (1 to %d needed)",
                             what, s->n, MMM_CALIB_MAX_SAMPLES);
    for (i = 0; i < s->n; i++)
        if (!isfinite(s->v[i]) || s->v[i] <= 0)
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: sample %d of %s is %g, not a "
                                 "finite positive number", i + 1, what, s->v[i]);
    return 0;
}

static int check_device(const mmm_calib_device *d, mmm_error *err)
{
    const struct {
        const char *name;
        double v;
    } f[] = {
        {"sms", d->sms},
        {TI_NAME(CLOCK_HZ), d->clock_hz},
        {TI_NAME(SM_THREADS), d->sm_threads},
        {TI_NAME(SM_BLOCKS), d->sm_blocks},
        {TI_NAME(SM_SHARED_BYTES), (double)d->sm_shared_bytes},
        {TI_NAME(BLOCK_SHARED_BYTES), (double)d->block_shared_bytes},
        {TI_NAME(SM_REGISTERS), d->sm_registers},
        {TI_NAME(WARP_SIZE), d->warp_size},
    };
    size_t i;
    for (i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!(f[i].v > 0) || !isfinite(f[i].v))
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: device property %s is %g, not "
                                 "positive", f[i].name, f[i].v);
    return 0;
}

static void stat_series(mmm_calib_stat *out, const mmm_calib_series *s)
{
    mmm_calib_stat_of(out, s->v, (size_t)s->n);
}

/* The same for every sample times factor (seconds to cycles or bytes). */
static void stat_scaled(mmm_calib_stat *out, const mmm_calib_series *s,
                        double factor)
{
    double v[MMM_CALIB_MAX_SAMPLES];
    for (int k = 0; k < s->n; k++)
        v[k] = s->v[k] * factor;
    mmm_calib_stat_of(out, v, (size_t)s->n);
}

/* latency_exposed of the time model from the U kernel: a round of a wave
 * (every block slot busy) costs u_bandwidth cycles, where the model's two
 * terms are the round of one block alone (u_latency, its critical path)
 * and the transfer of the wave's words (resident blocks x threads x 4
 * bytes over the bandwidth per SM); the model adds latency_exposed of the
 * shorter to the longer, so e = (u_bandwidth - longer) / shorter, clamped
 * to [0, 1]; the median over the block sizes. */
static double exposed(const mmm_calib *c)
{
    double e[MMM_CALIB_NBLOCK];
    size_t n = 0;
    for (int i = 0; i < MMM_CALIB_NBLOCK; i++) {
        double lat = c->u_latency[i].median,
               bw = (double)c->u_resident[i] * mmm_calib_block_sizes[i] * 4.0 /
                    c->bandwidth_bytes_per_cycle_per_sm,
               lo = fmin(lat, bw), hi = fmax(lat, bw);
        if (!(lo > 0))
            continue;
        e[n++] = fmin(1, fmax(0, (c->u_bandwidth[i].median - hi) / lo));
    }
    if (n == 0)
        return 0;
    mmm_calib_stat st;
    mmm_calib_stat_of(&st, e, n);
    return st.median;
}

/* What a gathered word costs, in bytes of the copy bandwidth: each
 * region's seconds per word x bandwidth_bytes_per_s; the first region's
 * median is the time model's gather_hit_bytes, the last one's
 * gather_miss_bytes, and between, the share found in the L2,
 * h = (miss - cost) / (miss - hit), makes h x region an estimate of the
 * capacity gathered words find: gather_l2_bytes is their median. */
static void gather_costs(mmm_calib *out, const mmm_calib_raw *raw)
{
    double cap[MMM_CALIB_NGATHER];
    int i;
    for (i = 0; i < MMM_CALIB_NGATHER; i++) {
        stat_scaled(&out->gather_word_bytes[i], &raw->gather_s[i],
                    out->bandwidth_bytes_per_s);
        stat_scaled(&out->scatter_word_bytes[i], &raw->scatter_s[i],
                    out->bandwidth_bytes_per_s);
        out->gather_region_bytes[i] = raw->gather_region_bytes[i];
    }
    out->scatter_hit_bytes = out->scatter_word_bytes[0].median;
    out->scatter_miss_bytes =
        out->scatter_word_bytes[MMM_CALIB_NGATHER - 1].median;
    double hit = out->gather_word_bytes[0].median,
           miss = out->gather_word_bytes[MMM_CALIB_NGATHER - 1].median;
    out->gather_hit_bytes = hit;
    out->gather_miss_bytes = miss;
    if (!(miss > hit)) { /* nothing measurably misses: all found */
        out->gather_l2_bytes =
            (double)raw->gather_region_bytes[MMM_CALIB_NGATHER - 1];
        return;
    }
    for (i = 1; i < MMM_CALIB_NGATHER - 1; i++) {
        double h = (miss - out->gather_word_bytes[i].median) / (miss - hit);
        cap[i - 1] = fmin(1, fmax(0, h)) * (double)raw->gather_region_bytes[i];
    }
    mmm_calib_stat st;
    mmm_calib_stat_of(&st, cap, MMM_CALIB_NGATHER - 2);
    out->gather_l2_bytes = st.median;
}

/* Copies and sets: for each kind, the rate from the smallest and the
 * largest size ((b_large - b_small) / (t_large - t_small), medians) and
 * the fixed time of a call beyond the gap between two nodes of a
 * replayed graph (t_small - b_small / rate - launch_graph_s, at least
 * 0).  A larger size that took no longer is an error. */
static int transfer_costs(mmm_calib *out, const mmm_calib_raw *raw,
                          mmm_error *err)
{
    const int lo = 0, hi = MMM_CALIB_NTRANSFER - 1;
    for (int j = 0; j < MMM_CALIB_NTRANSFER; j++)
        out->transfer_bytes[j] = raw->transfer_bytes[j];
    for (int k = 0; k < MMM_CALIB_NXFERKIND; k++) {
        for (int j = 0; j < MMM_CALIB_NTRANSFER; j++)
            stat_series(&out->transfer_s[k][j], &raw->transfer_s[k][j]);
        double dt = out->transfer_s[k][hi].median - out->transfer_s[k][lo].median,
               db = (double)(raw->transfer_bytes[hi] - raw->transfer_bytes[lo]);
        if (!(dt > 0))
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: the %s calls of %lld bytes "
                                 "took no longer than those of %lld",
                                 mmm_copy_kind_name((mmm_copy_kind)(k + 1)),
                                 (long long)raw->transfer_bytes[hi],
                                 (long long)raw->transfer_bytes[lo]);
        double rate = db / dt;
        double fixed = out->transfer_s[k][lo].median -
                       (double)raw->transfer_bytes[lo] / rate -
                       out->launch_graph_s.median;
        out->transfer_bytes_per_s[k] = rate;
        out->transfer_fixed_s[k] = fixed > 0 ? fixed : 0;
    }
    return 0;
}

/* The L2: each size's re-read rate; the bandwidth, the smallest size's;
 * DRAM's rate of reads alone, the largest size's (eight times the L2: a
 * pass finds none of it); the capacity, from the sizes below twice the
 * L2 the device reports that are read below 0.9 of the L2's bandwidth (a
 * re-read of C < S < 2C bytes moves 2 (S - C) from DRAM, so C = S - t x
 * rate / 2), their median. */
static void l2_costs(mmm_calib *out, const mmm_calib_raw *raw)
{
    double cap[MMM_CALIB_NL2];
    size_t n = 0;
    for (int i = 0; i < MMM_CALIB_NL2; i++) {
        const mmm_calib_series *s = &raw->l2_read_s[i];
        double v[MMM_CALIB_MAX_SAMPLES];
        for (int k = 0; k < s->n; k++)
            v[k] = (double)raw->l2_array_bytes[i] / s->v[k];
        mmm_calib_stat_of(&out->l2_read_bytes_per_s[i], v, (size_t)s->n);
        out->l2_array_bytes[i] = raw->l2_array_bytes[i];
    }
    out->l2_bytes_per_s = out->l2_read_bytes_per_s[0].median;
    /* the largest array comes from DRAM: reads alone */
    double rd = out->l2_read_bytes_per_s[MMM_CALIB_NL2 - 1].median;
    out->read_bytes_per_s =
        raw->l2_array_bytes[MMM_CALIB_NL2 - 1] >= 2 * raw->dev.l2_bytes &&
                rd > out->bandwidth_bytes_per_s / 2
            ? rd
            : 0;
    /* the time model's re-read of S bytes, C < S < 2C, moves 2 (S - C)
       from DRAM (a pass finds 2C - S of it: docs/time.md, "The L2") at
       DRAM's rate of reads alone (the copy bandwidth without it) */
    double dram = out->read_bytes_per_s > 0 ? out->read_bytes_per_s
                                            : out->bandwidth_bytes_per_s;
    for (int i = 1; i < MMM_CALIB_NL2; i++) {
        double size = (double)raw->l2_array_bytes[i];
        if (!(out->l2_read_bytes_per_s[i].median < 0.9 * out->l2_bytes_per_s) ||
            !(size < 2.0 * (double)raw->dev.l2_bytes))
            continue;
        double t = size / out->l2_read_bytes_per_s[i].median;
        double c = size - t * dram / 2;
        cap[n++] = c < size / 2 ? size / 2 : c > size ? size : c;
    }
    if (n == 0) {
        out->l2_capacity_bytes = (double)raw->dev.l2_bytes;
        return;
    }
    mmm_calib_stat st;
    mmm_calib_stat_of(&st, cap, n);
    out->l2_capacity_bytes = st.median;
}

static double series_median(const mmm_calib_series *s)
{
    mmm_calib_stat st;
    stat_series(&st, s);
    return st.median;
}

/* Atomics beside traffic: for each launch, its atomics alone A = blocks x
 * seconds per atomic, the rest M = the launch without them, the launch T;
 * the share (T - max(A, M)) / min(A, M) of the shorter that the longer
 * does not hide, clamped to [0, 1]; their median (0 when none was
 * measured). */
static void atomic_overlap(mmm_calib *out, const mmm_calib_raw *raw)
{
    double v[MMM_CALIB_NATOMSTREAM], per = series_median(&raw->atomic_s);
    size_t n = 0;
    out->atomic_exposed = 0;
    for (int i = 0; i < MMM_CALIB_NATOMSTREAM; i++) {
        out->atomic_exposed_by_launch[i] = 0;
        if (raw->atomic_stream_s[i].n == 0 || raw->plain_stream_s[i].n == 0 || !(per > 0) ||
            raw->atomic_stream_blocks[i] <= 0)
            continue;
        double A = (double)raw->atomic_stream_blocks[i] * per;
        double M = series_median(&raw->plain_stream_s[i]);
        double T = series_median(&raw->atomic_stream_s[i]);
        double x = (T - fmax(A, M)) / fmin(A, M);
        x = x < 0 ? 0 : x > 1 ? 1 : x;
        out->atomic_exposed_by_launch[i] = x;
        v[n++] = x;
    }
    if (n) {
        mmm_calib_stat st;
        mmm_calib_stat_of(&st, v, n);
        out->atomic_exposed = st.median;
    }
}

int mmm_calib_analyze(mmm_calib *out, const mmm_calib_raw *raw,
                      mmm_error *err)
{
    char what[64];
    double f, x[MMM_CALIB_NSYNC], y[MMM_CALIB_NSYNC], v[MMM_CALIB_MAX_SAMPLES];
    int i, k, r;

    memset(out, 0, sizeof *out);
    if ((r = check_device(&raw->dev, err)) < 0)
        return r;
#define CHECK(field, name)                                                    \
    do {                                                                      \
        if ((r = check_series(&raw->field, name, err)) < 0)                   \
            return r;                                                         \
    } while (0)
    CHECK(clock_hz, "clock_hz");
    CHECK(launch_stream_s, "launch_stream_s");
    CHECK(launch_own_stream_s, "launch_own_stream_s");
    CHECK(launch_graph_s, "launch_graph_s");
    CHECK(issue_s, "issue_s");
    CHECK(memcpy_s, "memcpy_s");
    CHECK(load_cycles, "load_cycles");
    CHECK(l2_load_cycles, "l2_load_cycles");
    CHECK(shared_cycles, "shared_cycles");
    CHECK(block_s, "block_s");
    CHECK(atomic_s, "atomic_s");
#undef CHECK
    for (i = 0; i < MMM_CALIB_NGATHER; i++) {
        snprintf(what, sizeof what, "gather_s[%d]", i);
        if ((r = check_series(&raw->gather_s[i], what, err)) < 0)
            return r;
        snprintf(what, sizeof what, "scatter_s[%d]", i);
        if ((r = check_series(&raw->scatter_s[i], what, err)) < 0)
            return r;
        if (raw->gather_region_bytes[i] <= 0 ||
            (i > 0 && raw->gather_region_bytes[i] <=
                          raw->gather_region_bytes[i - 1]))
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: the gather regions must be "
                                 "positive and grow (region %d has %lld "
                                 "bytes)",
                                 i, (long long)raw->gather_region_bytes[i]);
    }
    if (raw->gather_words <= 0)
        return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                             "calibration: gather_words must be positive");
    for (i = 0; i < MMM_CALIB_NL2; i++) {
        snprintf(what, sizeof what, "l2_read_s[%d]", i);
        if ((r = check_series(&raw->l2_read_s[i], what, err)) < 0)
            return r;
        if (raw->l2_array_bytes[i] <= 0 ||
            (i > 0 && raw->l2_array_bytes[i] <= raw->l2_array_bytes[i - 1]))
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: the L2 arrays must be "
                                 "positive and grow (array %d has %lld "
                                 "bytes)",
                                 i, (long long)raw->l2_array_bytes[i]);
    }
    for (i = 0; i < MMM_CALIB_NTRANSFER; i++) {
        for (k = 0; k < MMM_CALIB_NXFERKIND; k++) {
            snprintf(what, sizeof what, "transfer_s[%s][%d]",
                     mmm_copy_kind_name((mmm_copy_kind)(k + 1)), i);
            if ((r = check_series(&raw->transfer_s[k][i], what, err)) < 0)
                return r;
        }
        if (raw->transfer_bytes[i] <= 0 ||
            (i > 0 && raw->transfer_bytes[i] <= raw->transfer_bytes[i - 1]))
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: the copy sizes must be "
                                 "positive and grow (size %d has %lld "
                                 "bytes)",
                                 i, (long long)raw->transfer_bytes[i]);
    }
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        snprintf(what, sizeof what, "op_cycles[%s]", op_names[i]);
        if ((r = check_series(&raw->op_cycles[i], what, err)) < 0)
            return r;
    }
    for (i = 0; i < MMM_CALIB_NSYNC; i++) {
        snprintf(what, sizeof what, "sync_cycles[%d]", mmm_calib_sync_sizes[i]);
        if ((r = check_series(&raw->sync_cycles[i], what, err)) < 0)
            return r;
    }
    if (raw->copy_bytes <= 0 || raw->u_rounds <= 0 ||
        !(raw->issue_warp_instructions > 0))
        return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                             "calibration: copy_bytes, u_rounds and "
                             "issue_warp_instructions must be positive");
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        int t = mmm_calib_block_sizes[i];
        snprintf(what, sizeof what, "copy_s[%d]", t);
        if ((r = check_series(&raw->copy_s[i], what, err)) < 0)
            return r;
        snprintf(what, sizeof what, "u_latency_cycles[%d]", t);
        if ((r = check_series(&raw->u_latency_cycles[i], what, err)) < 0)
            return r;
        snprintf(what, sizeof what, "u_bandwidth_s[%d]", t);
        if ((r = check_series(&raw->u_bandwidth_s[i], what, err)) < 0)
            return r;
        if (raw->u_blocks[i] <= 0 || raw->u_resident[i] <= 0)
            return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                                 "calibration: the U kernel of %d threads has "
                                 "%lld blocks and %d resident per SM", t,
                                 (long long)raw->u_blocks[i], raw->u_resident[i]);
    }

    if (raw->block_threads <= 0 || raw->block_grid[0] <= 0 ||
        raw->block_grid[1] <= raw->block_grid[0])
        return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                             "calibration: the block-start launches have "
                             "%d threads per block and %lld, %lld blocks",
                             raw->block_threads,
                             (long long)raw->block_grid[0],
                             (long long)raw->block_grid[1]);
    if (raw->atomic_grid[0] <= 0 || raw->atomic_grid[1] <= raw->atomic_grid[0])
        return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                             "calibration: the atomic launches have %lld and "
                             "%lld blocks",
                             (long long)raw->atomic_grid[0],
                             (long long)raw->atomic_grid[1]);
    out->dev = raw->dev;
    out->quick = raw->quick;
    out->chase_region_bytes = raw->chase_region_bytes;
    out->chase_steps = raw->chase_steps;
    stat_series(&out->clock_hz, &raw->clock_hz);
    f = out->clock_hz.median;
    stat_series(&out->launch_stream_s, &raw->launch_stream_s);
    stat_series(&out->launch_own_stream_s, &raw->launch_own_stream_s);
    stat_series(&out->launch_graph_s, &raw->launch_graph_s);
    for (k = 0; k < raw->issue_s.n; k++)
        v[k] = raw->issue_warp_instructions /
               (raw->issue_s.v[k] * f * raw->dev.sms);
    mmm_calib_stat_of(&out->issue_per_cycle, v, (size_t)raw->issue_s.n);
    stat_series(&out->load_cycles, &raw->load_cycles);
    stat_series(&out->l2_load_cycles, &raw->l2_load_cycles);
    stat_series(&out->shared_cycles, &raw->shared_cycles);
    stat_scaled(&out->block_cycles, &raw->block_s, f * raw->dev.sms);
    stat_scaled(&out->atomic_cycles, &raw->atomic_s, f);
    atomic_overlap(out, raw);
    out->block_threads = raw->block_threads;
    for (i = 0; i < MMM_CALIB_NOPS; i++)
        stat_series(&out->op_cycles[i], &raw->op_cycles[i]);
    for (i = 0; i < MMM_CALIB_NSYNC; i++) {
        stat_series(&out->sync_cycles[i], &raw->sync_cycles[i]);
        x[i] = ceil((double)mmm_calib_sync_sizes[i] / raw->dev.warp_size);
        y[i] = out->sync_cycles[i].median;
    }
    if (mmm_calib_theil_sen(&out->sync_base_cycles, &out->sync_per_warp_cycles,
                            x, y, MMM_CALIB_NSYNC) < 0)
        return mmm_error_set(err, MMM_EINPUT, NULL, 0,
                             "calibration: the barrier block sizes give one "
                             "warp count only");

    out->bandwidth_bytes_per_s = 0;
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        const mmm_calib_series *s = &raw->copy_s[i];
        for (k = 0; k < s->n; k++)
            v[k] = (double)raw->copy_bytes / s->v[k];
        mmm_calib_stat_of(&out->bandwidth[i], v, (size_t)s->n);
        if (out->bandwidth[i].median > out->bandwidth_bytes_per_s) {
            out->bandwidth_bytes_per_s = out->bandwidth[i].median;
            out->bandwidth_block = mmm_calib_block_sizes[i];
        }
    }
    for (k = 0; k < raw->memcpy_s.n; k++)
        v[k] = (double)raw->copy_bytes / raw->memcpy_s.v[k];
    mmm_calib_stat_of(&out->memcpy_bandwidth, v, (size_t)raw->memcpy_s.n);
    out->bandwidth_bytes_per_cycle_per_sm =
        out->bandwidth_bytes_per_s / f / raw->dev.sms;

    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        const mmm_calib_series *s = &raw->u_bandwidth_s[i];
        /* Seconds of the kernel -> cycles one block slot spends per round:
         * the kernel ran u_blocks / (u_resident * sms) waves of u_rounds
         * rounds each. */
        double slots = (double)raw->u_resident[i] * raw->dev.sms;
        stat_scaled(&out->u_bandwidth[i], s,
                    f * slots / ((double)raw->u_blocks[i] * raw->u_rounds));
        stat_series(&out->u_latency[i], &raw->u_latency_cycles[i]);
        out->u_resident[i] = raw->u_resident[i];
    }
    gather_costs(out, raw);
    if ((r = transfer_costs(out, raw, err)) < 0)
        return r;
    l2_costs(out, raw);
    out->saturation_words_per_sm =
        out->load_cycles.median * out->bandwidth_bytes_per_cycle_per_sm / 4.0;
    out->latency_exposed = exposed(out);
    return 0;
}

/* ------------------------------------------------------------------ */
/* The machine file                                                    */

/* FP32 lanes per SM by compute capability (NVIDIA's CUDA C++ Programming
 * Guide, "Arithmetic Instructions" throughput table); 0 when unknown. */
static int fp32_lanes(int major, int minor)
{
    switch (major) {
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    case 9: return 128;
    case 10: case 11: case 12: return 128;
    default: return 0;
    }
}

/* Write s into a comment (in_comment: "--" may not appear in one, nor end
 * it in "-") or an attribute value (the characters that would need escaping
 * become '_': device names have none of them).  Control characters are
 * dropped. */
static void put_clean(FILE *f, const char *s, int in_comment)
{
    for (; *s; s++) {
        if ((unsigned char)*s < 0x20 && !(in_comment && *s == '\n'))
            continue;
        if (in_comment && *s == '-' && (s[1] == '-' || s[1] == '\0'))
            fputs("- ", f);
        else if (!in_comment && strchr("&<>\"", *s))
            fputc('_', f);
        else
            fputc(*s, f);
    }
}

/* A number as the expression grammar reads it: integers as integers,
 * others with 10 significant digits. */
static void put_number(FILE *f, double v)
{
    if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.10g", v);
}

static void spread(char *buf, size_t size, const mmm_calib_stat *s)
{
    int o = snprintf(buf, size, "median of %d, quartiles %.4g..%.4g, MAD %.2g%%",
                     s->n, s->q1, s->q3,
                     s->median > 0 ? 100.0 * s->mad / s->median : 0.0);
    if (s->outliers && o > 0 && (size_t)o < size)
        snprintf(buf + o, size - (size_t)o, ", %d beyond Tukey's fences",
                 s->outliers);
}

static void param(FILE *f, const char *name, double v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void param(FILE *f, const char *name, double v, const char *fmt, ...)
{
    char c[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c, sizeof c, fmt, ap);
    va_end(ap);
    fputs("  <!-- ", f);
    fputs(name, f);
    fputs(": ", f);
    put_clean(f, c, 1);
    fputs(" -->\n  <param name=\"", f);
    fputs(name, f);
    fputs("\" value=\"", f);
    put_number(f, v);
    fputs("\"/>\n", f);
}

/* param() whose comment ends with the spread of stat; its value is the
 * median. */
static void param_stat(FILE *f, const char *name, const mmm_calib_stat *st,
                       const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void param_stat(FILE *f, const char *name, const mmm_calib_stat *st,
                       const char *fmt, ...)
{
    char c[1024], sp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c, sizeof c, fmt, ap);
    va_end(ap);
    spread(sp, sizeof sp, st);
    param(f, name, st->median, "%s; %s", c, sp);
}

int mmm_calib_machine_xml(char **out, size_t *len, const mmm_calib *c,
                          mmm_error *err)
{
    if (!out || !len || !c)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "mmm_calib_machine_xml: missing argument");
    const mmm_calib_device *d = &c->dev;
    char *buf = NULL;
    size_t n = 0;
    char sp[256];
    double f = c->clock_hz.median;
    int q = fp32_lanes(d->cc_major, d->cc_minor);
    int i, k, i256 = 1;
    FILE *fp;

    *out = NULL;
    *len = 0;
    if (!(f > 0) || d->sms <= 0 || d->warp_size <= 0)
        return mmm_error_set(err, MMM_EINVAL, NULL, 0,
                             "calibration: no analyzed constants to write");
    if (!(fp = open_memstream(&buf, &n)))
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n  ", fp);
    put_clean(fp, d->name, 1);
    fprintf(fp, " (compute capability %d.%d), measured by `mmm calibrate`%s.\n",
            d->cc_major, d->cc_minor, c->quick ? " --quick" : "");
    fputs("  Every value: its unit, how it was measured (docs/calibrate.md) and\n"
          "  the spread over repetitions.  Cycles are SM clock cycles; the clock\n"
          "  is the one measured while the benchmarks ran (clock_hz).\n"
          "  \"property\" marks a value the CUDA runtime reports, \"derived\" a\n"
          "  computation from other values.\n-->\n<machine name=\"", fp);
    put_clean(fp, d->name, 0);
    fputs(" (calibrated)\">\n", fp);

    fputs("  <!-- Device -->\n", fp);
    param(fp, TI_NAME(P), d->sms, "property: streaming multiprocessors");
    param_stat(fp, TI_NAME(CLOCK_HZ), &c->clock_hz,
               "Hz, measured: clock64() cycles of a spin kernel over its event "
               "time (difference of two lengths), the runtime reports %.0f Hz",
               d->clock_hz);
    param(fp, TI_NAME(SM_THREADS), d->sm_threads,
          "property: resident threads per SM");
    param(fp, TI_NAME(SM_BLOCKS), d->sm_blocks,
          "property: resident blocks per SM");
    param(fp, TI_NAME(SM_SHARED_BYTES), (double)d->sm_shared_bytes,
          "property: bytes of shared memory per SM");
    param(fp, TI_NAME(BLOCK_SHARED_BYTES), (double)d->block_shared_bytes,
          "property: bytes of shared memory per block without opt-in (%lld with "
          "opt-in, %lld reserved by the system per block)",
          (long long)d->block_shared_optin_bytes,
          (long long)d->reserved_shared_bytes);
    param(fp, TI_NAME(BLOCK_THREADS), d->block_threads,
          "property: threads per block at most");
    param(fp, TI_NAME(SHARED_RESERVED_BYTES), (double)d->reserved_shared_bytes,
          "property: bytes of shared memory the system reserves per block");
    if (d->shared_granule_bytes > 0)
        param(fp, TI_NAME(SHARED_GRANULE_BYTES), d->shared_granule_bytes,
              "allocation unit of shared memory, bytes, as NVIDIA's occupancy "
              "calculator (cuda_occupancy.h) has it for this compute capability");
    param(fp, TI_NAME(SM_REGISTERS), d->sm_registers,
          "property: 32-bit registers per SM");
    if (d->register_granule > 0)
        param(fp, TI_NAME(REGISTER_GRANULE), d->register_granule,
              "allocation unit of a warp's registers (cuda_occupancy.h)");
    if (d->register_partitions > 0)
        param(fp, TI_NAME(REGISTER_PARTITIONS), d->register_partitions,
              "register-file sub-partitions per SM, each holding whole warps "
              "(cuda_occupancy.h)");
    param(fp, TI_NAME(WARP_SIZE), d->warp_size, "property: threads per warp");
    {
        char rates[512];
        int o = 0;
        for (i = 0; i < MMM_CALIB_NL2 && o >= 0 && (size_t)o < sizeof rates; i++)
            o += snprintf(rates + o, sizeof rates - (size_t)o,
                          "%s%.4g MiB: %.4g GB/s", i ? ", " : "",
                          (double)c->l2_array_bytes[i] / 1048576.0,
                          c->l2_read_bytes_per_s[i].median * 1e-9);
        param(fp, TI_NAME(L2_BYTES), floor(c->l2_capacity_bytes),
              "bytes of L2 that arrays kept between launches find: each "
              "array read once, then again over and over by one timed "
              "launch (16-byte loads, every SM full), seconds per pass; "
              "over the sizes below twice the L2 read below 0.9 of its "
              "bandwidth, the median of size - seconds x DRAM's rate of "
              "reads alone / 2 (a pass over C < S < 2C bytes finds 2C - S: "
              "docs/time.md, The L2) (the "
              "device reports %lld bytes of L2; re-reads: %s)",
              (long long)d->l2_bytes, rates);
        param(fp, TI_NAME(L2_BYTES_PER_CYCLE), c->l2_bytes_per_s / f,
              "bytes per SM cycle the L2 serves, whole GPU: the re-read of "
              "the smallest array (%.4g MiB, a quarter of the L2)",
              (double)c->l2_array_bytes[0] / 1048576.0);
    }
    param(fp, TI_NAME(WORD_BYTES), 4,
          "bytes per word (the MMM's word, 32 bits)");

    fputs("\n  <!-- Launches -->\n", fp);
    param_stat(fp, TI_NAME(LAUNCH_S), &c->launch_stream_s,
               "seconds per launch: a chain of empty <<<1,1>>> launches on the "
               "default stream, event time over the launches (%.4g on a stream "
               "of its own)", c->launch_own_stream_s.median);
    param_stat(fp, TI_NAME(LAUNCH_GRAPH_S), &c->launch_graph_s,
               "seconds per launch: the same chain captured once as a CUDA "
               "graph and replayed");

    param_stat(fp, TI_NAME(BLOCK_CYCLES), &c->block_cycles,
               "cycles one SM takes to start a block: two launches of an empty "
               "kernel with blocks of %d threads, the difference of their "
               "event times over the difference of their block counts, x "
               "clock_hz x p", c->block_threads);
    param_stat(fp, TI_NAME(ATOMIC_CYCLES), &c->atomic_cycles,
               "cycles between two atomic operations on one global word: two "
               "launches in which one thread per block adds to the same float "
               "(atomicAdd), the difference of their event times over the "
               "difference of their block counts, x clock_hz");
    if (c->atomic_exposed > 0) {
        char by[256];
        int o = 0;
        for (i = 0; i < MMM_CALIB_NATOMSTREAM && o >= 0 && (size_t)o < sizeof by; i++)
            o += snprintf(by + o, sizeof by - (size_t)o, "%s%d: %.3g", i ? ", " : "",
                          mmm_calib_atomic_stream_words[i], c->atomic_exposed_by_launch[i]);
        param(fp, TI_NAME(ATOMIC_EXPOSED), c->atomic_exposed,
              "derived: the share of the shorter of a launch's atomics on one "
              "word (A: its blocks x the seconds per atomic above) and the rest "
              "of its time (M: the launch without them) that the longer does "
              "not hide, (T - max(A, M)) / min(A, M): launches of 256-thread "
              "blocks each reading 16-byte words from DRAM, a barrier, one "
              "atomicAdd to one float; the median over the words a thread "
              "reads (%s)", by);
    }

    {
        char sizes[256];
        int o = 0;
        for (i = 0; i < MMM_CALIB_NGATHER && o >= 0 && (size_t)o < sizeof sizes; i++)
            o += snprintf(sizes + o, sizeof sizes - (size_t)o, "%s%.4g MiB: %.4g",
                          i ? ", " : "",
                          (double)c->gather_region_bytes[i] / 1048576.0,
                          c->gather_word_bytes[i].median);
        param_stat(fp, TI_NAME(GATHER_HIT_BYTES), &c->gather_word_bytes[0],
                   "bytes of copy bandwidth one gathered word costs when it "
                   "is in the L2: launches of 8 words per thread read at "
                   "random over %.4g MiB, seconds per word x the best copy "
                   "bandwidth below (by region: %s)",
                   (double)c->gather_region_bytes[0] / 1048576.0, sizes);
        param_stat(fp, TI_NAME(GATHER_MISS_BYTES),
                   &c->gather_word_bytes[MMM_CALIB_NGATHER - 1],
                   "the same when it misses the L2: words at random over "
                   "%.4g MiB",
                   (double)c->gather_region_bytes[MMM_CALIB_NGATHER - 1] /
                       1048576.0);
        param_stat(fp, TI_NAME(SCATTER_HIT_BYTES), &c->scatter_word_bytes[0],
                   "bytes of copy bandwidth one word stored at a random "
                   "address costs when it is in the L2: 8 words per thread "
                   "over %.4g MiB, as the gathers",
                   (double)c->gather_region_bytes[0] / 1048576.0);
        param_stat(fp, TI_NAME(SCATTER_MISS_BYTES),
                   &c->scatter_word_bytes[MMM_CALIB_NGATHER - 1],
                   "the same when it misses the L2: over %.4g MiB",
                   (double)c->gather_region_bytes[MMM_CALIB_NGATHER - 1] /
                       1048576.0);
        param(fp, TI_NAME(GATHER_L2_BYTES), floor(c->gather_l2_bytes),
              "derived: the L2 capacity gathered words find, the median over "
              "the regions between the two of h x region, h = (miss - "
              "cost) / (miss - hit) the share found in the L2");
    }

    {
        /* copies and sets: a rate per kind; one fixed time on the device
         * (the mean of d2d and set), one over the host link (of h2d and
         * d2h) */
        static const int row[MMM_CALIB_NXFERKIND] = {
            MMM__TI_COPY_D2D_BYTES_PER_S, MMM__TI_COPY_H2D_BYTES_PER_S,
            MMM__TI_COPY_D2H_BYTES_PER_S, MMM__TI_SET_BYTES_PER_S};
        static const char *const what[MMM_CALIB_NXFERKIND] = {
            "cudaMemcpyAsync device to device",
            "cudaMemcpyAsync host (pinned) to device",
            "cudaMemcpyAsync device to host (pinned)", "cudaMemsetAsync"};
        char sizes[256];
        for (k = 0; k < MMM_CALIB_NXFERKIND; k++) {
            int o = 0;
            for (i = 0; i < MMM_CALIB_NTRANSFER && o >= 0 &&
                        (size_t)o < sizeof sizes;
                 i++)
                o += snprintf(sizes + o, sizeof sizes - (size_t)o,
                              "%s%lld B: %.4g us", i ? ", " : "",
                              (long long)c->transfer_bytes[i],
                              c->transfer_s[k][i].median * 1e6);
            param(fp, mmm__time_input_name(row[k]),
                  c->transfer_bytes_per_s[k],
                  "bytes per second of %s: a CUDA graph of dependent calls "
                  "replayed, the difference of the largest and the "
                  "smallest size over the difference of their seconds per "
                  "call (%s)", what[k], sizes);
        }
        param(fp, TI_NAME(COPY_S), c->transfer_fixed_s[0],
              "seconds of a device-to-device copy beyond its bytes: the "
              "smallest call less its bytes at the rate above and less "
              "launch_graph_s");
        param(fp, TI_NAME(SET_S), c->transfer_fixed_s[3], "the same for a memset");
        param(fp, TI_NAME(COPY_HOST_S), c->transfer_fixed_s[1],
              "the same for a copy from the host to the device");
        param(fp, TI_NAME(COPY_D2H_S), c->transfer_fixed_s[2],
              "the same for a copy from the device to the host");
    }

    param(fp, TI_NAME(LATENCY_EXPOSED), c->latency_exposed,
          "derived: the share of the shorter of a wave's critical path and its "
          "memory transfer that the longer does not hide, from the U kernel "
          "below: (U_bandwidth - max(U_latency, transfer)) / min(U_latency, "
          "transfer), the transfer being resident blocks x threads x 4 bytes "
          "over bandwidth_bytes_per_cycle_per_sm; median over the block sizes");

    param_stat(fp, TI_NAME(ISSUE_PER_CYCLE), &c->issue_per_cycle,
               "warp-instructions issued per SM per cycle: 16 independent fp32 "
               "FMA chains per thread, every SM full, FMAs over event time x "
               "clock_hz x p");

    fputs("\n  <!-- Operations and barriers (one thread, dependent chain) -->\n", fp);
    param(fp, TI_NAME(OP_CYCLES), c->op_cycles[MMM_CALIB_OP_FP32_FMA].median,
          "cycles per dependent local operation: the fp32 FMA below");
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        char name[64];
        snprintf(name, sizeof name, "op_cycles_%s", op_names[i]);
        param_stat(fp, name, &c->op_cycles[i],
                   "cycles per dependent %s, clock64() over an unrolled chain",
                   op_names[i]);
    }
    param(fp, TI_NAME(SYNC_CYCLES), c->sync_base_cycles,
          "cycles of one __syncthreads at zero warps: the Theil-Sen intercept of "
          "its cost against the warps of the block, blocks of 32 to 1024 threads");
    {
        char tab[512];
        size_t o = 0;
        for (i = 0; i < MMM_CALIB_NSYNC && o < sizeof tab; i++)
            o += (size_t)snprintf(tab + o, sizeof tab - o, "%s%d: %.4g",
                                  i ? ", " : "", mmm_calib_sync_sizes[i],
                                  c->sync_cycles[i].median);
        param(fp, TI_NAME(SYNC_CYCLES_PER_WARP), c->sync_per_warp_cycles,
              "cycles per warp of the block, the Theil-Sen slope; medians by "
              "threads per block: %s", tab);
    }

    fputs("\n  <!-- Memory -->\n", fp);
    param_stat(fp, TI_NAME(MEM_LATENCY_CYCLES), &c->load_cycles,
               "cycles per dependent global load missing the L2: one thread "
               "chases pointers through %d 128-byte lines in random order, each "
               "visited once, in a region of %lld MiB (the L2 is %lld KiB), L2 "
               "flushed first", c->chase_steps,
               (long long)(c->chase_region_bytes >> 20),
               (long long)(d->l2_bytes >> 10));
    param_stat(fp, "l2_latency_cycles", &c->l2_load_cycles,
               "cycles per dependent global load hitting the L2 (the same chase "
               "inside the L2, after a warming pass)");
    param_stat(fp, "shared_latency_cycles", &c->shared_cycles,
               "cycles per dependent shared-memory load");
    spread(sp, sizeof sp, &c->bandwidth[0]);
    for (i = 0; i < MMM_CALIB_NBLOCK; i++)
        if (mmm_calib_block_sizes[i] == c->bandwidth_block)
            spread(sp, sizeof sp, &c->bandwidth[i]);
    param(fp, TI_NAME(BANDWIDTH_BYTES_PER_CYCLE), c->bandwidth_bytes_per_s / f,
          "bytes per SM cycle, whole GPU: a 16-byte-per-thread copy over "
          "buffers larger than the L2, bytes read plus written, the best block "
          "size (%d); %s", c->bandwidth_block, sp);
    param(fp, "bandwidth_bytes_per_cycle_per_sm",
          c->bandwidth_bytes_per_cycle_per_sm,
          "derived: bandwidth_bytes_per_cycle / p");
    if (c->read_bytes_per_s > 0)
        param(fp, TI_NAME(READ_BYTES_PER_CYCLE), c->read_bytes_per_s / f,
              "bytes per SM cycle DRAM reads alone, whole GPU: the re-read of "
              "the largest array of the L2's (%.4g MiB, from DRAM), 16-byte "
              "loads",
              (double)c->l2_array_bytes[MMM_CALIB_NL2 - 1] / 1048576.0);

    fputs("\n  <!-- U of the MMM, cycles per word per thread, by threads per block:\n"
          "       latency-bound (one block alone, clock64()) and bandwidth-bound\n"
          "       (the whole GPU, waves of resident blocks, event time) -->\n", fp);
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        char name[64];
        int t = mmm_calib_block_sizes[i];
        if (t == 256)
            i256 = i;
        snprintf(name, sizeof name, "U_latency_%d", t);
        param_stat(fp, name, &c->u_latency[i],
                   "one block of %d threads alone: each round every thread "
                   "loads one word from global into shared memory, then a "
                   "barrier; cycles per round", t);
        snprintf(name, sizeof name, "U_bandwidth_%d", t);
        param_stat(fp, name, &c->u_bandwidth[i],
                   "the same kernel over waves of %d resident blocks per SM: "
                   "kernel cycles x block slots / (blocks x rounds)",
                   c->u_resident[i]);
    }

    fputs("\n  <!-- MMM, TMM and balance principle -->\n", fp);
    param(fp, "U", c->u_latency[i256].median,
          "derived: U_latency_256, the MMM's cycles per word moved between "
          "global and shared memory by a block running alone");
    param(fp, "L", c->load_cycles.median, "derived: mem_latency_cycles");
    if (q > 0) {
        param(fp, "Q", q, "FP32 cores per SM for compute capability %d.%d "
              "(NVIDIA's programming guide)", d->cc_major, d->cc_minor);
        param(fp, "P", (double)d->sms * q, "derived: p x Q");
        fprintf(fp, "  <!-- X: derived: sm_threads / Q -->\n"
                    "  <param name=\"X\" value=\"%d/%d\"/>\n", d->sm_threads, q);
    }
    param(fp, "C", d->warp_size,
          "derived: warp_size words, one warp's coalesced access");
    param(fp, "Z", (double)(d->sm_shared_bytes / 4),
          "derived: sm_shared_bytes in 4-byte words");
    param(fp, "C0", 2 * f, "derived: clock_hz x 2 flops per FMA");
    param(fp, "beta", c->bandwidth_bytes_per_s,
          "bytes per second, measured: the copy above");
    param(fp, "alpha", c->load_cycles.median / f,
          "derived: mem_latency_cycles / clock_hz, seconds");
    param(fp, "Ztotal",
          (double)d->sms * ((double)d->sm_registers + (double)(d->sm_shared_bytes / 4)),
          "derived: p x (sm_registers + Z), words");
    fputs("</machine>\n", fp);

    if (ferror(fp) || fclose(fp) != 0) {
        free(buf);
        return mmm_error_set(err, MMM_ENOMEM, NULL, 0, "out of memory");
    }
    *out = buf;
    *len = n;
    return 0;
}

int mmm_calib_write_machine(const char *path, const mmm_calib *c,
                            mmm_error *err)
{
    char *xml = NULL;
    size_t len = 0;
    int r = mmm_calib_machine_xml(&xml, &len, c, err);
    if (r == 0)
        r = mmm__write_file_atomic(path, xml, len, err);
    free(xml);
    return r;
}

/* ------------------------------------------------------------------ */
/* Reading the constants back                                          */

static int get(double *out, const mmm_machine *m, const char *name,
               mmm_error *err)
{
    size_t i;
    for (i = 0; i < m->nparams; i++)
        if (!strcmp(m->params[i].name, name)) {
            *out = m->params[i].value.d;
            return 0;
        }
    return mmm_error_set(err, MMM_EINPUT, m->file, 0,
                         "machine '%s' has no parameter '%s' (a file of "
                         "`mmm calibrate` has it)", m->name ? m->name : "",
                         name);
}

int mmm_calib_constants_from_machine(mmm_calib_constants *out,
                                     const mmm_machine *m, mmm_error *err)
{
    const struct {
        const char *name;
        double *dst;
    } t[] = {
        {TI_NAME(P), &out->p},
        {TI_NAME(CLOCK_HZ), &out->clock_hz},
        {TI_NAME(SM_THREADS), &out->sm_threads},
        {TI_NAME(SM_BLOCKS), &out->sm_blocks},
        {TI_NAME(SM_SHARED_BYTES), &out->sm_shared_bytes},
        {TI_NAME(BLOCK_SHARED_BYTES), &out->block_shared_bytes},
        {TI_NAME(SM_REGISTERS), &out->sm_registers},
        {TI_NAME(WARP_SIZE), &out->warp_size},
        {TI_NAME(WORD_BYTES), &out->word_bytes},
        {TI_NAME(LAUNCH_S), &out->launch_s},
        {TI_NAME(LAUNCH_GRAPH_S), &out->launch_graph_s},
        {TI_NAME(ISSUE_PER_CYCLE), &out->issue_per_cycle},
        {TI_NAME(BLOCK_THREADS), &out->block_threads},
        {TI_NAME(SHARED_RESERVED_BYTES), &out->shared_reserved_bytes},
        {TI_NAME(SHARED_GRANULE_BYTES), &out->shared_granule_bytes},
        {TI_NAME(REGISTER_GRANULE), &out->register_granule},
        {TI_NAME(REGISTER_PARTITIONS), &out->register_partitions},
        {TI_NAME(MEM_LATENCY_CYCLES), &out->mem_latency_cycles},
        {"l2_latency_cycles", &out->l2_latency_cycles},
        {"shared_latency_cycles", &out->shared_latency_cycles},
        {TI_NAME(BANDWIDTH_BYTES_PER_CYCLE), &out->bandwidth_bytes_per_cycle},
        {TI_NAME(OP_CYCLES), &out->op_cycles},
        {TI_NAME(SYNC_CYCLES), &out->sync_cycles},
        {TI_NAME(SYNC_CYCLES_PER_WARP), &out->sync_cycles_per_warp},
        {"U", &out->U},
        {"L", &out->L},
    };
    char name[64];
    size_t i;
    int r;
    memset(out, 0, sizeof *out);
    for (i = 0; i < sizeof t / sizeof t[0]; i++)
        if ((r = get(t[i].dst, m, t[i].name, err)) < 0)
            return r;
    for (i = 0; i < MMM_CALIB_NOPS; i++) {
        snprintf(name, sizeof name, "op_cycles_%s", op_names[i]);
        if ((r = get(&out->op_cycles_of[i], m, name, err)) < 0)
            return r;
    }
    /* Optional: files written before it was measured have none. */
    if (get(&out->block_cycles, m, TI_NAME(BLOCK_CYCLES), NULL) < 0)
        out->block_cycles = 0;
    if (get(&out->latency_exposed, m, TI_NAME(LATENCY_EXPOSED), NULL) < 0)
        out->latency_exposed = 0;
    if (get(&out->atomic_cycles, m, TI_NAME(ATOMIC_CYCLES), NULL) < 0)
        out->atomic_cycles = 0;
    if (get(&out->atomic_exposed, m, TI_NAME(ATOMIC_EXPOSED), NULL) < 0)
        out->atomic_exposed = 0;
    if (get(&out->gather_hit_bytes, m, TI_NAME(GATHER_HIT_BYTES), NULL) < 0)
        out->gather_hit_bytes = 0;
    if (get(&out->gather_miss_bytes, m, TI_NAME(GATHER_MISS_BYTES), NULL) < 0)
        out->gather_miss_bytes = 0;
    if (get(&out->gather_l2_bytes, m, TI_NAME(GATHER_L2_BYTES), NULL) < 0)
        out->gather_l2_bytes = 0;
    if (get(&out->scatter_hit_bytes, m, TI_NAME(SCATTER_HIT_BYTES), NULL) < 0)
        out->scatter_hit_bytes = 0;
    if (get(&out->scatter_miss_bytes, m, TI_NAME(SCATTER_MISS_BYTES), NULL) < 0)
        out->scatter_miss_bytes = 0;
    {
        const struct {
            int row;
            double *dst;
        } opt[] = {
            {MMM__TI_COPY_D2D_BYTES_PER_S, &out->copy_d2d_bytes_per_s},
            {MMM__TI_COPY_H2D_BYTES_PER_S, &out->copy_h2d_bytes_per_s},
            {MMM__TI_COPY_D2H_BYTES_PER_S, &out->copy_d2h_bytes_per_s},
            {MMM__TI_SET_BYTES_PER_S, &out->set_bytes_per_s},
            {MMM__TI_COPY_S, &out->copy_s},
            {MMM__TI_COPY_HOST_S, &out->copy_host_s},
            {MMM__TI_SET_S, &out->set_s},
            {MMM__TI_COPY_D2H_S, &out->copy_d2h_s},
            {MMM__TI_L2_BYTES, &out->l2_bytes},
            {MMM__TI_L2_BYTES_PER_CYCLE, &out->l2_bytes_per_cycle},
            {MMM__TI_READ_BYTES_PER_CYCLE, &out->read_bytes_per_cycle},
        };
        for (i = 0; i < sizeof opt / sizeof opt[0]; i++)
            if (get(opt[i].dst, m, mmm__time_input_name(opt[i].row), NULL) < 0)
                *opt[i].dst = 0;
    }
    for (i = 0; i < MMM_CALIB_NBLOCK; i++) {
        snprintf(name, sizeof name, "U_latency_%d", mmm_calib_block_sizes[i]);
        if ((r = get(&out->U_latency[i], m, name, err)) < 0)
            return r;
        snprintf(name, sizeof name, "U_bandwidth_%d", mmm_calib_block_sizes[i]);
        if ((r = get(&out->U_bandwidth[i], m, name, err)) < 0)
            return r;
    }
    return 0;
}
