/*
 * copy.cuh: the copy whose bandwidth gathers.cu and retouch.cu state their
 * costs in (bytes of that bandwidth per word): n 16-byte words from in to
 * out by a grid of 8 blocks of 256 threads per SM, each thread striding
 * over the grid.  Include timing.cuh first.
 */
#ifndef MMM_BENCH_GPU_COPY_CUH
#define MMM_BENCH_GPU_COPY_CUH

__global__ void copy16(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = in[i];
}

struct copy_arg { const float4 *in; float4 *out; size_t n; int sms; };
static void run_copy(void *p)
{
    copy_arg *c = (copy_arg *)p;
    copy16<<<c->sms * 8, 256>>>(c->in, c->out, c->n);
}

/* The best time in ms of the copy (time_best). */
static inline float time_copy(const float4 *in, float4 *out, size_t n, int sms)
{
    copy_arg c = {in, out, n, sms};
    return time_best(run_copy, &c);
}

#endif
