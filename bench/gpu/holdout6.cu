/*
 * holdout6.cu: a seventh held-out set ("set G"): column sums of a short,
 * wide matrix with a thread per column, a histogram of 256 bins privatized
 * in shared memory (shared atomics, then one global atomic per bin and
 * block), a batch of 32 x 32 matrix products through shared tiles, and
 * triangle counting by sorted-list intersection over the edges of a graph
 * whose neighbours lie in a window, over their launch configurations.
 * Their DAG files, dags/gpu/col_sum.xml, block_hist.xml, batched_mm.xml and
 * tri_count.xml, were written from this source and `ptxas -v` before any
 * of these kernels was timed.  Output: CSV rows
 * (program, n, d, rows, cols, bins, batch, tpb, k, time_ms); a cell is
 * blank where the program has no such parameter.
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o holdout6 bench/gpu/holdout6.cu
 *   ./holdout6 > holdout6.csv
 *
 * Timing: cudaEvents around each launch, one warm-up, median of 7
 * (timing.cuh); every result is checked on the host before its row is
 * printed (exit 1 on a mismatch).  block_hist accumulates: it is not reset
 * between the 1 + 7 runs, and its counts are checked against 8 times one
 * run's (exact: integers).
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "holdout6"
#define RNG_SEED 0x2545f4914f6cdd1dull /* the data drawn by rnd() (host.cuh) */
#include "timing.cuh"
#include "host.cuh"

#define ALL_RUNS (1 + RUNS) /* the warm-up and the timed runs */

/* Compare n floats with n ints (exact), exit 1 with a message at the first
 * difference. */
static void check_exact(const char *what, const float *got, const int *want, size_t n, int T, int K)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != (float)want[i])
            fail("%s T=%d K=%d: [%zu] = %g, want %d\n", what, T, K, i, got[i], want[i]);
}

/* ------------------------------------------------------------------ */
/* Column sums y[c] = sum_r x[r][c] of a rows x cols row-major float
 * matrix with few rows and many columns: a thread per column, no shuffles,
 * no barriers.  A block handles T*K consecutive columns, a thread K of them
 * T apart; for each row it loads its K words (each load instruction of a
 * warp: 32 consecutive words) and adds them to K running sums. */

template <int T, int K>
__global__ void col_sum(const float *__restrict__ x, float *__restrict__ y, int rows, int cols)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
    float s[K];
#pragma unroll
    for (int j = 0; j < K; j++)
        s[j] = 0.0f;
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols + base;
#pragma unroll
        for (int j = 0; j < K; j++)
            s[j] += xr[j * T];
    }
#pragma unroll
    for (int j = 0; j < K; j++)
        y[base + j * T] = s[j];
}

struct cs_arg {
    const float *x;
    float *y;
    int rows, cols, T, K;
};
static void cs_run(void *p)
{
    struct cs_arg *a = (struct cs_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        col_sum<T, K><<<a->cols / (T * K), +T>>>(a->x, a->y, a->rows, a->cols);
    });
}

static void bench_col_sum(int rows, int cols)
{
    const size_t nx = (size_t)rows * cols;
    float *hx = (float *)xmalloc(nx * sizeof(float)), *got = (float *)xmalloc((size_t)cols * sizeof(float));
    int *want = (int *)xmalloc((size_t)cols * sizeof(int));
    char what[64];
    /* Small integers (-8 .. 7): every sum (|y| <= 8 rows) is exact in
     * float, in any order. */
    memset(want, 0, (size_t)cols * sizeof(int));
    for (size_t i = 0; i < nx; i++) {
        const int v = (int)(rnd() >> 28) - 8;
        hx[i] = (float)v;
        want[i % (size_t)cols] += v;
    }
    float *dx = dev_copy(hx, nx), *dy = dev_alloc<float>(cols);
    snprintf(what, sizeof what, "col_sum rows=%d cols=%d", rows, cols);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct cs_arg a = {dx, dy, rows, cols, T, K};
            CHECK(cudaMemset(dy, 0xff, (size_t)cols * sizeof(float))); /* NaN: an unwritten sum fails */
            float ms = time_median(cs_run, &a);
            to_host(got, dy, cols);
            check_exact(what, got, want, (size_t)cols, T, K);
            put_row("col_sum,,,%d,%d,,,%d,%d,%.5f\n", rows, cols, T, K, ms);
        }
    dev_free(dx, dy);
    host_free(hx, got, want);
}

/* ------------------------------------------------------------------ */
/* Histogram of n uniform random 32-bit keys into HB = 256 bins, privatized
 * per block: the block zeroes its 256 shared counters, barrier, each
 * thread adds its K keys (T apart: coalesced loads) with a shared
 * atomicAdd on counter key & 255, barrier, then the block adds each of its
 * 256 counters to the global one with atomicAdd (the result unused; zero
 * counters too, so that the work does not depend on the data). */

#define HB 256

template <int T, int K>
__global__ void block_hist(const unsigned *__restrict__ keys, int *count)
{
    __shared__ int h[HB];
    for (int i = threadIdx.x; i < HB; i += T)
        h[i] = 0;
    __syncthreads();
    const int base = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++)
        atomicAdd(&h[keys[base + j * T] & (HB - 1)], 1);
    __syncthreads();
    for (int i = threadIdx.x; i < HB; i += T)
        atomicAdd(&count[i], h[i]);
}

struct bh_arg {
    const unsigned *keys;
    int *count;
    int n, T, K;
};
static void bh_run(void *p)
{
    struct bh_arg *a = (struct bh_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        block_hist<T, K><<<a->n / (T * K), +T>>>(a->keys, a->count);
    });
}

static void bench_block_hist(int n)
{
    unsigned *hkeys = (unsigned *)xmalloc((size_t)n * sizeof(unsigned));
    int want[HB], got[HB];
    memset(want, 0, sizeof want);
    for (int i = 0; i < n; i++) {
        hkeys[i] = rnd();
        want[hkeys[i] % HB]++;
    }
    unsigned *dkeys = dev_copy(hkeys, n);
    int *dcount = dev_alloc<int>(HB);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct bh_arg a = {dkeys, dcount, n, T, K};
            CHECK(cudaMemset(dcount, 0, sizeof got));
            float ms = time_median(bh_run, &a);
            to_host(got, dcount, HB);
            for (int b = 0; b < HB; b++)
                if (got[b] != ALL_RUNS * want[b])
                    fail("block_hist n=%d T=%d K=%d: count[%d] = %d, want %d\n",
                         n, T, K, b, got[b], ALL_RUNS * want[b]);
            put_row("block_hist,%d,,,,%d,,%d,%d,%.5f\n", n, HB, T, K, ms);
        }
    dev_free(dkeys, dcount);
    free(hkeys);
}

/* ------------------------------------------------------------------ */
/* A batch of products C_p = A_p B_p of 32 x 32 row-major float matrices,
 * stored one after another.  A block of T threads computes K products one
 * after another: for each, its threads load A_p and B_p into shared tiles
 * (word t + e T by thread t, e < 1024/T: coalesced), barrier, then thread t
 * computes the Q = 1024/T outputs of column t % 32 in rows t/32 + q T/32
 * (a warp: one row, 32 consecutive columns; A's word is a broadcast, B's
 * row 32 consecutive words), stores them (coalesced), barrier (the tiles
 * are reloaded for the next product). */

#define MS 32 /* the matrices' order */

template <int T, int K>
__global__ void batched_mm(const float *__restrict__ A, const float *__restrict__ B,
                           float *__restrict__ C)
{
    constexpr int Q = MS * MS / T;
    __shared__ float As[MS * MS], Bs[MS * MS];
    const int col = threadIdx.x % MS, row = threadIdx.x / MS;
#pragma unroll 1
    for (int j = 0; j < K; j++) {
        const size_t off = ((size_t)blockIdx.x * K + j) * MS * MS;
#pragma unroll
        for (int e = 0; e < Q; e++) {
            As[threadIdx.x + e * T] = A[off + threadIdx.x + e * T];
            Bs[threadIdx.x + e * T] = B[off + threadIdx.x + e * T];
        }
        __syncthreads();
        float acc[Q];
#pragma unroll
        for (int q = 0; q < Q; q++)
            acc[q] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < MS; kk++) {
            const float b = Bs[kk * MS + col];
#pragma unroll
            for (int q = 0; q < Q; q++)
                acc[q] += As[(row + q * (T / MS)) * MS + kk] * b;
        }
#pragma unroll
        for (int q = 0; q < Q; q++)
            C[off + (row + q * (T / MS)) * MS + col] = acc[q];
        __syncthreads();
    }
}

struct bm_arg {
    const float *A, *B;
    float *C;
    int batch, T, K;
};
static void bm_run(void *p)
{
    struct bm_arg *a = (struct bm_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        batched_mm<T, K><<<a->batch / K, +T>>>(a->A, a->B, a->C);
    });
}

static void bench_batched_mm(int batch)
{
    const size_t nw = (size_t)batch * MS * MS;
    float *ha = (float *)xmalloc(nw * sizeof(float)), *hb = (float *)xmalloc(nw * sizeof(float)),
          *got = (float *)xmalloc(nw * sizeof(float));
    int *ia = (int *)xmalloc(nw * sizeof(int)), *ib = (int *)xmalloc(nw * sizeof(int)),
        *want = (int *)xmalloc(nw * sizeof(int));
    char what[64];
    /* Small integers (-4 .. 4): every product and sum (|c| <= 32 * 16) is
     * exact in float, in any order. */
    for (size_t i = 0; i < nw; i++) {
        const uint32_t r = rnd();
        ia[i] = (int)(r % 9) - 4;
        ib[i] = (int)((r >> 16) % 9) - 4;
        ha[i] = (float)ia[i];
        hb[i] = (float)ib[i];
    }
    for (int p = 0; p < batch; p++) {
        const int *a = ia + (size_t)p * MS * MS, *b = ib + (size_t)p * MS * MS;
        int *c = want + (size_t)p * MS * MS;
        for (int r = 0; r < MS; r++)
            for (int cc = 0; cc < MS; cc++) {
                int s = 0;
                for (int t = 0; t < MS; t++)
                    s += a[r * MS + t] * b[t * MS + cc];
                c[r * MS + cc] = s;
            }
    }
    float *dA = dev_copy(ha, nw), *dB = dev_copy(hb, nw), *dC = dev_alloc<float>(nw);
    snprintf(what, sizeof what, "batched_mm batch=%d", batch);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct bm_arg a = {dA, dB, dC, batch, T, K};
            CHECK(cudaMemset(dC, 0xff, nw * sizeof(float))); /* NaN: an unwritten output fails */
            float ms = time_median(bm_run, &a);
            to_host(got, dC, nw);
            check_exact(what, got, want, nw, T, K);
            put_row("batched_mm,,,,,,%d,%d,%d,%.5f\n", batch, T, K, ms);
        }
    dev_free(dA, dB, dC);
    host_free(ha, hb, got, ia, ib, want);
}

/* ------------------------------------------------------------------ */
/* Triangle counting by sorted-list intersection: a graph of n vertices
 * (n a power of 2), vertex u with TD = 8 distinct out-neighbours drawn
 * from the window u + 1 .. u + 32 (mod n), stored sorted in col[8u ..
 * 8u + 7]; edge e = (e / 8, col[e]) for e < m = 8n.  For each edge (u, v)
 * the kernel counts |out(u) & out(v)| (the triangles u -> v, u -> w,
 * v -> w closed by the edge) by a branch-free merge of the two sorted
 * lists, one word of each per step, and stores the count in cnt[e].  A
 * block handles T*K consecutive edges, a thread K of them T apart (a warp:
 * 32 consecutive edges, 4 vertices' rows). */

#define TD 8  /* out-neighbours per vertex */
#define TW 32 /* the window they are drawn from */

template <int T, int K>
__global__ void tri_count(const int *__restrict__ col, int *__restrict__ cnt)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int e = base + j * T;
        const int *pu = col + (e / TD) * TD, *pv = col + (size_t)col[e] * TD;
        int i = 0, l = 0, c = 0;
        while (i < TD && l < TD) {
            const int a = pu[i], b = pv[l];
            c += a == b;
            i += a <= b;
            l += b <= a;
        }
        cnt[e] = c;
    }
}

struct tr_arg {
    const int *col;
    int *cnt;
    int m, T, K;
};
static void tr_run(void *p)
{
    struct tr_arg *a = (struct tr_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        tri_count<T, K><<<a->m / (T * K), +T>>>(a->col, a->cnt);
    });
}

static int cmp_int(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void bench_tri_count(int n)
{
    const int m = n * TD;
    int *hcol = (int *)xmalloc((size_t)m * sizeof(int)), *want = (int *)xmalloc((size_t)m * sizeof(int)),
        *got = (int *)xmalloc((size_t)m * sizeof(int));
    long total = 0;
    for (int u = 0; u < n; u++) {
        uint32_t taken = 0;
        for (int j = 0; j < TD; j++) {
            uint32_t r;
            do
                r = rnd() % TW;
            while (taken >> r & 1);
            taken |= 1u << r;
            hcol[(size_t)u * TD + j] = (int)(((uint32_t)u + 1 + r) & (uint32_t)(n - 1));
        }
        qsort(hcol + (size_t)u * TD, TD, sizeof(int), cmp_int);
    }
    /* The reference: every pair of the two lists compared (not a merge). */
    for (int e = 0; e < m; e++) {
        const int *pu = hcol + (size_t)(e / TD) * TD, *pv = hcol + (size_t)hcol[e] * TD;
        int c = 0;
        for (int i = 0; i < TD; i++)
            for (int l = 0; l < TD; l++)
                c += pu[i] == pv[l];
        want[e] = c;
        total += c;
    }
    fprintf(stderr, "holdout6: tri_count n=%d: %ld triangles\n", n, total);
    int *dcol = dev_copy(hcol, m), *dcnt = dev_alloc<int>(m);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct tr_arg a = {dcol, dcnt, m, T, K};
            CHECK(cudaMemset(dcnt, 0xff, (size_t)m * sizeof(int))); /* -1: an unwritten count fails */
            float ms = time_median(tr_run, &a);
            to_host(got, dcnt, m);
            for (int e = 0; e < m; e++)
                if (got[e] != want[e])
                    fail("tri_count n=%d T=%d K=%d: cnt[%d] = %d, want %d\n",
                         n, T, K, e, got[e], want[e]);
            put_row("tri_count,%d,%d,,,,,%d,%d,%.5f\n", n, TD, T, K, ms);
        }
    dev_free(dcol, dcnt);
    host_free(hcol, want, got);
}

int main(void)
{
    bench_begin("program,n,d,rows,cols,bins,batch,tpb,k,time_ms");
    bench_col_sum(32, 1 << 18);
    bench_col_sum(64, 1 << 20);
    bench_block_hist(1 << 23);
    bench_block_hist(1 << 27);
    bench_batched_mm(1 << 11);
    bench_batched_mm(1 << 15);
    bench_tri_count(1 << 17);
    bench_tri_count(1 << 22);
    return 0;
}
