/* Profiling driver of bench/gpu/holdout3.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "holdout3"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/holdout3.cu"
#undef main

#define PB_HEADER "program,n,m,d,tpb,k,tile,r,time_ms"
static const struct pbench PB[] = {{"spmv", 1 << 20, 16, 0}, {"relax", 1 << 20, 1 << 23, 0}, {"shfl_reduce", 1L << 25, 0, 0}, {"regmm", 1024, 0, 0}};
static void pb_run(int i, long a, long b, long c)
{
    (void)c;
    switch (i) {
    case 0: bench_csr("spmv", (int)a, (int)b, sp_run); break;
    case 1: bench_relax((int)a, (int)b); break;
    case 2: bench_shfl_reduce(a); break;
    case 3: bench_regmm((int)a); break;
    }
}
#include "pmain.cuh"
