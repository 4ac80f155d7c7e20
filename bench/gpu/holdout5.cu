/*
 * holdout5.cu: a sixth held-out set ("set F"): a push-style PageRank step
 * with scattered float atomics, a histogram of random keys with integer
 * atomics on bins in global memory, one hooking sweep of connected
 * components with gathered labels and atomicMin, and a 1-D convolution
 * through a shared-memory tile, over their launch configurations.  Their
 * DAG files, dags/gpu/pr_push.xml, histogram.xml, cc_hook.xml and
 * tiled_conv.xml, were written from this source and `ptxas -v` before any
 * of these kernels was timed.  Output: CSV rows
 * (program, n, m, d, bins, tpb, k, time_ms); a cell is blank where the
 * program has no such parameter.
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o holdout5 bench/gpu/holdout5.cu
 *   ./holdout5 > holdout5.csv
 *
 * Timing: cudaEvents around each launch, one warm-up, median of 7
 * (timing.cuh); every result is checked on the host before its row is
 * printed (exit 1 on a mismatch).  The kernels that accumulate (pr_push,
 * histogram) are not reset between the 1 + 7 runs: their result is checked
 * against 8 times one run's, which is exact (small integers).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "holdout5"
#define RNG_SEED 0x853c49e6748fea9bull /* the data drawn by rnd() (host.cuh) */
#include "timing.cuh"
#include "host.cuh"

#define ALL_RUNS (1 + RUNS) /* the warm-up and the timed runs */

/* ------------------------------------------------------------------ */
/* One push-style PageRank step on a graph of n vertices in CSR, each with
 * d out-neighbours uniform at random: vertex u adds rank[u]/d to next[v]
 * for each out-neighbour v with atomicAdd (float; the result unused).  A
 * block handles T*K consecutive vertices, a thread K of them T apart (its
 * rank and offsets: coalesced loads); the division by d is a product by
 * inv_d = 1/d (d a power of 2: exact). */

template <int T, int K>
__global__ void pr_push(const int *__restrict__ rowptr, const int *__restrict__ col,
                        const float *__restrict__ rank, float *next, float inv_d)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int u = base + j * T;
        const float c = rank[u] * inv_d;
        const int end = rowptr[u + 1];
        for (int e = rowptr[u]; e < end; e++)
            atomicAdd(&next[col[e]], c);
    }
}

struct pr_arg {
    const int *rowptr, *col;
    const float *rank;
    float *next, inv_d;
    int n, T, K;
};
static void pr_run(void *p)
{
    struct pr_arg *a = (struct pr_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        pr_push<T, K><<<a->n / (T * K), +T>>>(a->rowptr, a->col, a->rank, a->next, a->inv_d);
    });
}

static void bench_pr_push(int n, int d)
{
    const size_t m = (size_t)n * d;
    int *hrow = (int *)xmalloc(((size_t)n + 1) * sizeof(int)), *hcol = (int *)xmalloc(m * sizeof(int));
    float *hrank = (float *)xmalloc(n * sizeof(float)), *got = (float *)xmalloc(n * sizeof(float));
    long *want = (long *)xmalloc(n * sizeof(long));
    for (int i = 0; i <= n; i++)
        hrow[i] = i * d;
    for (size_t e = 0; e < m; e++)
        hcol[e] = (int)(rnd() % (uint32_t)n);
    /* rank[u] = d c(u), c(u) in 1 .. 4: every contribution rank[u]/d is a
     * small integer, so every float sum (at most 8 runs x in-degree x 4)
     * is exact in any order. */
    memset(want, 0, n * sizeof(long));
    for (int u = 0; u < n; u++) {
        const int c = 1 + (int)(((uint32_t)u * 2654435761u) >> 30);
        hrank[u] = (float)(d * c);
        for (int e = hrow[u]; e < hrow[u + 1]; e++)
            want[hcol[e]] += c;
    }
    int *drow = dev_copy(hrow, (size_t)n + 1), *dcol = dev_copy(hcol, m);
    float *drank = dev_copy(hrank, n), *dnext = dev_alloc<float>(n);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct pr_arg a = {drow, dcol, drank, dnext, 1.0f / (float)d, n, T, K};
            CHECK(cudaMemset(dnext, 0, n * sizeof(float)));
            float ms = time_median(pr_run, &a);
            to_host(got, dnext, n);
            for (int v = 0; v < n; v++)
                if (got[v] != (float)(ALL_RUNS * want[v]))
                    fail("pr_push n=%d d=%d T=%d K=%d: next[%d] = %g, want %ld\n",
                         n, d, T, K, v, got[v], ALL_RUNS * want[v]);
            put_row("pr_push,%d,,%d,,%d,%d,%.5f\n", n, d, T, K, ms);
        }
    dev_free(drow, dcol, drank, dnext);
    host_free(hrow, hcol, hrank, got, want);
}

/* ------------------------------------------------------------------ */
/* Histogram of n uniform random 32-bit keys into `bins` counters in global
 * memory: atomicAdd(&count[key % bins], 1) (an int; the result unused),
 * bins a power of 2, so key % bins is key & (bins - 1).  A block handles
 * T*K keys, a thread K of them T apart (coalesced loads). */

template <int T, int K>
__global__ void histogram(const unsigned *__restrict__ keys, int *count, unsigned mask)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++)
        atomicAdd(&count[keys[base + j * T] & mask], 1);
}

struct hi_arg {
    const unsigned *keys;
    int *count;
    int n, bins, T, K;
};
static void hi_run(void *p)
{
    struct hi_arg *a = (struct hi_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        histogram<T, K><<<a->n / (T * K), +T>>>(a->keys, a->count, (unsigned)(a->bins - 1));
    });
}

static void bench_histogram(int n, int bins)
{
    unsigned *hkeys = (unsigned *)xmalloc((size_t)n * sizeof(unsigned));
    int *want = (int *)xmalloc((size_t)bins * sizeof(int)), *got = (int *)xmalloc((size_t)bins * sizeof(int));
    memset(want, 0, (size_t)bins * sizeof(int));
    for (int i = 0; i < n; i++) {
        hkeys[i] = rnd();
        want[hkeys[i] % (unsigned)bins]++;
    }
    unsigned *dkeys = dev_copy(hkeys, n);
    int *dcount = dev_alloc<int>(bins);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct hi_arg a = {dkeys, dcount, n, bins, T, K};
            CHECK(cudaMemset(dcount, 0, (size_t)bins * sizeof(int)));
            float ms = time_median(hi_run, &a);
            to_host(got, dcount, bins);
            for (int b = 0; b < bins; b++)
                if (got[b] != ALL_RUNS * want[b])
                    fail("histogram n=%d bins=%d T=%d K=%d: count[%d] = %d, want %d\n",
                         n, bins, T, K, b, got[b], ALL_RUNS * want[b]);
            put_row("histogram,%d,,,%d,%d,%d,%.5f\n", n, bins, T, K, ms);
        }
    dev_free(dkeys, dcount);
    host_free(hkeys, want, got);
}

/* ------------------------------------------------------------------ */
/* One hooking sweep of connected components by label propagation over m
 * edges (eu[e], ev[e]) of a graph of n vertices, endpoints uniform at
 * random: lu = label[u], lv = label[v] (two gathers), then
 * atomicMin(&next[w], min(lu, lv)) with w the endpoint whose label is the
 * larger (u on a tie; the result unused).  label is read only, next starts
 * as a copy of it: atomicMin is idempotent, so every run leaves the same
 * next.  A block handles T*K consecutive edges, a thread K of them T apart
 * (coalesced loads of the endpoints). */

template <int T, int K>
__global__ void cc_hook(const int *__restrict__ eu, const int *__restrict__ ev,
                        const int *__restrict__ label, int *next)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int u = eu[base + j * T], v = ev[base + j * T];
        const int lu = label[u], lv = label[v];
        atomicMin(&next[lu >= lv ? u : v], min(lu, lv));
    }
}

struct cc_arg {
    const int *eu, *ev, *label;
    int *next;
    int m, T, K;
};
static void cc_run(void *p)
{
    struct cc_arg *a = (struct cc_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        cc_hook<T, K><<<a->m / (T * K), +T>>>(a->eu, a->ev, a->label, a->next);
    });
}

static void bench_cc_hook(int n, int m)
{
    int *heu = (int *)xmalloc((size_t)m * sizeof(int)), *hev = (int *)xmalloc((size_t)m * sizeof(int)),
        *hlab = (int *)xmalloc((size_t)n * sizeof(int)), *want = (int *)xmalloc((size_t)n * sizeof(int)),
        *got = (int *)xmalloc((size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        hlab[i] = (int)(rnd() % (uint32_t)n);
    for (int e = 0; e < m; e++) {
        heu[e] = (int)(rnd() % (uint32_t)n);
        hev[e] = (int)(rnd() % (uint32_t)n);
    }
    memcpy(want, hlab, (size_t)n * sizeof(int));
    for (int e = 0; e < m; e++) {
        const int u = heu[e], v = hev[e], lu = hlab[u], lv = hlab[v];
        const int w = lu >= lv ? u : v, l = lu < lv ? lu : lv;
        if (l < want[w])
            want[w] = l;
    }
    int *deu = dev_copy(heu, m), *dev = dev_copy(hev, m), *dlab = dev_copy(hlab, n),
        *dnext = dev_alloc<int>(n);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct cc_arg a = {deu, dev, dlab, dnext, m, T, K};
            to_device(dnext, hlab, n);
            float ms = time_median(cc_run, &a);
            to_host(got, dnext, n);
            for (int v = 0; v < n; v++)
                if (got[v] != want[v])
                    fail("cc_hook n=%d m=%d T=%d K=%d: next[%d] = %d, want %d\n",
                         n, m, T, K, v, got[v], want[v]);
            put_row("cc_hook,%d,%d,,,%d,%d,%.5f\n", n, m, T, K, ms);
        }
    dev_free(deu, dev, dlab, dnext);
    host_free(heu, hev, hlab, want, got);
}

/* ------------------------------------------------------------------ */
/* 1-D convolution y[i] = sum_{j < W} w[j] x[i + j], i < n, with W = 33
 * weights in constant memory and x of n + W - 1 floats.  A block computes
 * T*K consecutive outputs: its threads load the T*K + W - 1 input words
 * they need into a shared tile (word t + e T by thread t: coalesced),
 * barrier, then each thread computes K outputs T apart (strided: outputs
 * t, t + T, ..., so that a warp reads 32 consecutive shared words,
 * conflict-free, at each of the W taps) and stores them (coalesced). */

#define CONV_W 33
__constant__ float conv_w[CONV_W];

template <int T, int K>
__global__ void tiled_conv(const float *__restrict__ x, float *__restrict__ y)
{
    constexpr int LEN = T * K + CONV_W - 1;
    __shared__ float tile[LEN];
    const float *xb = x + (size_t)blockIdx.x * T * K;
    for (int e = threadIdx.x; e < LEN; e += T)
        tile[e] = xb[e];
    __syncthreads();
    float *yb = y + (size_t)blockIdx.x * T * K;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int o = threadIdx.x + j * T;
        float s = 0.0f;
#pragma unroll
        for (int t = 0; t < CONV_W; t++)
            s += conv_w[t] * tile[o + t];
        yb[o] = s;
    }
}

struct tc_arg {
    const float *x;
    float *y;
    int n, T, K;
};
static void tc_run(void *p)
{
    struct tc_arg *a = (struct tc_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        tiled_conv<T, K><<<a->n / (T * K), +T>>>(a->x, a->y);
    });
}

static void bench_tiled_conv(int n)
{
    const size_t nx = (size_t)n + CONV_W - 1;
    float *hx = (float *)xmalloc(nx * sizeof(float)), *got = (float *)xmalloc((size_t)n * sizeof(float)),
          hw[CONV_W];
    int *ix = (int *)xmalloc(nx * sizeof(int)), *want = (int *)xmalloc((size_t)n * sizeof(int)), iw[CONV_W];
    /* Small integers (x in -4 .. 4, w in -3 .. 3): every product and sum
     * (|y| <= 33 * 12) is exact in float, in any order. */
    for (int t = 0; t < CONV_W; t++) {
        iw[t] = (t * 5 + 1) % 7 - 3;
        hw[t] = (float)iw[t];
    }
    for (size_t i = 0; i < nx; i++) {
        ix[i] = (int)(rnd() % 9) - 4;
        hx[i] = (float)ix[i];
    }
    for (int i = 0; i < n; i++) {
        int s = 0;
        for (int t = 0; t < CONV_W; t++)
            s += iw[t] * ix[(size_t)i + t];
        want[i] = s;
    }
    CHECK(cudaMemcpyToSymbol(conv_w, hw, sizeof hw));
    float *dx = dev_copy(hx, nx), *dy = dev_alloc<float>(n);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct tc_arg a = {dx, dy, n, T, K};
            CHECK(cudaMemset(dy, 0xff, (size_t)n * sizeof(float))); /* NaN: an unwritten output fails */
            float ms = time_median(tc_run, &a);
            to_host(got, dy, n);
            for (int i = 0; i < n; i++)
                if (got[i] != (float)want[i])
                    fail("tiled_conv n=%d T=%d K=%d: y[%d] = %g, want %d\n",
                         n, T, K, i, got[i], want[i]);
            put_row("tiled_conv,%d,,,,%d,%d,%.5f\n", n, T, K, ms);
        }
    dev_free(dx, dy);
    host_free(hx, got, ix, want);
}

int main(void)
{
    bench_begin("program,n,m,d,bins,tpb,k,time_ms");
    bench_pr_push(1 << 19, 8);
    bench_pr_push(1 << 24, 8);
    bench_histogram(1 << 26, 1 << 16);
    bench_histogram(1 << 26, 1 << 26);
    bench_cc_hook(1 << 20, 1 << 21);
    bench_cc_hook(1 << 24, 1 << 26);
    bench_tiled_conv(1 << 22);
    bench_tiled_conv(1 << 26);
    return 0;
}
