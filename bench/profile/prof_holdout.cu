/* Profiling driver of bench/gpu/holdout.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "holdout"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/holdout.cu"
#undef main

#define PB_HEADER "program,n,tpb,k,tile,r,time_ms,d"
static const struct pbench PB[] = {{"transpose", 2048, 0, 0}, {"stencil", 1 << 20, 0, 0}};
static void pb_run(int i, long a, long b, long c)
{
    (void)b, (void)c;
    switch (i) {
    case 0: bench_transpose((int)a); break;
    case 1: bench_stencil((int)a); break;
    }
}
#include "pmain.cuh"
