/* reduce_final.cuh: what the two-launch sums of validate.cu (reduce) and
 * holdout4.cu (seq_reduce) share: block_tree_sum, the shared-memory tree of
 * their first launches' blocks, and reduce_final, the second launch: one
 * block of 1024 threads adds the count partial sums (1024 apart), reduces
 * them in shared memory (10 levels, a barrier after each) and thread 0
 * writes the total. */
#ifndef MMM_BENCH_GPU_REDUCE_FINAL_CUH
#define MMM_BENCH_GPU_REDUCE_FINAL_CUH

/* sh[0] becomes the sum of sh[0 .. T) (every thread of the block of T
 * threads calls it after writing its sh[threadIdx.x] and a barrier):
 * log2 T levels, a barrier after each. */
template <int T>
__device__ __forceinline__ void block_tree_sum(float *sh)
{
#pragma unroll
    for (int w = T / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            sh[threadIdx.x] += sh[threadIdx.x + w];
        __syncthreads();
    }
}

__global__ void reduce_final(const float *__restrict__ part, int count,
                             float *__restrict__ out)
{
    __shared__ float sh[1024];
    float s = 0.0f;
    for (int i = threadIdx.x; i < count; i += 1024)
        s += part[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    block_tree_sum<1024>(sh);
    if (threadIdx.x == 0)
        *out = sh[0];
}

#endif
