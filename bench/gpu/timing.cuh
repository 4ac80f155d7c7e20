/*
 * timing.cuh: what the programs of bench/gpu share (validate.cu,
 * holdout.cu .. holdout6.cu, reads.cu, gathers.cu, retouch.cu, blocks.cu,
 * shared.cu: its CHECK alone) and the profiling drivers of bench/profile/:
 * a CUDA error check that exits, the median (time_median) or the best
 * (time_best) of RUNS timed runs of a launch sequence (cudaEvents on the
 * legacy stream around the whole sequence, one warm-up first; timing_init
 * creates the events), the start of a program's main (bench_begin), its
 * CSV rows (put_row) and wrong results (fail), memory (dev_alloc,
 * dev_copy, to_device, to_host, dev_free, host_free) and the instance of a
 * kernel for a launch configuration (with_tk).  Define PROG (the program's
 * name, for messages) before including it.
 *
 * RUNS (default 7) may be set by the build (-DRUNS=N): the profiling
 * drivers build with RUNS=0, which runs every launch sequence exactly once
 * (no warm-up, no timing: the time printed is 0), so that under ncu each
 * configuration's sequence is profiled once; prof_sequences counts the
 * sequences run.
 */
#ifndef MMM_BENCH_GPU_TIMING_CUH
#define MMM_BENCH_GPU_TIMING_CUH

#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <type_traits>
#include <utility>

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
/* The times in ms of RUNS runs of fn(arg) after one warm-up. */
static inline void time_runs(void (*fn)(void *), void *arg, float *t)
{
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
}

/* Median time in ms of RUNS runs of fn(arg) after one warm-up. */
static inline float time_median(void (*fn)(void *), void *arg)
{
    float t[RUNS];
    time_runs(fn, arg, t);
    qsort(t, RUNS, sizeof t[0], cmp_float);
    return t[RUNS / 2];
}

/* Best time in ms of RUNS runs of fn(arg) after one warm-up (the
 * microbenchmarks, which report what the hardware can do). */
static inline float time_best(void (*fn)(void *), void *arg)
{
    float t[RUNS], best = 1e30f;
    time_runs(fn, arg, t);
    for (int r = 0; r < RUNS; r++)
        if (t[r] < best)
            best = t[r];
    return best;
}
#endif

/* The start of a program's main: the GPU named on stderr ("PROG: name, N
 * SMs"), the events created, the CSV header printed. */
static inline void bench_begin(const char *header)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "%s: %s, %d SMs\n", PROG, prop.name, prop.multiProcessorCount);
    timing_init();
    printf("%s\n", header);
}

/* A CSV row, flushed (a run stopped later keeps the rows before). */
__attribute__((format(printf, 1, 2))) static inline void put_row(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

/* A wrong result: "PROG: " and the message on stderr, exit 1. */
__attribute__((format(printf, 1, 2), noreturn)) static inline void fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", PROG);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    exit(1);
}

/* Device memory of n elements: allocated; allocated and filled from h;
 * copies between the two sides; freed, any number at once (host_free: the
 * same for malloc's). */
template <class T> static inline T *dev_alloc(size_t n)
{
    T *d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    return d;
}
template <class T> static inline void to_device(T *d, const T *h, size_t n)
{
    CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
}
template <class T> static inline void to_host(T *h, const T *d, size_t n)
{
    CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}
template <class T> static inline T *dev_copy(const T *h, size_t n)
{
    T *d = dev_alloc<T>(n);
    to_device(d, h, n);
    return d;
}
template <class... P> static inline void dev_free(P... p)
{
    cudaError_t e[] = {cudaFree((void *)p)...};
    for (cudaError_t x : e)
        CHECK(x);
}
template <class... P> static inline void host_free(P... p)
{
    (free((void *)p), ...);
}

/* The instance of a kernel for a launch configuration: f(T, K) with T and
 * K compile-time constants (std::integral_constant, usable as template
 * arguments; +T where a plain int is wanted, as the block size of <<<>>>)
 * equal to the run-time t and k, for t in T0, 2 T0, .. T1 and k in K0,
 * 2 K0, .. K1.  Every pair of the range is compiled (as a table of the
 * instances would); a pair outside it stops the program. */
constexpr int log2c(int v)
{
    return v > 1 ? 1 + log2c(v / 2) : 0;
}
template <int T0, int K0, int NK, class F, int... I>
static inline void with_tk_(int t, int k, F &f, std::integer_sequence<int, I...>)
{
    bool found = ((t == (T0 << (I / NK)) && k == (K0 << (I % NK))
                       ? (f(std::integral_constant<int, (T0 << (I / NK))>(),
                            std::integral_constant<int, (K0 << (I % NK))>()),
                          true)
                       : false) ||
                  ...);
    if (!found)
        fail("no instance for the launch configuration %d, %d\n", t, k);
}
template <int T0, int T1, int K0, int K1, class F>
static inline void with_tk(int t, int k, F &&f)
{
    constexpr int NT = log2c(T1 / T0) + 1, NK = log2c(K1 / K0) + 1;
    with_tk_<T0, K0, NK>(t, k, f, std::make_integer_sequence<int, NT * NK>());
}

#endif
