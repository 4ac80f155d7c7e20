/* Profiling driver of bench/gpu/holdout6.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "holdout6"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/holdout6.cu"
#undef main

#define PB_HEADER "program,n,d,rows,cols,bins,batch,tpb,k,time_ms"
static const struct pbench PB[] = {{"col_sum", 32, 1 << 18, 0}, {"block_hist", 1 << 23, 0, 0}, {"batched_mm", 1 << 11, 0, 0}, {"tri_count", 1 << 17, 0, 0}};
static void pb_run(int i, long a, long b, long c)
{
    (void)c;
    switch (i) {
    case 0: bench_col_sum((int)a, (int)b); break;
    case 1: bench_block_hist((int)a); break;
    case 2: bench_batched_mm((int)a); break;
    case 3: bench_tri_count((int)a); break;
    }
}
#include "pmain.cuh"
