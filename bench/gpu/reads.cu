// reads.cu: what a thread streaming K consecutive words costs.  Each
// thread reads K consecutive 4-byte words (unrolled, one load instruction
// per word: a warp's loads lie K words apart), adds them and writes one
// word; the grid is 132 x B blocks of 256 threads that loop over 2^26
// words (256 MiB, more than the L2), so B sets the resident warps per SM
// without touching the L1/shared carve-out.  K = 1 .. 64, B = 1 .. 8; the
// best of 7 event-timed launches after a warm-up (timing.cuh), in TB/s of
// words read.
// docs/fidelity.md, section 7, reads it.
//
//   nvcc -O3 -arch=sm_90 -o reads bench/gpu/reads.cu && ./reads
#include <cstdio>
#include <cstdlib>
#define PROG "reads"
#include "timing.cuh"
template <int K>
__global__ void stream(const int *__restrict__ in, int *__restrict__ out,
                       size_t chunks)
{
    int acc = 0;
    for (size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x; c < chunks;
         c += (size_t)gridDim.x * blockDim.x) {
        const int *p = in + c * K;
#pragma unroll
        for (int j = 0; j < K; j++)
            acc += p[j];
    }
    out[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
template <int K> struct sarg { const int *in; int *out; size_t n; int grid; };
template <int K> static void run_stream(void *p)
{
    sarg<K> *a = (sarg<K> *)p;
    stream<K><<<a->grid, 256>>>(a->in, a->out, a->n / K);
}
template <int K> static void run(const int *in, int *out, size_t n, int sms)
{
    for (int B = 1; B <= 8; B *= 2) {
        sarg<K> a = {in, out, n, sms * B};
        float best = time_best(run_stream<K>, &a);
        printf("%d,%d,%d,%.5f,%.3f\n", K, B, B * 8, best,
               (double)n * 4 / best / 1e9);
    }
}
int main()
{
    size_t n = (size_t)1 << 26;
    int *in, *out, sms;
    timing_init();
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaMalloc(&in, n * 4));
    CHECK(cudaMalloc(&out, (size_t)sms * 8 * 256 * 4));
    CHECK(cudaMemset(in, 1, n * 4));
    printf("K,blocks_per_sm,warps_per_sm,best_ms,TB_per_s\n");
    run<1>(in, out, n, sms);
    run<2>(in, out, n, sms);
    run<4>(in, out, n, sms);
    run<8>(in, out, n, sms);
    run<16>(in, out, n, sms);
    run<32>(in, out, n, sms);
    run<64>(in, out, n, sms);
    return 0;
}
