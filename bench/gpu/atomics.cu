// atomics.cu: what atomic operations on one global word cost when many
// blocks update it.  Launches of B blocks of T threads in which one thread
// per block (or every thread) adds to a single word, with atomicAdd on a
// float (its result unused: a reduction), on an int, and an atomicAdd whose
// result is used; B = 2^16 .. 2^22.  The best of 9 event-timed launches;
// the cost of one atomic is the slope of the time against the number of
// atomics (the difference of the largest and the smallest B), which
// removes the launch and the blocks' start.  docs/time.md reads it
// (`atomic_cycles`).
//
//   nvcc -O3 -arch=sm_90 -o atomics bench/gpu/atomics.cu && ./atomics
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "atomics: %s\n", cudaGetErrorString(e)); exit(1);} } while (0)
__global__ void one_per_block_f(float *x) { if (threadIdx.x == 0) atomicAdd(x, 1.0f); }
__global__ void one_per_block_i(int *x) { if (threadIdx.x == 0) atomicAdd(x, 1); }
__global__ void one_per_block_ret(int *x, int *sink)
{
    if (threadIdx.x == 0) { int v = atomicAdd(x, 1); if (v == -1) *sink = v; }
}
__global__ void every_thread_f(float *x) { atomicAdd(x, 1.0f); }
__global__ void empty_k(float *x) { if (threadIdx.x == 1024) *x = 0; }
static float best_ms(int v, int B, int T, float *xf, int *xi, int *sink)
{
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    float best = 1e30f;
    for (int r = 0; r < 9; r++) {
        CK(cudaEventRecord(a));
        switch (v) {
        case 0: one_per_block_f<<<B, T>>>(xf); break;
        case 1: one_per_block_i<<<B, T>>>(xi); break;
        case 2: one_per_block_ret<<<B, T>>>(xi, sink); break;
        case 3: every_thread_f<<<B, T>>>(xf); break;
        default: empty_k<<<B, T>>>(xf); break;
        }
        CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b));
        float ms; CK(cudaEventElapsedTime(&ms, a, b)); if (ms < best) best = ms;
    }
    return best;
}
int main()
{
    float *xf; int *xi, *sink;
    CK(cudaMalloc(&xf, 4)); CK(cudaMalloc(&xi, 4)); CK(cudaMalloc(&sink, 4));
    int clk; CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    const char *name[5] = {"float_add_per_block", "int_add_per_block", "int_add_returned_per_block", "float_add_every_thread", "no_atomic"};
    printf("variant,threads,blocks,atomics,best_ms\n");
    for (int v = 0; v < 5; v++)
        for (int T = 32; T <= 256; T *= 8)
            for (int lb = 16; lb <= 22; lb += 2) {
                int B = 1 << lb;
                if (v == 3 && lb > 18) continue;
                float ms = best_ms(v, B, T, xf, xi, sink);
                long long at = v == 4 ? 0 : (v == 3 ? (long long)B * T : B);
                printf("%s,%d,%d,%lld,%.5f\n", name[v], T, B, at, ms);
            }
    fprintf(stderr, "atomics: reported clock %d kHz\n", clk);
    return 0;
}
