/*
 * timing.cuh: what validate.cu, holdout.cu, holdout2.cu, holdout3.cu,
 * holdout4.cu, holdout5.cu, holdout6.cu, reads.cu, gathers.cu, retouch.cu,
 * blocks.cu and shared.cu (its CHECK alone) share: a CUDA error check
 * that exits, the median (time_median)
 * or the best (time_best) of RUNS timed runs of a launch sequence
 * (cudaEvents on the legacy stream around the whole sequence, one warm-up
 * first; timing_init creates the events), the table of a kernel's
 * instances over T and K (TABLE), and log2 of a power of two.  Define PROG
 * (the program's name, for messages) before including it.
 */
#ifndef MMM_BENCH_GPU_TIMING_CUH
#define MMM_BENCH_GPU_TIMING_CUH

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                              \
    do {                                                                      \
        cudaError_t e_ = (x);                                                 \
        if (e_ != cudaSuccess) {                                              \
            fprintf(stderr, "%s: %s:%d: %s\n", PROG, __FILE__, __LINE__,      \
                    cudaGetErrorString(e_));                                  \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define RUNS 7

static cudaEvent_t ev0, ev1;

static inline void timing_init(void)
{
    CHECK(cudaEventCreate(&ev0));
    CHECK(cudaEventCreate(&ev1));
}

static inline int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median time in ms of RUNS runs of fn(arg) after one warm-up. */
static inline float time_median(void (*fn)(void *), void *arg)
{
    float t[RUNS];
    fn(arg);
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < RUNS; r++) {
        CHECK(cudaEventRecord(ev0, 0));
        fn(arg);
        CHECK(cudaEventRecord(ev1, 0));
        CHECK(cudaEventSynchronize(ev1));
        CHECK(cudaEventElapsedTime(&t[r], ev0, ev1));
    }
    CHECK(cudaGetLastError());
    qsort(t, RUNS, sizeof t[0], cmp_float);
    return t[RUNS / 2];
}

/* Best time in ms of RUNS runs of fn(arg) after one warm-up (the
 * microbenchmarks, which report what the hardware can do). */
static inline float time_best(void (*fn)(void *), void *arg)
{
    float best = 1e30f;
    fn(arg);
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < RUNS; r++) {
        float ms;
        CHECK(cudaEventRecord(ev0, 0));
        fn(arg);
        CHECK(cudaEventRecord(ev1, 0));
        CHECK(cudaEventSynchronize(ev1));
        CHECK(cudaEventElapsedTime(&ms, ev0, ev1));
        if (ms < best)
            best = ms;
    }
    CHECK(cudaGetLastError());
    return best;
}

/* The template instances of a kernel launcher for T = 64 .. 1024 and
 * K = 1 .. 8, as the initializer of a [5][4] table indexed by
 * [log2(T) - 6][log2(K)] (holdout5.cu, holdout6.cu). */
#define TABLE(fn) \
    {{fn<64, 1>, fn<64, 2>, fn<64, 4>, fn<64, 8>},         \
     {fn<128, 1>, fn<128, 2>, fn<128, 4>, fn<128, 8>},     \
     {fn<256, 1>, fn<256, 2>, fn<256, 4>, fn<256, 8>},     \
     {fn<512, 1>, fn<512, 2>, fn<512, 4>, fn<512, 8>},     \
     {fn<1024, 1>, fn<1024, 2>, fn<1024, 4>, fn<1024, 8>}}

/* log2 of a power of two (the smallest l with 2^l >= v). */
static inline int log2i(long v)
{
    int l = 0;
    while ((1L << l) < v)
        l++;
    return l;
}

#endif
