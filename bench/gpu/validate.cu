/*
 * validate.cu: times three kinds of kernel that the time model was never
 * fitted to -- a tree reduction, a shared-memory tiled matrix product and a
 * pull-style PageRank sweep over a random graph -- over their launch
 * configurations (threads per block, work per thread), and prints one CSV
 * row per configuration in the form `mmm fit` and bench/validate.py read.
 * The DAG files that describe these launches are dags/gpu/reduce.xml,
 * dags/gpu/matmul.xml and dags/gpu/pagerank.xml; docs/fidelity.md (section
 * 7) compares the configuration mmm picks with the fastest one measured.
 *
 *   nvcc -O3 -arch=sm_90 -o validate bench/gpu/validate.cu
 *   ./validate [--quick] > runs.csv
 *
 * Timing: cudaEvents on the launch stream around the whole launch sequence
 * of one configuration (first kernel to last), one warm-up run, then the
 * median of 7 runs.  Every result is checked against a computation on the
 * host; a wrong result stops the program (exit 1) before any row of that
 * configuration is printed.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "validate"
#include "timing.cuh"
#include "reduce_final.cuh"

/* ------------------------------------------------------------------ */
/* Reduction: partial sums of T*K consecutive words per block (each thread
 * K words, T apart, so every load instruction of a warp is coalesced; the K
 * loads are unrolled and independent), a tree in shared memory with a
 * barrier per level, then one block of 1024 threads sums the partials. */

template <int T, int K>
__global__ void reduce_partial(const float *__restrict__ x,
                               float *__restrict__ part)
{
    __shared__ float sh[T];
    const float *p = x + (size_t)blockIdx.x * T * K + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < K; j++)
        s += p[(size_t)j * T];
    sh[threadIdx.x] = s;
    __syncthreads();
    block_tree_sum<T>(sh);
    if (threadIdx.x == 0)
        part[blockIdx.x] = sh[0];
}

struct reduce_arg {
    const float *x;
    float *part, *out;
    long n;
    int T, K;
};

static void reduce_run(void *a)
{
    struct reduce_arg *r = (struct reduce_arg *)a;
    int blocks = (int)(r->n / ((long)r->T * r->K));
    with_tk<64, 1024, 1, 64>(r->T, r->K, [&](auto T, auto K) {
        reduce_partial<T, K><<<blocks, +T>>>(r->x, r->part);
    });
    reduce_final<<<1, 1024>>>(r->part, blocks, r->out);
}

static void bench_reduce(long n, int quick)
{
    float *hx = (float *)malloc(n * sizeof(float)), got;
    double want = 0;
    for (long i = 0; i < n; i++) {
        hx[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
        want += hx[i];
    }
    float *dx = dev_copy(hx, n), *dpart = dev_alloc<float>(n / 64), *dout = dev_alloc<float>(1);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 64; K *= 2) {
            if (quick && (T != 256 || K > 4))
                continue;
            struct reduce_arg r = {dx, dpart, dout, n, T, K};
            float ms = time_median(reduce_run, &r);
            to_host(&got, dout, 1);
            if (fabs(got - want) > 1e-4 * want)
                fail("reduce n=%ld T=%d K=%d: %g, want %g\n", n, T, K, got, want);
            put_row("reduce,%ld,%d,%d,,,%.5f,\n", n, T, K, ms);
        }
    dev_free(dx, dpart, dout);
    free(hx);
}

/* ------------------------------------------------------------------ */
/* Tiled matrix product C = A B of n x n floats: a block computes a TS x TS
 * tile of C with TS x TS/R threads, each thread R elements of one column
 * (rows TS/R apart); per step of TS columns of A, the block stages a TS x TS
 * tile of A and of B in shared memory (every thread R words of each),
 * barrier, TS x R fused multiply-adds per thread, barrier. */

template <int TS, int R>
__global__ void mm_tiled(const float *__restrict__ A,
                         const float *__restrict__ B, float *__restrict__ C,
                         int n)
{
    __shared__ float As[TS][TS], Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row0 = blockIdx.y * TS, col = blockIdx.x * TS + tx;
    float acc[R];
#pragma unroll
    for (int i = 0; i < R; i++)
        acc[i] = 0.0f;
    for (int t = 0; t < n; t += TS) {
#pragma unroll
        for (int i = 0; i < R; i++) {
            int rr = ty + i * (TS / R);
            As[rr][tx] = A[(size_t)(row0 + rr) * n + t + tx];
            Bs[rr][tx] = B[(size_t)(t + rr) * n + col];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TS; kk++) {
            float b = Bs[kk][tx];
#pragma unroll
            for (int i = 0; i < R; i++)
                acc[i] += As[ty + i * (TS / R)][kk] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < R; i++)
        C[(size_t)(row0 + ty + i * (TS / R)) * n + col] = acc[i];
}

struct mm_arg {
    const float *A, *B;
    float *C;
    int n, TS, R;
};

static void mm_run(void *a)
{
    struct mm_arg *m = (struct mm_arg *)a;
    with_tk<8, 32, 1, 8>(m->TS, m->R, [&](auto TS, auto R) {
        dim3 grid(m->n / TS, m->n / TS), block(TS, TS / R);
        mm_tiled<TS, R><<<grid, block>>>(m->A, m->B, m->C, m->n);
    });
}

static void bench_matmul(int n, int quick)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes),
          *hC = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++) {
        hA[i] = (float)((i * 7 + 3) % 17) - 8.0f;
        hB[i] = (float)((i * 5 + 1) % 13) - 6.0f;
    }
    float *dA = dev_copy(hA, (size_t)n * n), *dB = dev_copy(hB, (size_t)n * n),
          *dC = dev_alloc<float>((size_t)n * n);
    for (int TS = 8; TS <= 32; TS *= 2)
        for (int R = 1; R <= 8; R *= 2) {
            if (quick && (TS != 16 || R > 2))
                continue;
            struct mm_arg m = {dA, dB, dC, n, TS, R};
            CHECK(cudaMemset(dC, 0, bytes));
            float ms = time_median(mm_run, &m);
            to_host(hC, dC, (size_t)n * n);
            /* Small integers: every product and sum is exact in float. */
            for (int probe = 0; probe < 64; probe++) {
                int i = (probe * 97 + 13) % n, j = (probe * 131 + 7) % n;
                double want = 0;
                for (int k = 0; k < n; k++)
                    want += (double)hA[(size_t)i * n + k] * hB[(size_t)k * n + j];
                if (hC[(size_t)i * n + j] != (float)want)
                    fail("matmul n=%d TS=%d R=%d: C[%d][%d] = %g, want %g\n", n, TS, R, i, j,
                         hC[(size_t)i * n + j], want);
            }
            put_row("matmul,%d,,,%d,%d,%.5f,\n", n, TS, R, ms);
        }
    dev_free(dA, dB, dC);
    host_free(hA, hB, hC);
}

/* ------------------------------------------------------------------ */
/* PageRank, pull style, over a random graph of n vertices with exactly d
 * in-edges each (sources uniform at random), stored in CSR (row offsets,
 * source ids).  One sweep: out[v] = base + a * sum of in[u] over v's
 * in-edges.  A thread handles K vertices, T apart (so neighbouring threads
 * read neighbouring offsets); ITER sweeps in a chain, ping-pong. */

#define PR_ITER 10

template <int T, int K>
__global__ void pr_sweep(const int *__restrict__ rowp,
                         const int *__restrict__ src,
                         const float *__restrict__ in, float *__restrict__ out,
                         float base, float a)
{
    const int v0 = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++) {
        int v = v0 + j * T;
        int e0 = rowp[v], e1 = rowp[v + 1];
        float s = 0.0f;
        for (int e = e0; e < e1; e++)
            s += in[src[e]];
        out[v] = base + a * s;
    }
}

struct pr_arg {
    const int *rowp, *src;
    float *r0, *r1;
    int n, T, K;
};

/* One sweep of the configuration T, K, from in to out. */
static void pr_launch(int T, int K, const int *rowp, const int *src, const float *in,
                      float *out, int blocks)
{
    with_tk<32, 1024, 1, 8>(T, K, [&](auto T, auto K) {
        pr_sweep<T, K><<<blocks, +T>>>(rowp, src, in, out, 0.15f, 0.85f);
    });
}

static void pr_run(void *a)
{
    struct pr_arg *p = (struct pr_arg *)a;
    int blocks = p->n / (p->T * p->K);
    for (int it = 0; it < PR_ITER; it++) {
        const float *in = (it & 1) ? p->r1 : p->r0;
        float *out = (it & 1) ? p->r0 : p->r1;
        pr_launch(p->T, p->K, p->rowp, p->src, in, out, blocks);
    }
}

static void bench_pagerank(int n, int d, int quick)
{
    size_t m = (size_t)n * d;
    int *hrow = (int *)malloc((n + 1) * sizeof(int)), *hsrc = (int *)malloc(m * sizeof(int));
    float *hr = (float *)malloc(n * sizeof(float)), *hr1 = (float *)malloc(n * sizeof(float));
    uint64_t st = 88172645463325252ull;
    for (int v = 0; v <= n; v++)
        hrow[v] = v * d;
    for (size_t e = 0; e < m; e++) {
        st ^= st << 13, st ^= st >> 7, st ^= st << 17;
        hsrc[e] = (int)(st % (uint64_t)n);
    }
    for (int v = 0; v < n; v++)
        hr[v] = 1.0f / n;
    int *drow = dev_copy(hrow, n + 1), *dsrc = dev_copy(hsrc, m);
    float *dr0 = dev_alloc<float>(n), *dr1 = dev_alloc<float>(n);
    /* The expected first sweep, on the host. */
    for (int v = 0; v < n; v++) {
        float s = 0.0f;
        for (int e = hrow[v]; e < hrow[v + 1]; e++)
            s += hr[hsrc[e]];
        hr1[v] = 0.15f + 0.85f * s;
    }
    for (int T = 32; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            if (quick && (T != 256 || K > 2))
                continue;
            struct pr_arg p = {drow, dsrc, dr0, dr1, n, T, K};
            to_device(dr0, hr, n);
            float ms = time_median(pr_run, &p);
            /* Check one sweep from the start. */
            to_device(dr0, hr, n);
            pr_launch(T, K, drow, dsrc, dr0, dr1, n / (T * K));
            float *got = (float *)malloc(n * sizeof(float));
            to_host(got, dr1, n);
            for (int v = 0; v < n; v += 997)
                if (fabsf(got[v] - hr1[v]) > 1e-5f * fabsf(hr1[v]))
                    fail("pagerank n=%d T=%d K=%d: out[%d] = %g, want %g\n", n, T, K, v, got[v],
                         hr1[v]);
            free(got);
            put_row("pagerank,%d,%d,%d,,,%.5f,%d\n", n, T, K, ms, d);
        }
    dev_free(drow, dsrc, dr0, dr1);
    host_free(hrow, hsrc, hr, hr1);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    bench_begin("program,n,tpb,k,tile,r,time_ms,d");
    bench_reduce(1L << 20, quick);
    bench_reduce(1L << 24, quick);
    bench_reduce(1L << 28, quick);
    bench_matmul(1024, quick);
    bench_matmul(4096, quick);
    bench_pagerank(1 << 20, 16, quick);
    bench_pagerank(1 << 24, 4, quick);
    return 0;
}
