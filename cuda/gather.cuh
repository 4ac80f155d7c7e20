/*
 * gather.cuh: the gather and scatter kernels that `mmm calibrate`
 * (calibrate.cu) and the standalone microbenchmark bench/gpu/gathers.cu
 * both time: each thread reads (k_gather) or writes (k_scatter) 8 words at
 * addresses uniform at random over a region of mask + 1 words (a power of
 * two); k_gather writes their sum.  The addresses are a hash of
 * the thread, the word and salt (a new salt each launch), so no index array
 * moves and nothing but the gathered words and one word per thread does.
 */
#ifndef MMM_CUDA_GATHER_CUH
#define MMM_CUDA_GATHER_CUH

#include <stddef.h>

__device__ __forceinline__ unsigned gather_hash(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* The j-th random word of thread t, of a region of mask + 1 words. */
__device__ __forceinline__ size_t gather_index(unsigned t, int j, unsigned salt,
                                               size_t mask)
{
    return ((size_t)gather_hash(t * 8u + j + salt) << 8 ^
            gather_hash(t * 7919u + j)) & mask;
}

__global__ void k_gather(const float *__restrict__ x, float *__restrict__ out,
                         size_t mask, unsigned salt)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; j++)
        s += x[gather_index(t, j, salt, mask)];
    out[t] = s;
}

/* The same addresses written: each thread stores 8 words at random over
 * the region. */
__global__ void k_scatter(float *__restrict__ x, size_t mask, unsigned salt)
{
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int j = 0; j < 8; j++)
        x[gather_index(t, j, salt, mask)] = (float)t;
}

#endif
