// shared.cu: when do other warps' shared-memory wavefronts add to a warp's
// critical path?  One block of W warps (W = 1..32) runs STEPS steps; in a
// step every thread, A times (1, 2, 4 or 8), loads one word of shared
// memory at lane * F words (F wavefronts per warp: an F-way bank
// conflict) and runs a chain of C dependent integer multiply-adds on it,
// each load's address depending on the chain before it (so the loads of
// a warp lie on its path one after another); with BAR the step ends with __syncthreads(), as the steps of a
// division do; with STORE it stores the result back where it read it
// before the barrier (F more wavefronts).  Thread 0 reads clock64() around the steps after a barrier:
// cycles per step, the best of 5 launches of a single block.  The time
// model's shared-memory term (docs/time.md, section 3) reads the rows as
// extra(W) = cycles(W) - cycles(1) against F * max(0, W - g).
//
//   nvcc -O3 -arch=sm_90 -o shared bench/gpu/shared.cu && ./shared
#include <cstdio>
#include <cstdlib>
#define PROG "shared"
#include "timing.cuh"

#define STEPS 2048

template <int F, int C, int BAR, int ST, int A>
__global__ void steps(int z, long long *cycles, int *sink)
{
    __shared__ int sh[32 * 32];
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
        sh[i] = 0;
    __syncthreads();
    const int lane = threadIdx.x & 31;
    int y = z; /* 0 at run time, unknown to the compiler */
    long long t0 = clock64();
    for (int s = 0; s < STEPS; s++) {
        int v = y;
#pragma unroll
        for (int a = 0; a < A; a++) {
            v = sh[(lane * F + (v & z)) & 1023];
#pragma unroll
            for (int c = 0; c < C; c++)
                v = v * v + c;
        }
        y = v;
        if (ST) /* a store of the result where it was read */
            sh[(lane * F + (v & z)) & 1023] = v;
        if (BAR)
            __syncthreads();
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cycles = t1 - t0;
    if (y == 12345)
        *sink = y; /* keeps the chain */
}

typedef void (*kfn)(int, long long *, int *);

template <int F, int C, int BAR, int ST, int A> static void row(long long *d_cyc, int *d_sink)
{
    static const int ws[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    for (int i = 0; i < (int)(sizeof ws / sizeof ws[0]); i++) {
        int w = ws[i];
        long long best = -1;
        for (int r = 0; r < 5; r++) {
            steps<F, C, BAR, ST, A><<<1, 32 * w>>>(0, d_cyc, d_sink);
            long long c;
            CHECK(cudaMemcpy(&c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
            if (best < 0 || c < best)
                best = c;
        }
        printf("%d,%d,%d,%d,%d,%d,%.2f\n", F, C, BAR, ST, A, w,
               (double)best / STEPS);
    }
}

template <int C, int BAR, int ST, int A = 1>
static void fs(long long *d_cyc, int *d_sink)
{
    row<1, C, BAR, ST, A>(d_cyc, d_sink);
    row<2, C, BAR, ST, A>(d_cyc, d_sink);
    row<4, C, BAR, ST, A>(d_cyc, d_sink);
    row<8, C, BAR, ST, A>(d_cyc, d_sink);
    row<16, C, BAR, ST, A>(d_cyc, d_sink);
    row<32, C, BAR, ST, A>(d_cyc, d_sink);
}

int main(void)
{
    long long *d_cyc;
    int *d_sink;
    CHECK(cudaMalloc(&d_cyc, sizeof *d_cyc));
    CHECK(cudaMalloc(&d_sink, sizeof *d_sink));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("# bench/gpu/shared.cu on %s: cycles per step\n", prop.name);
    printf("F,C,bar,store,A,W,cycles\n");
    fs<0, 0, 0>(d_cyc, d_sink);
    fs<0, 1, 0>(d_cyc, d_sink);
    fs<16, 0, 0>(d_cyc, d_sink);
    fs<16, 1, 0>(d_cyc, d_sink);
    fs<64, 0, 0>(d_cyc, d_sink);
    fs<64, 1, 0>(d_cyc, d_sink);
    fs<16, 1, 1>(d_cyc, d_sink);
    fs<64, 1, 1>(d_cyc, d_sink);
    fs<16, 1, 0, 2>(d_cyc, d_sink);
    fs<16, 1, 0, 4>(d_cyc, d_sink);
    fs<16, 1, 0, 8>(d_cyc, d_sink);
    fs<4, 1, 0, 4>(d_cyc, d_sink);
    fs<64, 1, 0, 4>(d_cyc, d_sink);
    fs<16, 0, 0, 4>(d_cyc, d_sink);
    CHECK(cudaGetLastError());
    return 0;
}
