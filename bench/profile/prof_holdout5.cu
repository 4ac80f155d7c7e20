/* Profiling driver of bench/gpu/holdout5.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "holdout5"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/holdout5.cu"
#undef main

#define PB_HEADER "program,n,m,d,bins,tpb,k,time_ms"
static const struct pbench PB[] = {{"pr_push", 1 << 19, 8, 0}, {"histogram", 1 << 26, 1 << 16, 0}, {"cc_hook", 1 << 20, 1 << 21, 0}, {"tiled_conv", 1 << 22, 0, 0}};
static void pb_run(int i, long a, long b, long c)
{
    (void)c;
    switch (i) {
    case 0: bench_pr_push((int)a, (int)b); break;
    case 1: bench_histogram((int)a, (int)b); break;
    case 2: bench_cc_hook((int)a, (int)b); break;
    case 3: bench_tiled_conv((int)a); break;
    }
}
#include "pmain.cuh"
