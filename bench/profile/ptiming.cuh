/*
 * ptiming.cuh: bench/gpu/timing.cuh for the profiling drivers of
 * bench/profile/ (prof_*.cu).  It takes timing.cuh's place (same include
 * guard, so the program's own #include "timing.cuh" is skipped) and differs
 * only in RUNS, which the build sets (-DRUNS=N, default 7 as in timing.cuh):
 * RUNS = 0 runs every launch sequence exactly once (no warm-up, no timing:
 * the time printed is 0), so that under ncu each configuration's launch
 * sequence is profiled once; the checks of the programs that count runs
 * (ALL_RUNS = 1 + RUNS, bfs_step's levels) stay consistent.  Define PROG
 * before including it.
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

#ifndef RUNS
#define RUNS 7
#endif

static cudaEvent_t ev0, ev1;
static long prof_sequences; /* launch sequences run (time_median/time_best calls) */

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

#if RUNS == 0
/* One run, untimed: the sequence under the profiler. */
static inline float time_median(void (*fn)(void *), void *arg)
{
    prof_sequences++;
    fn(arg);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    return 0.0f;
}
static inline float time_best(void (*fn)(void *), void *arg)
{
    return time_median(fn, arg);
}
#else
static inline float time_median(void (*fn)(void *), void *arg)
{
    float t[RUNS];
    prof_sequences++;
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

static inline float time_best(void (*fn)(void *), void *arg)
{
    float best = 1e30f;
    prof_sequences++;
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
#endif

#define TABLE(fn) \
    {{fn<64, 1>, fn<64, 2>, fn<64, 4>, fn<64, 8>},         \
     {fn<128, 1>, fn<128, 2>, fn<128, 4>, fn<128, 8>},     \
     {fn<256, 1>, fn<256, 2>, fn<256, 4>, fn<256, 8>},     \
     {fn<512, 1>, fn<512, 2>, fn<512, 4>, fn<512, 8>},     \
     {fn<1024, 1>, fn<1024, 2>, fn<1024, 4>, fn<1024, 8>}}

/* A benchmark of a profiling driver (pmain.cuh): its name and default sizes. */
struct pbench {
    const char *name;
    long a, b, c;
};

static inline int log2i(long v)
{
    int l = 0;
    while ((1L << l) < v)
        l++;
    return l;
}

#endif
