// graph_demo.cu: a program that runs its kernels as a CUDA graph, for
// `mmm profile run`'s reading of graph edges (tests/data/profile/graph).
//
//   graph_demo N [REPLAYS]
//
// One graph, captured from two streams: a memset of x, then scale(x)
// (n threads), then two branches that run concurrently, add(x -> y) on
// the first stream and square(x -> z) on the second, then join(y, z ->
// x) after both; replayed REPLAYS times (default 3).  Its DAG: memset ->
// scale -> {add, square} -> join, not the chain of launch order.
#include <cstdio>
#include <cstdlib>

#include "demo_kernels.cuh"

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1 << 20, replays = argc > 2 ? atoi(argv[2]) : 3;
    if (n < 1 || replays < 1) { fprintf(stderr, "usage: graph_demo N [REPLAYS]\n"); return 2; }
    float *x, *y, *z;
    CK(cudaMalloc(&x, n * sizeof *x)); CK(cudaMalloc(&y, n * sizeof *y)); CK(cudaMalloc(&z, n * sizeof *z));
    cudaStream_t s1, s2; cudaEvent_t fork, done;
    CK(cudaStreamCreate(&s1)); CK(cudaStreamCreate(&s2));
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming)); CK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    int tpb = 256, blocks = (n + tpb - 1) / tpb;
    cudaGraph_t g; cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CK(cudaMemsetAsync(x, 0, n * sizeof *x, s1));
    scale<<<blocks, tpb, 0, s1>>>(x, n);
    CK(cudaEventRecord(fork, s1));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    add<<<blocks, tpb, 0, s1>>>(x, y, n);
    square<<<blocks, tpb, 0, s2>>>(x, z, n);
    CK(cudaEventRecord(done, s2));
    CK(cudaStreamWaitEvent(s1, done, 0));
    join<<<blocks, tpb, 0, s1>>>(y, z, x, n);
    CK(cudaStreamEndCapture(s1, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < replays; r++)
        CK(cudaGraphLaunch(ge, s1));
    CK(cudaStreamSynchronize(s1));
    float h = 0;
    CK(cudaMemcpy(&h, x, sizeof h, cudaMemcpyDeviceToHost));
    printf("graph_demo n=%d replays=%d x[0]=%g\n", n, replays, h);
    return 0;
}
