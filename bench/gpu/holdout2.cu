/*
 * holdout2.cu: a second held-out set, timed after the time model gained
 * latency_exposed (which the first held-out set, holdout.cu, helped to
 * find): a matrix-vector product with one warp per row and a three-kernel
 * prefix sum, over their launch configurations.  Their DAG files,
 * dags/gpu/gemv.xml and dags/gpu/scan.xml, were written before any of these
 * timings was looked at.  Output: CSV rows (program, m, n, tpb, k, time_ms).
 *
 *   nvcc -O3 -arch=sm_90 -o holdout2 bench/gpu/holdout2.cu
 *   ./holdout2 > holdout2.csv
 *
 * Timing: cudaEvents around each launch sequence, one warm-up, median of 7;
 * every result is checked on the host before its row is printed.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "holdout2"
#include "timing.cuh"

/* ------------------------------------------------------------------ */
/* y = A x, A an m x n row-major float matrix: one warp per row, each warp
 * K rows (one after another); a lane adds n/32 products (coalesced reads of
 * the row, x from the L1/L2), then a shuffle reduction (5 steps); lane 0
 * writes y. */

template <int T, int K>
__global__ void gemv(const float *__restrict__ A, const float *__restrict__ x,
                     float *__restrict__ y, int n)
{
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * T + threadIdx.x) >> 5;
    for (int j = 0; j < K; j++) {
        const int row = warp * K + j;
        const float *a = A + (size_t)row * n;
        float s = 0.0f;
        for (int c = lane; c < n; c += 32)
            s += a[c] * x[c];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0)
            y[row] = s;
    }
}

struct gv_arg {
    const float *A, *x;
    float *y;
    int m, n, T, K;
};
static void gv_run(void *p)
{
    struct gv_arg *g = (struct gv_arg *)p;
    with_tk<32, 1024, 1, 8>(g->T, g->K, [&](auto T, auto K) {
        gemv<T, K><<<g->m / (T / 32 * K), +T>>>(g->A, g->x, g->y, g->n);
    });
}

static void bench_gemv(int m, int n)
{
    size_t bytes = (size_t)m * n * sizeof(float);
    float *hA = (float *)malloc(bytes), *hx = (float *)malloc(n * sizeof(float)),
          *hy = (float *)malloc(m * sizeof(float));
    for (size_t i = 0; i < (size_t)m * n; i++)
        hA[i] = (float)((i * 7 + 1) % 9) - 4.0f;
    for (int i = 0; i < n; i++)
        hx[i] = (float)(i % 5) - 2.0f;
    float *dA = dev_copy(hA, (size_t)m * n), *dx = dev_copy(hx, n), *dy = dev_alloc<float>(m);
    for (int T = 32; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct gv_arg g = {dA, dx, dy, m, n, T, K};
            CHECK(cudaMemset(dy, 0, m * sizeof(float)));
            float ms = time_median(gv_run, &g);
            to_host(hy, dy, m);
            /* Small integers: exact in float. */
            for (int r = 0; r < m; r += 97) {
                double want = 0;
                for (int c = 0; c < n; c++)
                    want += (double)hA[(size_t)r * n + c] * hx[c];
                if (hy[r] != (float)want)
                    fail("gemv m=%d T=%d K=%d: y[%d] = %g, want %g\n", m, T, K, r, hy[r], want);
            }
            put_row("gemv,%d,%d,%d,%d,%.5f\n", m, n, T, K, ms);
        }
    dev_free(dA, dx, dy);
    host_free(hA, hx, hy);
}

/* ------------------------------------------------------------------ */
/* Inclusive prefix sum of n ints in three launches: (1) each block scans
 * T*K consecutive words: a thread loads K consecutive words into registers
 * (K words per thread, not coalesced across the warp for K > 1), scans
 * them, a Hillis-Steele scan of the T thread totals in shared memory
 * (log2 T steps, two barriers each), adds its prefix and stores; thread
 * T-1 stores the block's total.  (2) one block of 1024 threads scans the
 * block totals (the same way, in chunks of 1024 with a carry).  (3) every
 * element adds its block's prefix (T threads, K words per thread). */

template <int T>
__device__ int block_scan(int v, int *sh)
{
    sh[threadIdx.x] = v;
    __syncthreads();
    for (int o = 1; o < T; o <<= 1) {
        int t = threadIdx.x >= o ? sh[threadIdx.x - o] : 0;
        __syncthreads();
        sh[threadIdx.x] += t;
        __syncthreads();
    }
    return sh[threadIdx.x];
}

template <int T, int K>
__global__ void scan_blocks(const int *__restrict__ in, int *__restrict__ out,
                            int *__restrict__ sums)
{
    __shared__ int sh[T];
    const size_t base = ((size_t)blockIdx.x * T + threadIdx.x) * K;
    int v[K], s = 0;
#pragma unroll
    for (int j = 0; j < K; j++) {
        s += in[base + j];
        v[j] = s;
    }
    int incl = block_scan<T>(s, sh);
    int excl = incl - s;
#pragma unroll
    for (int j = 0; j < K; j++)
        out[base + j] = v[j] + excl;
    if (threadIdx.x == T - 1)
        sums[blockIdx.x] = incl;
}

__global__ void scan_sums(int *sums, int count)
{
    __shared__ int sh[1024];
    int carry = 0;
    for (int c = 0; c < count; c += 1024) {
        int i = c + threadIdx.x;
        int v = i < count ? sums[i] : 0;
        int incl = block_scan<1024>(v, sh) + carry;
        if (i < count)
            sums[i] = incl - v; /* exclusive prefix of the block totals */
        __syncthreads();
        carry = sh[1023] + carry;
        __syncthreads();
    }
}

template <int T, int K>
__global__ void scan_add(int *__restrict__ out, const int *__restrict__ sums)
{
    const size_t base = ((size_t)blockIdx.x * T + threadIdx.x) * K;
    const int add = sums[blockIdx.x];
#pragma unroll
    for (int j = 0; j < K; j++)
        out[base + j] += add;
}

struct sc_arg {
    const int *in;
    int *out, *sums;
    int n, T, K;
};
static void sc_run(void *p)
{
    struct sc_arg *s = (struct sc_arg *)p;
    const int blocks = s->n / (s->T * s->K);
    with_tk<64, 1024, 1, 8>(s->T, s->K, [&](auto T, auto K) {
        scan_blocks<T, K><<<blocks, +T>>>(s->in, s->out, s->sums);
        scan_sums<<<1, 1024>>>(s->sums, blocks);
        scan_add<T, K><<<blocks, +T>>>(s->out, s->sums);
    });
}

static void bench_scan(int n)
{
    int *h = (int *)malloc(n * sizeof(int)), *g = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = (int)((i * 2654435761u) >> 28) - 7;
    int *din = dev_copy(h, n), *dout = dev_alloc<int>(n), *dsums = dev_alloc<int>(n / 64);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct sc_arg a = {din, dout, dsums, n, T, K};
            float ms = time_median(sc_run, &a);
            to_host(g, dout, n);
            long long s = 0;
            for (int i = 0; i < n; i++) {
                s += h[i];
                if (g[i] != (int)s)
                    fail("scan n=%d T=%d K=%d: out[%d] = %d, want %lld\n", n, T, K, i, g[i], s);
            }
            put_row("scan,,%d,%d,%d,%.5f\n", n, T, K, ms);
        }
    dev_free(din, dout, dsums);
    host_free(h, g);
}

int main(void)
{
    bench_begin("program,m,n,tpb,k,time_ms");
    bench_gemv(16384, 4096);
    bench_gemv(65536, 1024);
    bench_scan(1 << 22);
    bench_scan(1 << 26);
    return 0;
}
