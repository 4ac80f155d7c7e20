/*
 * holdout3.cu: a fourth held-out set ("set D"): a CSR sparse matrix-vector
 * product, a Bellman-Ford relaxation sweep with global atomics, a sum with
 * warp shuffles and one atomic per block, and a matrix product with
 * register blocking along rows, over their launch configurations.  Their
 * DAG files, dags/gpu/spmv.xml, relax.xml, shfl_reduce.xml and regmm.xml,
 * were written from this source and `ptxas -v` before any of these kernels
 * was timed.  Output: CSV rows (program, n, m, d, tpb, k, tile, r, time_ms).
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o holdout3 bench/gpu/holdout3.cu
 *   ./holdout3 > holdout3.csv
 *
 * Timing: cudaEvents around each launch sequence, one warm-up, median of 7;
 * every result is checked on the host before its row is printed (exit 1 on
 * a mismatch).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROG "holdout3"
#define RNG_SEED 0x9e3779b97f4a7c15ull /* the data drawn by rnd() (host.cuh) */
#include "timing.cuh"
#include "host.cuh"
#include "csr.cuh"

/* ------------------------------------------------------------------ */
/* y = A x, A an n x n CSR matrix with exactly d nonzeros per row, their
 * columns uniform at random over n (a gather from x): a thread handles K
 * consecutive rows.  It reads the K + 1 row offsets it needs, and for each
 * row its d column indices and values (consecutive words of one thread) and
 * the d gathered x, and writes one word of y per row. */

template <int T, int K>
__global__ void spmv(const int *__restrict__ rowptr, const int *__restrict__ col,
                     const float *__restrict__ val, const float *__restrict__ x,
                     float *__restrict__ y)
{
    const int row0 = (blockIdx.x * T + threadIdx.x) * K;
    int start = rowptr[row0];
#pragma unroll
    for (int j = 0; j < K; j++) {
        const int end = rowptr[row0 + j + 1];
        float s = 0.0f;
        for (int e = start; e < end; e++)
            s += val[e] * x[col[e]];
        y[row0 + j] = s;
        start = end;
    }
}

static void sp_run(void *p)
{
    struct csr_arg *a = (struct csr_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        spmv<T, K><<<a->n / (T * K), +T>>>(a->rowptr, a->col, a->val, a->x, a->y);
    });
}


/* ------------------------------------------------------------------ */
/* One Bellman-Ford relaxation sweep over m edges (u, v, w) of a graph of n
 * vertices, the endpoints uniform at random: dout[v] = min(dout[v],
 * din[u] + w) by atomicMin, with dout = din before the sweep (the distances
 * read and those written are two arrays, so the result does not depend on
 * the order of the atomics and repeating the sweep leaves it unchanged).
 * A block handles T*K consecutive edges, a thread K of them T apart
 * (coalesced): first its K edges (three loads each), then the K gathered
 * distances, then the K atomics, each loop unrolled. */

template <int T, int K>
__global__ void relax(const int *__restrict__ eu, const int *__restrict__ ev,
                      const int *__restrict__ ew, const int *__restrict__ din,
                      int *__restrict__ dout)
{
    const int base = blockIdx.x * T * K + threadIdx.x;
    int u[K], v[K], w[K], du[K];
#pragma unroll
    for (int j = 0; j < K; j++) {
        u[j] = eu[base + j * T];
        v[j] = ev[base + j * T];
        w[j] = ew[base + j * T];
    }
#pragma unroll
    for (int j = 0; j < K; j++)
        du[j] = din[u[j]];
#pragma unroll
    for (int j = 0; j < K; j++)
        atomicMin(&dout[v[j]], du[j] + w[j]);
}

struct rx_arg {
    const int *u, *v, *w, *din;
    int *dout;
    int m, T, K;
};
static void rx_run(void *p)
{
    struct rx_arg *a = (struct rx_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        relax<T, K><<<a->m / (T * K), +T>>>(a->u, a->v, a->w, a->din, a->dout);
    });
}

static void bench_relax(int n, int m)
{
    int *hu = (int *)xmalloc((size_t)m * sizeof(int)), *hv = (int *)xmalloc((size_t)m * sizeof(int)),
        *hw = (int *)xmalloc((size_t)m * sizeof(int)), *hd = (int *)xmalloc(n * sizeof(int)),
        *want = (int *)xmalloc(n * sizeof(int)), *got = (int *)xmalloc(n * sizeof(int));
    for (int i = 0; i < n; i++)
        hd[i] = (int)(rnd() % 1000000u);
    for (int e = 0; e < m; e++) {
        hu[e] = (int)(rnd() % (uint32_t)n);
        hv[e] = (int)(rnd() % (uint32_t)n);
        hw[e] = 1 + (int)(rnd() % 1000u);
    }
    memcpy(want, hd, n * sizeof(int));
    long changed = 0;
    for (int e = 0; e < m; e++) {
        int t = hd[hu[e]] + hw[e];
        if (t < want[hv[e]])
            want[hv[e]] = t;
    }
    for (int i = 0; i < n; i++)
        changed += want[i] != hd[i];
    fprintf(stderr, "holdout3: relax n=%d m=%d: %ld of the distances shorten\n", n, m, changed);
    int *du = dev_copy(hu, m), *dv = dev_copy(hv, m), *dw = dev_copy(hw, m),
        *din = dev_copy(hd, n), *dout = dev_alloc<int>(n);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct rx_arg a = {du, dv, dw, din, dout, m, T, K};
            to_device(dout, hd, n);
            float ms = time_median(rx_run, &a);
            to_host(got, dout, n);
            for (int i = 0; i < n; i++)
                if (got[i] != want[i])
                    fail("relax n=%d m=%d T=%d K=%d: dist[%d] = %d, want %d\n", n, m, T, K, i,
                         got[i], want[i]);
            put_row("relax,%d,%d,,%d,%d,,,%.5f\n", n, m, T, K, ms);
        }
    dev_free(du, dv, dw, din, dout);
    host_free(hu, hv, hw, hd, want, got);
}

/* ------------------------------------------------------------------ */
/* Sum of n floats in one launch: a block of T threads adds T*K consecutive
 * words, a thread K of them T apart (coalesced, unrolled); a warp adds its
 * 32 sums by shuffles (5 steps), lane 0 of each warp stores its sum in
 * shared memory, one barrier, then warp 0 adds the T/32 warp sums by
 * shuffles (log2(T/32) steps) and its lane 0 adds the block's sum to the
 * result with one atomicAdd (one launch, no second pass). */

template <int T, int K>
__global__ void shfl_reduce(const float *__restrict__ in, float *__restrict__ out)
{
    __shared__ float ws[T / 32];
    const size_t base = (size_t)blockIdx.x * (T * K) + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < K; j++)
        s += in[base + (size_t)j * T];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0)
        ws[warp] = s;
    __syncthreads();
    if (warp == 0) {
        s = lane < T / 32 ? ws[lane] : 0.0f;
#pragma unroll
        for (int o = T / 64; o > 0; o >>= 1)
            s += __shfl_down_sync(0xffffffffu, s, o);
        if (lane == 0)
            atomicAdd(out, s);
    }
}

struct sr_arg {
    const float *in;
    float *out;
    long n;
    int T, K;
};
static void sr_run(void *p)
{
    struct sr_arg *a = (struct sr_arg *)p;
    with_tk<64, 1024, 1, 8>(a->T, a->K, [&](auto T, auto K) {
        shfl_reduce<T, K><<<(unsigned)(a->n / (T * K)), +T>>>(a->in, a->out);
    });
}

static void bench_shfl_reduce(long n)
{
    float *h = (float *)xmalloc((size_t)n * sizeof(float)), got;
    /* -1 at even, +1 at odd indices, 0 at multiples of 128: a block's
     * T*K >= 64 words (aligned) add up to T*K/128, or 0 or 1 for 64, never
     * negative, so every sum of some blocks' sums lies in 0 .. n/128 < 2^24
     * and the float sum is exact whatever the order of the atomics. */
    long long want = 0;
    for (long i = 0; i < n; i++) {
        int v = (i & 1) ? 1 : (i % 128 == 0 ? 0 : -1);
        h[i] = (float)v;
        want += v;
    }
    float *din = dev_copy(h, n), *dout = dev_alloc<float>(1);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 8; K *= 2) {
            struct sr_arg a = {din, dout, n, T, K};
            /* The timed runs add to the result; one run from zero is checked. */
            float ms = time_median(sr_run, &a);
            CHECK(cudaMemset(dout, 0, sizeof(float)));
            sr_run(&a);
            to_host(&got, dout, 1);
            if (fabs((double)got - (double)want) > 0.5)
                fail("shfl_reduce n=%ld T=%d K=%d: %g, want %lld\n", n, T, K, got, want);
            put_row("shfl_reduce,%ld,,,%d,%d,,,%.5f\n", n, T, K, ms);
        }
    dev_free(din, dout);
    free(h);
}

/* ------------------------------------------------------------------ */
/* C = A B for n x n floats, register blocking along rows: a block computes
 * a TS x TS tile of C with TS/R x TS threads (threadIdx.x the column group,
 * threadIdx.y the row), each thread R outputs of one row, TS/R apart.  Per
 * step of TS columns of A: every thread loads R words of A's tile and R of
 * B's (rows of TS/R consecutive words per instruction) into shared memory
 * (A's tile padded to TS+1 columns), barrier, then for each of the TS
 * columns one shared load of A (kept in a register) and R of B and R fused
 * multiply-adds, barrier. */

template <int TS, int R>
__global__ void regmm(const float *__restrict__ A, const float *__restrict__ B,
                      float *__restrict__ C, int n)
{
    __shared__ float As[TS][TS + 1], Bs[TS][TS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TS + ty, col0 = blockIdx.x * TS;
    float acc[R];
#pragma unroll
    for (int i = 0; i < R; i++)
        acc[i] = 0.0f;
    for (int t = 0; t < n; t += TS) {
#pragma unroll
        for (int i = 0; i < R; i++) {
            const int c = tx + i * (TS / R);
            As[ty][c] = A[(size_t)row * n + t + c];
            Bs[ty][c] = B[(size_t)(t + ty) * n + col0 + c];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < TS; kk++) {
            const float a = As[ty][kk];
#pragma unroll
            for (int i = 0; i < R; i++)
                acc[i] += a * Bs[kk][tx + i * (TS / R)];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < R; i++)
        C[(size_t)row * n + col0 + tx + i * (TS / R)] = acc[i];
}

struct rm_arg {
    const float *A, *B;
    float *C;
    int n, TS, R;
};
static void rm_run(void *p)
{
    struct rm_arg *a = (struct rm_arg *)p;
    with_tk<16, 32, 1, 8>(a->TS, a->R, [&](auto TS, auto R) {
        dim3 grid(a->n / TS, a->n / TS), block(TS / R, TS);
        regmm<TS, R><<<grid, block>>>(a->A, a->B, a->C, a->n);
    });
}

static void bench_regmm(int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *hA = (float *)xmalloc(bytes), *hB = (float *)xmalloc(bytes),
          *hC = (float *)xmalloc(bytes);
    double *want = (double *)xmalloc(n * sizeof(double));
    int *pj = (int *)xmalloc(n * sizeof(int));
    for (size_t i = 0; i < (size_t)n * n; i++) {
        hA[i] = (float)((i * 5 + 2) % 13) - 6.0f;
        hB[i] = (float)((i * 3 + 1) % 11) - 5.0f;
    }
    /* One probe in every row, its column spread over all columns.  Small
     * integers: every product and partial sum (< 2^24) is exact in float. */
    for (int i = 0; i < n; i++) {
        pj[i] = (int)(((size_t)i * 2654435761u + 12345) % (size_t)n);
        want[i] = 0;
    }
    for (int k = 0; k < n; k++) /* row by row of B */
        for (int i = 0; i < n; i++)
            want[i] += (double)hA[(size_t)i * n + k] * hB[(size_t)k * n + pj[i]];
    float *dA = dev_copy(hA, (size_t)n * n), *dB = dev_copy(hB, (size_t)n * n),
          *dC = dev_alloc<float>((size_t)n * n);
    for (int TS = 16; TS <= 32; TS *= 2)
        for (int R = 1; R <= 8; R *= 2) {
            struct rm_arg a = {dA, dB, dC, n, TS, R};
            CHECK(cudaMemset(dC, 0xff, bytes)); /* NaN: an unwritten output fails */
            float ms = time_median(rm_run, &a);
            to_host(hC, dC, (size_t)n * n);
            for (int i = 0; i < n; i++) {
                const float got = hC[(size_t)i * n + pj[i]];
                if (!(fabs(got - want[i]) <= 1e-3))
                    fail("regmm n=%d TS=%d R=%d: C[%d][%d] = %g, want %g\n",
                         n, TS, R, i, pj[i], got, want[i]);
            }
            put_row("regmm,%d,,,,,%d,%d,%.5f\n", n, TS, R, ms);
        }
    dev_free(dA, dB, dC);
    host_free(hA, hB, hC, want, pj);
}

int main(void)
{
    bench_begin("program,n,m,d,tpb,k,tile,r,time_ms");
    bench_csr("spmv", 1 << 20, 16, sp_run);
    bench_csr("spmv", 1 << 24, 8, sp_run);
    bench_relax(1 << 20, 1 << 23);
    bench_relax(1 << 24, 1 << 26);
    bench_shfl_reduce(1L << 25);
    bench_shfl_reduce(1L << 30);
    bench_regmm(1024);
    bench_regmm(3072);
    return 0;
}
