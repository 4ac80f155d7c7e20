/* Profiling driver of bench/gpu/validate.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "validate"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/validate.cu"
#undef main

#define PB_HEADER "program,n,tpb,k,tile,r,time_ms,d"
static const struct pbench PB[] = {{"reduce", 1L << 20, 0, 0}, {"matmul", 1024, 0, 0}, {"pagerank", 1 << 20, 16, 0}};
static void pb_run(int i, long a, long b, long c)
{
    (void)c;
    switch (i) {
    case 0: bench_reduce(a, 0); break;
    case 1: bench_matmul((int)a, 0); break;
    case 2: bench_pagerank((int)a, (int)b, 0); break;
    }
}
#include "pmain.cuh"
