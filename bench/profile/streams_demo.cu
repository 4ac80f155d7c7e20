// streams_demo.cu: a program whose kernels wait for each other across
// streams, for `mmm profile run`'s reading of stream order
// (tests/data/profile/streams).
//
//   streams_demo N [--per-thread]
//
// Three streams: s2 created blocking (it synchronizes with the legacy
// default stream), s1 non-blocking, and the legacy default stream 0.
//   scale(x) on s2; event e recorded on s2;
//   add(x -> y) on s1, which waits for nothing;
//   s1 waits for e; square(x -> z) on s1 (after add and scale);
//   join(y, z -> x) on the default stream (after scale: s2 blocks with
//   it; not after add or square: s1 does not);
//   scale(x) on s2 again (after scale and join);
//   the host waits for s1 (cudaStreamSynchronize);
//   add(x -> y) on s2 (after scale#2, join, and square: the host waited);
//   a memset of z on s1 (after square); the host waits for the device.
#include <cstdio>
#include <cstdlib>

#include "demo_kernels.cuh"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20;
    if (n < 1) { fprintf(stderr, "usage: streams_demo N\n"); return 2; }
    float *x, *y, *z;
    CK(cudaMalloc(&x, n * sizeof *x)); CK(cudaMalloc(&y, n * sizeof *y)); CK(cudaMalloc(&z, n * sizeof *z));
    CK(cudaMemset(x, 0, n * sizeof *x));
    cudaStream_t s1, s2; cudaEvent_t e;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreate(&s2));
    CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    int tpb = 256, blocks = (n + tpb - 1) / tpb;
    scale<<<blocks, tpb, 0, s2>>>(x, n);
    CK(cudaEventRecord(e, s2));
    add<<<blocks, tpb, 0, s1>>>(x, y, n);
    CK(cudaStreamWaitEvent(s1, e, 0));
    square<<<blocks, tpb, 0, s1>>>(x, z, n);
    join<<<blocks, tpb>>>(y, z, x, n);
    scale<<<blocks, tpb, 0, s2>>>(x, n);
    CK(cudaStreamSynchronize(s1));
    add<<<blocks, tpb, 0, s2>>>(x, y, n);
    CK(cudaMemsetAsync(z, 0, n * sizeof *z, s1));
    CK(cudaDeviceSynchronize());
    float h = 0;
    CK(cudaMemcpy(&h, y, sizeof h, cudaMemcpyDeviceToHost));
    printf("streams_demo n=%d y[0]=%g\n", n, h);
    return 0;
}
