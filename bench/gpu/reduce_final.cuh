/* reduce_final.cuh: the second launch of the two-launch sums of
 * validate.cu (reduce) and holdout4.cu (seq_reduce): one block of 1024
 * threads adds the count partial sums (1024 apart), reduces them in shared
 * memory (10 levels, a barrier after each) and thread 0 writes the total. */
#ifndef MMM_BENCH_GPU_REDUCE_FINAL_CUH
#define MMM_BENCH_GPU_REDUCE_FINAL_CUH

__global__ void reduce_final(const float *__restrict__ part, int count,
                             float *__restrict__ out)
{
    __shared__ float sh[1024];
    float s = 0.0f;
    for (int i = threadIdx.x; i < count; i += 1024)
        s += part[i];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int w = 512; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            sh[threadIdx.x] += sh[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *out = sh[0];
}

#endif
