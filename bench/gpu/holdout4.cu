/*
 * holdout4.cu: a fifth held-out set ("set E"): a sum whose threads add
 * consecutive words, a matrix product with 2-D register blocking, one level
 * of a top-down breadth-first search with a contended global counter, and a
 * CSR sparse matrix-vector product with one warp per row, over their launch
 * configurations.  Their DAG files, dags/gpu/seq_reduce.xml, mm2d.xml,
 * bfs_step.xml and vec_spmv.xml, were written from this source and
 * `ptxas -v` before any of these kernels was timed.  Output: CSV rows
 * (program, n, f, d, tpb, k, tile, r, time_ms).
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o holdout4 bench/gpu/holdout4.cu
 *   ./holdout4 > holdout4.csv
 *
 * Timing: cudaEvents around each launch sequence, one warm-up, median of 7;
 * every result is checked on the host before its row is printed (exit 1 on
 * a mismatch).
 */
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "holdout4"
#define RNG_SEED 0x2545f4914f6cdd1dull /* the data drawn by rnd() (host.cuh) */
#include "timing.cuh"
#include "host.cuh"
#include "csr.cuh"
#include "reduce_final.cuh"

/* ------------------------------------------------------------------ */
/* Sum of n floats in two launches.  seq_partial: a block of T threads adds
 * T*K consecutive words, a thread K CONSECUTIVE words (one load each,
 * unrolled: a warp's load instruction touches words K apart), then a tree
 * in shared memory (log2(T) levels, a barrier after each) and thread 0
 * writes the block's sum.  reduce_final (reduce_final.cuh, shared with
 * validate.cu): one block of 1024 threads adds the partial sums (1024
 * apart) and reduces them the same way. */

template <int T, int K>
__global__ void seq_partial(const float *__restrict__ x, float *__restrict__ part)
{
    __shared__ float sh[T];
    const float *p = x + ((size_t)blockIdx.x * T + threadIdx.x) * K;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < K; j++)
        s += p[j];
    sh[threadIdx.x] = s;
    __syncthreads();
    block_tree_sum<T>(sh);
    if (threadIdx.x == 0)
        part[blockIdx.x] = sh[0];
}

struct sq_arg {
    const float *x;
    float *part, *out;
    long n;
    int T, K;
};
static void sq_run(void *p)
{
    struct sq_arg *a = (struct sq_arg *)p;
    const unsigned blocks = (unsigned)(a->n / ((long)a->T * a->K));
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        seq_partial<T, K><<<blocks, +T>>>(a->x, a->part);
    });
    reduce_final<<<1, 1024>>>(a->part, (int)blocks, a->out);
}

static void bench_seq_reduce(long n)
{
    float *h = (float *)xmalloc((size_t)n * sizeof(float)), got;
    /* -1 at even, +1 at odd indices, 0 at multiples of 128: every partial
     * and total sum is a small integer (|block sum| <= T*K, the total
     * n/128 < 2^24), so the float sum is exact in any order. */
    long long want = 0;
    for (long i = 0; i < n; i++) {
        int v = (i & 1) ? 1 : (i % 128 == 0 ? 0 : -1);
        h[i] = (float)v;
        want += v;
    }
    float *dx = dev_copy(h, n), *dpart = dev_alloc<float>(n / 64), *dout = dev_alloc<float>(1);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct sq_arg a = {dx, dpart, dout, n, T, K};
            CHECK(cudaMemset(dout, 0xff, sizeof(float))); /* NaN */
            float ms = time_median(sq_run, &a);
            to_host(&got, dout, 1);
            if (!(fabs((double)got - (double)want) <= 0.5))
                fail("seq_reduce n=%ld T=%d K=%d: %g, want %lld\n", n, T, K, got, want);
            put_row("seq_reduce,%ld,,,%d,%d,,,%.5f\n", n, T, K, ms);
        }
    dev_free(dx, dpart, dout);
    free(h);
}

/* ------------------------------------------------------------------ */
/* C = A B for n x n floats, 2-D register blocking: a block computes a
 * TS x TS tile of C with S x S threads, S = TS/R, each thread R x R outputs
 * (rows ty + i S, columns tx + j S).  Per step of TS columns of A: the
 * block's S*S threads load the TS x TS tiles of A and B, R*R words each per
 * thread (element t + e S*S of the tile, t the thread's index: a warp reads
 * 32 consecutive words of one row), into shared memory (A's tile padded to
 * TS + 1 columns), barrier, then for each of the TS columns R shared loads
 * of A and R of B and R*R fused multiply-adds, barrier. */

template <int TS, int R>
__global__ void mm2d(const float *__restrict__ A, const float *__restrict__ B,
                     float *__restrict__ C, int n)
{
    constexpr int S = TS / R, N = S * S;
    __shared__ float As[TS][TS + 1], Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * S + tx;
    const int row0 = blockIdx.y * TS, col0 = blockIdx.x * TS;
    float acc[R][R];
#pragma unroll
    for (int i = 0; i < R; i++)
#pragma unroll
        for (int j = 0; j < R; j++)
            acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TS) {
#pragma unroll
        for (int e = 0; e < R * R; e++) {
            const int idx = t + e * N, r = idx / TS, c = idx % TS;
            As[r][c] = A[(size_t)(row0 + r) * n + k0 + c];
            Bs[r][c] = B[(size_t)(k0 + r) * n + col0 + c];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TS; kk++) {
            float a[R], b[R];
#pragma unroll
            for (int i = 0; i < R; i++)
                a[i] = As[ty + i * S][kk];
#pragma unroll
            for (int j = 0; j < R; j++)
                b[j] = Bs[kk][tx + j * S];
#pragma unroll
            for (int i = 0; i < R; i++)
#pragma unroll
                for (int j = 0; j < R; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < R; i++)
#pragma unroll
        for (int j = 0; j < R; j++)
            C[(size_t)(row0 + ty + i * S) * n + col0 + tx + j * S] = acc[i][j];
}

struct m2_arg {
    const float *A, *B;
    float *C;
    int n, TS, R;
};
/* The configurations: tile 32 with r = 1, 2, 4 (1024, 256, 64 threads),
 * tile 64 with r = 2, 4 (1024, 256 threads). */
static const int m2_conf[5][2] = {{32, 1}, {32, 2}, {32, 4}, {64, 2}, {64, 4}};

static void m2_run(void *p)
{
    struct m2_arg *a = (struct m2_arg *)p;
    with_tk<32, 64, 1, 4>(a->TS, a->R, [&](auto TS, auto R) {
        if constexpr (TS / R <= 32) { /* at most 1024 threads: the five above */
            dim3 grid(a->n / TS, a->n / TS), block(TS / R, TS / R);
            mm2d<TS, R><<<grid, block>>>(a->A, a->B, a->C, a->n);
        }
    });
}

static void bench_mm2d(int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *hA = (float *)xmalloc(bytes), *hB = (float *)xmalloc(bytes),
          *hC = (float *)xmalloc(bytes);
    double *wrow = (double *)xmalloc(n * sizeof(double)), *wcol = (double *)xmalloc(n * sizeof(double));
    int *pj = (int *)xmalloc(n * sizeof(int)), *pi = (int *)xmalloc(n * sizeof(int));
    for (size_t i = 0; i < (size_t)n * n; i++) {
        hA[i] = (float)((i * 5 + 2) % 13) - 6.0f;
        hB[i] = (float)((i * 3 + 1) % 11) - 5.0f;
    }
    /* Two probes per row and column: (i, pj[i]) in every row i and
     * (pi[j], j) in every column j, spread by hashes.  Small integers:
     * every product and partial sum (< 2^24) is exact in float. */
    for (int i = 0; i < n; i++) {
        pj[i] = (int)(((size_t)i * 2654435761u + 12345) % (size_t)n);
        pi[i] = (int)(((size_t)i * 40503u + 777) % (size_t)n);
        wrow[i] = wcol[i] = 0;
    }
    for (int k = 0; k < n; k++) /* row by row of B */
        for (int i = 0; i < n; i++) {
            wrow[i] += (double)hA[(size_t)i * n + k] * hB[(size_t)k * n + pj[i]];
            wcol[i] += (double)hA[(size_t)pi[i] * n + k] * hB[(size_t)k * n + i];
        }
    float *dA = dev_copy(hA, (size_t)n * n), *dB = dev_copy(hB, (size_t)n * n),
          *dC = dev_alloc<float>((size_t)n * n);
    for (int c = 0; c < 5; c++) {
        const int TS = m2_conf[c][0], R = m2_conf[c][1];
        struct m2_arg a = {dA, dB, dC, n, TS, R};
        CHECK(cudaMemset(dC, 0xff, bytes)); /* NaN: an unwritten output fails */
        float ms = time_median(m2_run, &a);
        to_host(hC, dC, (size_t)n * n);
        for (int i = 0; i < n; i++) {
            const float g1 = hC[(size_t)i * n + pj[i]], g2 = hC[(size_t)pi[i] * n + i];
            if (!(fabs(g1 - wrow[i]) <= 1e-3) || !(fabs(g2 - wcol[i]) <= 1e-3))
                fail("mm2d n=%d TS=%d R=%d: C[%d][%d] = %g (want %g), C[%d][%d] = %g (want %g)\n",
                     n, TS, R, i, pj[i], g1, wrow[i], pi[i], i, g2, wcol[i]);
        }
        put_row("mm2d,%d,,,,,%d,%d,%.5f\n", n, TS, R, ms);
    }
    dev_free(dA, dB, dC);
    host_free(hA, hB, hC, wrow, wcol, pj, pi);
}

/* ------------------------------------------------------------------ */
/* One level of a top-down breadth-first search on a graph of n vertices in
 * CSR, each with d neighbours uniform at random.  The frontier holds f
 * distinct vertices; a block handles T*K of them, a thread K, T apart
 * (coalesced).  For each neighbour v of its vertex u, the thread reads
 * mark[v]; if v is unvisited it claims v with atomicCAS (so exactly one
 * thread discovers each vertex) and appends v to the next frontier at the
 * position an atomicAdd on ONE global counter returns.
 * mark[v] holds the level at which v was visited: INT_MAX for the vertices
 * of earlier levels (the frontier among them), and this level's number
 * `level` once discovered; v is unvisited while mark[v] < level.  Each
 * timed run is given a new level number and counter (level 1, 2, ...), so
 * every run discovers the same vertices from the same start state without
 * a reset inside the timed launch. */

template <int T, int K>
__global__ void bfs_step(const int *__restrict__ rowptr, const int *__restrict__ col,
                         const int *__restrict__ frontier, int *mark, int *count, int *next,
                         int level)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int u = frontier[base + j * T];
        const int end = rowptr[u + 1];
        for (int e = rowptr[u]; e < end; e++) {
            const int v = col[e];
            const int old = mark[v];
            if (old < level && atomicCAS(&mark[v], old, level) == old)
                next[atomicAdd(count, 1)] = v;
        }
    }
}

struct bf_arg {
    const int *rowptr, *col, *frontier;
    int *mark, *count, *next;
    int f, T, K, level;
};
#define BF_LEVELS 16 /* levels (counters) per configuration: 1 + RUNS runs */

static void bf_run(void *p)
{
    struct bf_arg *a = (struct bf_arg *)p;
    a->level++;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        bfs_step<T, K><<<a->f / (T * K), +T>>>(a->rowptr, a->col, a->frontier, a->mark,
                                                a->count + a->level, a->next, a->level);
    });
}

static void bench_bfs_step(int n, int f, int d)
{
    const size_t m = (size_t)n * d;
    int *hrow = (int *)xmalloc(((size_t)n + 1) * sizeof(int)), *hcol = (int *)xmalloc(m * sizeof(int)),
        *hfr = (int *)xmalloc(f * sizeof(int)), *hmark = (int *)xmalloc(n * sizeof(int)),
        *got = (int *)xmalloc(n * sizeof(int)), *hnext = (int *)xmalloc((size_t)f * d * sizeof(int));
    unsigned char *want = (unsigned char *)xmalloc(n), *seen = (unsigned char *)xmalloc(n);
    int hcount[BF_LEVELS];
    for (int i = 0; i <= n; i++)
        hrow[i] = i * d;
    for (size_t e = 0; e < m; e++)
        hcol[e] = (int)(rnd() % (uint32_t)n);
    /* Earlier levels: every vertex with probability 1/2, and the frontier:
     * f distinct vertices (i * 0x9e3779b1 mod n, n a power of 2). */
    for (int v = 0; v < n; v++)
        hmark[v] = (rnd() & 1) ? INT_MAX : 0;
    for (int i = 0; i < f; i++) {
        hfr[i] = (int)(((uint32_t)i * 0x9e3779b1u) & (uint32_t)(n - 1));
        hmark[hfr[i]] = INT_MAX;
    }
    long disc = 0;
    memset(want, 0, n);
    for (int i = 0; i < f; i++)
        for (int e = hrow[hfr[i]]; e < hrow[hfr[i] + 1]; e++)
            if (hmark[hcol[e]] != INT_MAX && !want[hcol[e]]) {
                want[hcol[e]] = 1;
                disc++;
            }
    fprintf(stderr, "holdout4: bfs_step n=%d f=%d d=%d: %ld vertices discovered\n", n, f, d, disc);
    int *drow = dev_copy(hrow, (size_t)n + 1), *dcol = dev_copy(hcol, m), *dfr = dev_copy(hfr, f),
        *dmark = dev_alloc<int>(n), *dcount = dev_alloc<int>(BF_LEVELS),
        *dnext = dev_alloc<int>((size_t)f * d);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct bf_arg a = {drow, dcol, dfr, dmark, dcount, dnext, f, T, K, 0};
            to_device(dmark, hmark, n);
            CHECK(cudaMemset(dcount, 0, BF_LEVELS * sizeof(int)));
            CHECK(cudaMemset(dnext, 0xff, (size_t)f * d * sizeof(int)));
            float ms = time_median(bf_run, &a);
            if (a.level != 1 + RUNS || a.level >= BF_LEVELS)
                fail("bfs_step: %d runs, expected %d\n", a.level, 1 + RUNS);
            /* The last run: its counter, its level's marks, its queue. */
            to_host(hcount, dcount, BF_LEVELS);
            to_host(got, dmark, n);
            to_host(hnext, dnext, (size_t)f * d);
            for (int l = 1; l <= a.level; l++)
                if (hcount[l] != disc)
                    fail("bfs_step n=%d T=%d K=%d: run %d discovered %d, want %ld\n", n, T, K, l,
                         hcount[l], disc);
            for (int v = 0; v < n; v++) {
                const int w = want[v] ? a.level : hmark[v];
                if (got[v] != w)
                    fail("bfs_step n=%d T=%d K=%d: mark[%d] = %d, want %d\n",
                         n, T, K, v, got[v], w);
            }
            memset(seen, 0, n);
            for (long i = 0; i < disc; i++) {
                const int v = hnext[i];
                if (v < 0 || v >= n || !want[v] || seen[v])
                    fail("bfs_step n=%d T=%d K=%d: next[%ld] = %d is not a new vertex or is "
                         "repeated\n", n, T, K, i, v);
                seen[v] = 1;
            }
            put_row("bfs_step,%d,%d,%d,%d,%d,,,%.5f\n", n, f, d, T, K, ms);
        }
    dev_free(drow, dcol, dfr, dmark, dcount, dnext);
    host_free(hrow, hcol, hfr, hmark, got, hnext, want, seen);
}

/* ------------------------------------------------------------------ */
/* y = A x, A an n x n CSR matrix with exactly d nonzeros per row, their
 * columns uniform at random, one warp per row: a warp handles K
 * consecutive rows; for each, its lanes read the row's two offsets (the
 * same words: a broadcast), stride over the row's nonzeros 32 apart
 * (coalesced index and value, gathered x), add their products by
 * __shfl_down_sync (5 steps), and lane 0 writes y. */

template <int T, int K>
__global__ void vec_spmv(const int *__restrict__ rowptr, const int *__restrict__ col,
                         const float *__restrict__ val, const float *__restrict__ x,
                         float *__restrict__ y)
{
    const int lane = threadIdx.x & 31;
    const int row0 = (blockIdx.x * (T / 32) + (threadIdx.x >> 5)) * K;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int row = row0 + j;
        const int end = rowptr[row + 1];
        float s = 0.0f;
        for (int e = rowptr[row] + lane; e < end; e += 32)
            s += val[e] * x[col[e]];
#pragma unroll
        for (int o = 16; o > 0; o >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0)
            y[row] = s;
    }
}

static void vs_run(void *p)
{
    struct csr_arg *a = (struct csr_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        vec_spmv<T, K><<<a->n / (T / 32 * K), +T>>>(a->rowptr, a->col, a->val, a->x, a->y);
    });
}


int main(void)
{
    bench_begin("program,n,f,d,tpb,k,tile,r,time_ms");
    bench_seq_reduce(1L << 25);
    bench_seq_reduce(1L << 30);
    bench_mm2d(1024);
    bench_mm2d(4096);
    bench_bfs_step(1 << 20, 1 << 14, 8);
    bench_bfs_step(1 << 25, 1 << 19, 8);
    bench_csr("vec_spmv", 1 << 18, 64, vs_run);
    bench_csr("vec_spmv", 1 << 23, 32, vs_run);
    return 0;
}
