// stores.cu: what strided global stores cost.  A thread writes K consecutive
// words, one per instruction (a warp's stores lie K words apart), for K = 1
// to 16 and 128 or 1024 threads per block, over 2^26 words (256 MiB, more
// than the L2); the best of 9 event-timed launches, in TB/s of useful bytes.
// Variants: CUMODP's zeroC loop (a bounds test before every store, zeros),
// an unrolled loop writing zeros, one writing values, a read-modify-write of
// the same words, and a read alone.  docs/fidelity.md, section 5, reads it.
//
//   nvcc -O3 -arch=sm_90 -o stores bench/gpu/stores.cu && ./stores
//
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s\n", cudaGetErrorString(e)); exit(1);} } while (0)
/* CUMODP's zeroC (src/opt_plain_mul.cu), K = its BLOCK */
template <int K> __global__ void zeroC(int *C, int n)
{
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * K;
    if (i < n) {
        int j = i + K;
        for (; i < j && i < n; ++i)
            C[i] = 0;
    }
}
template <int K> __global__ void wzero(int *C)
{
    size_t b = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * K;
#pragma unroll
    for (int j = 0; j < K; j++) C[b + j] = 0;
}
template <int K> __global__ void wval(int *C)
{
    size_t b = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * K;
#pragma unroll
    for (int j = 0; j < K; j++) C[b + j] = (int)(b + j) * 7 + 1;
}
template <int K> __global__ void rmw(int *C)
{
    size_t b = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * K;
#pragma unroll
    for (int j = 0; j < K; j++) C[b + j] += 3;
}
template <int K> __global__ void rd(const int *__restrict__ C, int *out)
{
    size_t b = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * K;
    int s = 0;
#pragma unroll
    for (int j = 0; j < K; j++) s += C[b + j];
    if (s == 0x7fffffff) out[0] = s;
}
template <int K> void run(int *C, int n, int T)
{
    int blocks = n / (T * K);
    cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
    const char *names[5] = {"zeroC", "wzero", "wval", "rmw", "read"};
    const int order[5] = {2, 1, 0, 3, 4};
    for (int oi = 0; oi < 5; oi++) { int v = order[oi];
        float best = 1e30f;
        for (int r = 0; r < 9; r++) {
            cudaEventRecord(a);
            if (v == 0) zeroC<K><<<blocks, T>>>(C, n);
            if (v == 1) wzero<K><<<blocks, T>>>(C);
            if (v == 2) wval<K><<<blocks, T>>>(C);
            if (v == 3) rmw<K><<<blocks, T>>>(C);
            if (v == 4) rd<K><<<blocks, T>>>(C, C + n);
            cudaEventRecord(b); CK(cudaEventSynchronize(b));
            float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
        }
        double bytes = (double)n * 4 * (v == 3 ? 2 : 1);
        printf("%s,K=%d,T=%d,%.4f ms,%.3f TB/s useful\n", names[v], K, T, best, bytes / best / 1e9);
    }
}
int main()
{
    int n = 1 << 26; int *C; CK(cudaMalloc(&C, (size_t)n * 4 + 64));
    CK(cudaMemset(C, 1, (size_t)n * 4));
    for (int T = 128; T <= 1024; T *= 8) {
        run<1>(C, n, T); run<2>(C, n, T); run<4>(C, n, T); run<8>(C, n, T); run<16>(C, n, T);
    }
    return 0;
}
