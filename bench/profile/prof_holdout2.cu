/* Profiling driver of bench/gpu/holdout2.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "holdout2"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/holdout2.cu"
#undef main

#define PB_HEADER "program,m,n,tpb,k,time_ms"
static const struct pbench PB[] = {{"gemv", 16384, 4096, 0}, {"scan", 1 << 22, 0, 0}};
static void pb_run(int i, long a, long b, long c)
{
    (void)c;
    switch (i) {
    case 0: bench_gemv((int)a, (int)b); break;
    case 1: bench_scan((int)a); break;
    }
}
#include "pmain.cuh"
