/*
 * holdout.cu: two more kinds of kernel, timed after the time model and its
 * machine files were frozen, so that they test it on programs it has never
 * seen: a matrix transpose through shared-memory tiles and a 1-D stencil
 * with a shared halo, over their launch configurations.  Their DAG files,
 * dags/gpu/transpose.xml and dags/gpu/stencil.xml, were written before any
 * of these timings was looked at.  Output: CSV rows as validate.cu's (program, n, tpb, k, tile, r, time_ms, d).
 *
 *   nvcc -O3 -arch=sm_90 -std=c++17 -o holdout bench/gpu/holdout.cu
 *   ./holdout > holdout.csv
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

#define PROG "holdout"
#include "timing.cuh"

/* ------------------------------------------------------------------ */
/* Transpose of an n x n float matrix: a block moves a TS x TS tile with
 * TS x TS/R threads, each thread R rows of the tile (TS/R apart): R
 * coalesced loads into a padded shared tile (TS+1 columns: no bank
 * conflicts), barrier, R coalesced stores of the tile's columns. */

template <int TS, int R>
__global__ void transpose(const float *__restrict__ in, float *__restrict__ out,
                          int n)
{
    __shared__ float t[TS][TS + 1];
    int x = blockIdx.x * TS + threadIdx.x, y = blockIdx.y * TS + threadIdx.y;
#pragma unroll
    for (int i = 0; i < R; i++)
        t[threadIdx.y + i * (TS / R)][threadIdx.x] =
            in[(size_t)(y + i * (TS / R)) * n + x];
    __syncthreads();
    x = blockIdx.y * TS + threadIdx.x;
    y = blockIdx.x * TS + threadIdx.y;
#pragma unroll
    for (int i = 0; i < R; i++)
        out[(size_t)(y + i * (TS / R)) * n + x] =
            t[threadIdx.x][threadIdx.y + i * (TS / R)];
}

struct tr_arg {
    const float *in;
    float *out;
    int n, TS, R;
};
static void tr_run(void *a)
{
    struct tr_arg *t = (struct tr_arg *)a;
    with_tk<8, 32, 1, 8>(t->TS, t->R, [&](auto TS, auto R) {
        dim3 grid(t->n / TS, t->n / TS), block(TS, TS / R);
        transpose<TS, R><<<grid, block>>>(t->in, t->out, t->n);
    });
}

static void bench_transpose(int n)
{
    size_t bytes = (size_t)n * n * sizeof(float);
    float *h = (float *)malloc(bytes), *g = (float *)malloc(bytes);
    for (size_t i = 0; i < (size_t)n * n; i++)
        h[i] = (float)(i % 100003);
    float *din = dev_copy(h, (size_t)n * n), *dout = dev_alloc<float>((size_t)n * n);
    for (int TS = 8; TS <= 32; TS *= 2)
        for (int R = 1; R <= 8; R *= 2) {
            struct tr_arg a = {din, dout, n, TS, R};
            CHECK(cudaMemset(dout, 0, bytes));
            float ms = time_median(tr_run, &a);
            to_host(g, dout, (size_t)n * n);
            for (int p = 0; p < 4096; p++) {
                size_t i = ((size_t)p * 2654435761u) % n, j = ((size_t)p * 40503u + 17) % n;
                if (g[i * n + j] != h[j * n + i])
                    fail("transpose n=%d TS=%d R=%d wrong at %zu,%zu\n", n, TS, R, i, j);
            }
            put_row("transpose,%d,,,%d,%d,%.5f,\n", n, TS, R, ms);
        }
    dev_free(din, dout);
    host_free(h, g);
}

/* ------------------------------------------------------------------ */
/* 1-D stencil of radius 3 (7 weights) over n floats, ITER sweeps in a
 * chain (ping-pong): a block computes T*K consecutive outputs; its threads
 * load the T*K words and the 2*3 of the halo into shared memory (each
 * thread K words T apart, coalesced; the first 3 threads the halo),
 * barrier, then each thread K outputs (T apart), 7 shared loads and 7
 * multiply-adds each.  Borders read zeros. */

#define RAD 3
#define ST_ITER 10
__constant__ float wts[2 * RAD + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};

template <int T, int K>
__global__ void stencil(const float *__restrict__ in, float *__restrict__ out,
                        int n)
{
    __shared__ float s[T * K + 2 * RAD];
    const int base = blockIdx.x * T * K;
#pragma unroll
    for (int j = 0; j < K; j++)
        s[RAD + j * T + threadIdx.x] = in[base + j * T + threadIdx.x];
    if (threadIdx.x < RAD) {
        int l = base - RAD + threadIdx.x, r = base + T * K + threadIdx.x;
        s[threadIdx.x] = l >= 0 ? in[l] : 0.0f;
        s[RAD + T * K + threadIdx.x] = r < n ? in[r] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < K; j++) {
        int c = RAD + j * T + threadIdx.x;
        float v = 0.0f;
#pragma unroll
        for (int d = -RAD; d <= RAD; d++)
            v += wts[d + RAD] * s[c + d];
        out[base + j * T + threadIdx.x] = v;
    }
}

struct st_arg {
    float *a, *b;
    int n, T, K;
};
/* One sweep of the configuration T, K, from in to out. */
static void st_launch(int T, int K, const float *in, float *out, int n)
{
    with_tk<64, 1024, 1, 16>(T, K, [&](auto T, auto K) {
        if constexpr (T * K + 2 * RAD <= 12288) /* 48 KiB of shared memory */
            stencil<T, K><<<n / (T * K), +T>>>(in, out, n);
        else
            abort();
    });
}

static void st_run(void *p)
{
    struct st_arg *s = (struct st_arg *)p;
    for (int it = 0; it < ST_ITER; it++) {
        const float *in = (it & 1) ? s->b : s->a;
        float *out = (it & 1) ? s->a : s->b;
        st_launch(s->T, s->K, in, out, s->n);
    }
}

static void bench_stencil(int n)
{
    size_t bytes = (size_t)n * sizeof(float);
    float *h = (float *)malloc(bytes), *want = (float *)malloc(bytes),
          *got = (float *)malloc(bytes);
    const float w[7] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1000) / 1000.0f;
    for (int i = 0; i < n; i++) {
        float v = 0.0f;
        for (int d = -RAD; d <= RAD; d++) {
            int j = i + d;
            v += w[d + RAD] * (j >= 0 && j < n ? h[j] : 0.0f);
        }
        want[i] = v;
    }
    float *da = dev_alloc<float>(n), *db = dev_alloc<float>(n);
    for (int T = 64; T <= 1024; T *= 2)
        for (int K = 1; K <= 16; K *= 2) {
            if (T * K + 2 * RAD > 12288)
                continue; /* more than 48 KiB of shared memory */
            struct st_arg a = {da, db, n, T, K};
            float ms = time_median(st_run, &a);
            /* One sweep from the start, checked. */
            to_device(da, h, n);
            st_launch(T, K, da, db, n);
            to_host(got, db, n);
            for (int i = 0; i < n; i += 977)
                if (fabsf(got[i] - want[i]) > 1e-5f)
                    fail("stencil n=%d T=%d K=%d: out[%d] = %g, want %g\n", n, T, K, i, got[i],
                         want[i]);
            put_row("stencil,%d,%d,%d,,,%.5f,\n", n, T, K, ms);
        }
    dev_free(da, db);
    host_free(h, want, got);
}

int main(void)
{
    bench_begin("program,n,tpb,k,tile,r,time_ms,d");
    bench_transpose(2048);
    bench_transpose(8192);
    bench_stencil(1 << 20);
    bench_stencil(1 << 26);
    return 0;
}
