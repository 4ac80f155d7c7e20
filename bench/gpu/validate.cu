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

typedef void (*reduce_fn)(const float *, float *, int);

template <int T, int K>
static void reduce_launch(const float *x, float *part, int blocks)
{
    reduce_partial<T, K><<<blocks, T>>>(x, part);
}

#define RK(T)                                                                 \
    {reduce_launch<T, 1>, reduce_launch<T, 2>, reduce_launch<T, 4>,           \
     reduce_launch<T, 8>, reduce_launch<T, 16>, reduce_launch<T, 32>,         \
     reduce_launch<T, 64>}
static const reduce_fn reduce_table[5][7] = {RK(64), RK(128), RK(256),
                                             RK(512), RK(1024)};

static void reduce_run(void *a)
{
    struct reduce_arg *r = (struct reduce_arg *)a;
    int blocks = (int)(r->n / ((long)r->T * r->K));
    reduce_table[log2i(r->T) - 6][log2i(r->K)](r->x, r->part, blocks);
    reduce_final<<<1, 1024>>>(r->part, blocks, r->out);
}

static void bench_reduce(long n, int quick)
{
    float *hx = (float *)malloc(n * sizeof(float)), *dx, *dpart, *dout, got;
    double want = 0;
    for (long i = 0; i < n; i++) {
        hx[i] = (float)((i * 2654435761u) % 1000) / 1000.0f;
        want += hx[i];
    }
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dpart, (n / 64) * sizeof(float)));
    CHECK(cudaMalloc(&dout, sizeof(float)));
    CHECK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 64; K *= 2) {
            if (quick && (T != 256 || K > 4))
                continue;
            struct reduce_arg r = {dx, dpart, dout, n, T, K};
            float ms = time_median(reduce_run, &r);
            CHECK(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost));
            if (fabs(got - want) > 1e-4 * want) {
                fprintf(stderr, "validate: reduce n=%ld T=%d K=%d: %g, want %g\n",
                        n, T, K, got, want);
                exit(1);
            }
            printf("reduce,%ld,%d,%d,,,%.5f,\n", n, T, K, ms);
            fflush(stdout);
        }
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dout));
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

typedef void (*mm_fn)(const float *, const float *, float *, int);

template <int TS, int R>
static void mm_launch(const float *A, const float *B, float *C, int n)
{
    dim3 grid(n / TS, n / TS), block(TS, TS / R);
    mm_tiled<TS, R><<<grid, block>>>(A, B, C, n);
}

static const mm_fn mm_table[3][4] = {
    {mm_launch<8, 1>, mm_launch<8, 2>, mm_launch<8, 4>, mm_launch<8, 8>},
    {mm_launch<16, 1>, mm_launch<16, 2>, mm_launch<16, 4>, mm_launch<16, 8>},
    {mm_launch<32, 1>, mm_launch<32, 2>, mm_launch<32, 4>, mm_launch<32, 8>}};

static void mm_run(void *a)
{
    struct mm_arg *m = (struct mm_arg *)a;
    mm_table[log2i(m->TS) - 3][log2i(m->R)](m->A, m->B, m->C, m->n);
}

static void bench_matmul(int n, int quick)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *hA = (float *)malloc(bytes), *hB = (float *)malloc(bytes),
          *hC = (float *)malloc(bytes), *dA, *dB, *dC;
    for (size_t i = 0; i < (size_t)n * n; i++) {
        hA[i] = (float)((i * 7 + 3) % 17) - 8.0f;
        hB[i] = (float)((i * 5 + 1) % 13) - 6.0f;
    }
    CHECK(cudaMalloc(&dA, bytes));
    CHECK(cudaMalloc(&dB, bytes));
    CHECK(cudaMalloc(&dC, bytes));
    CHECK(cudaMemcpy(dA, hA, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, hB, bytes, cudaMemcpyHostToDevice));
    for (int TS = 8; TS <= 32; TS *= 2)
        for (int R = 1; R <= 8; R *= 2) {
            if (quick && (TS != 16 || R > 2))
                continue;
            struct mm_arg m = {dA, dB, dC, n, TS, R};
            CHECK(cudaMemset(dC, 0, bytes));
            float ms = time_median(mm_run, &m);
            CHECK(cudaMemcpy(hC, dC, bytes, cudaMemcpyDeviceToHost));
            /* Small integers: every product and sum is exact in float. */
            for (int probe = 0; probe < 64; probe++) {
                int i = (probe * 97 + 13) % n, j = (probe * 131 + 7) % n;
                double want = 0;
                for (int k = 0; k < n; k++)
                    want += (double)hA[(size_t)i * n + k] * hB[(size_t)k * n + j];
                if (hC[(size_t)i * n + j] != (float)want) {
                    fprintf(stderr, "validate: matmul n=%d TS=%d R=%d: C[%d][%d] = %g, want %g\n",
                            n, TS, R, i, j, hC[(size_t)i * n + j], want);
                    exit(1);
                }
            }
            printf("matmul,%d,,,%d,%d,%.5f,\n", n, TS, R, ms);
            fflush(stdout);
        }
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    free(hA);
    free(hB);
    free(hC);
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

typedef void (*pr_fn)(const int *, const int *, const float *, float *, int);

template <int T, int K>
static void pr_launch(const int *rowp, const int *src, const float *in,
                      float *out, int blocks)
{
    pr_sweep<T, K><<<blocks, T>>>(rowp, src, in, out, 0.15f, 0.85f);
}

#define PK(T) {pr_launch<T, 1>, pr_launch<T, 2>, pr_launch<T, 4>, pr_launch<T, 8>}
static const pr_fn pr_table[6][4] = {PK(32), PK(64), PK(128), PK(256), PK(512), PK(1024)};

static void pr_run(void *a)
{
    struct pr_arg *p = (struct pr_arg *)a;
    int blocks = p->n / (p->T * p->K);
    for (int it = 0; it < PR_ITER; it++) {
        const float *in = (it & 1) ? p->r1 : p->r0;
        float *out = (it & 1) ? p->r0 : p->r1;
        pr_table[log2i(p->T) - 5][log2i(p->K)](p->rowp, p->src, in, out, blocks);
    }
}

static void bench_pagerank(int n, int d, int quick)
{
    size_t m = (size_t)n * d;
    int *hrow = (int *)malloc((n + 1) * sizeof(int)), *hsrc = (int *)malloc(m * sizeof(int));
    float *hr = (float *)malloc(n * sizeof(float)), *hr1 = (float *)malloc(n * sizeof(float));
    int *drow, *dsrc;
    float *dr0, *dr1;
    uint64_t st = 88172645463325252ull;
    for (int v = 0; v <= n; v++)
        hrow[v] = v * d;
    for (size_t e = 0; e < m; e++) {
        st ^= st << 13, st ^= st >> 7, st ^= st << 17;
        hsrc[e] = (int)(st % (uint64_t)n);
    }
    for (int v = 0; v < n; v++)
        hr[v] = 1.0f / n;
    CHECK(cudaMalloc(&drow, (n + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dsrc, m * sizeof(int)));
    CHECK(cudaMalloc(&dr0, n * sizeof(float)));
    CHECK(cudaMalloc(&dr1, n * sizeof(float)));
    CHECK(cudaMemcpy(drow, hrow, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dsrc, hsrc, m * sizeof(int), cudaMemcpyHostToDevice));
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
            CHECK(cudaMemcpy(dr0, hr, n * sizeof(float), cudaMemcpyHostToDevice));
            float ms = time_median(pr_run, &p);
            /* Check one sweep from the start. */
            CHECK(cudaMemcpy(dr0, hr, n * sizeof(float), cudaMemcpyHostToDevice));
            pr_table[log2i(T) - 5][log2i(K)](drow, dsrc, dr0, dr1, n / (T * K));
            float *got = (float *)malloc(n * sizeof(float));
            CHECK(cudaMemcpy(got, dr1, n * sizeof(float), cudaMemcpyDeviceToHost));
            for (int v = 0; v < n; v += 997)
                if (fabsf(got[v] - hr1[v]) > 1e-5f * fabsf(hr1[v])) {
                    fprintf(stderr, "validate: pagerank n=%d T=%d K=%d: out[%d] = %g, want %g\n",
                            n, T, K, v, got[v], hr1[v]);
                    exit(1);
                }
            free(got);
            printf("pagerank,%d,%d,%d,,,%.5f,%d\n", n, T, K, ms, d);
            fflush(stdout);
        }
    CHECK(cudaFree(drow));
    CHECK(cudaFree(dsrc));
    CHECK(cudaFree(dr0));
    CHECK(cudaFree(dr1));
    free(hrow);
    free(hsrc);
    free(hr);
    free(hr1);
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    fprintf(stderr, "validate: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    timing_init();
    printf("program,n,tpb,k,tile,r,time_ms,d\n");
    bench_reduce(1L << 20, quick);
    bench_reduce(1L << 24, quick);
    bench_reduce(1L << 28, quick);
    bench_matmul(1024, quick);
    bench_matmul(4096, quick);
    bench_pagerank(1 << 20, 16, quick);
    bench_pagerank(1 << 24, 4, quick);
    return 0;
}
