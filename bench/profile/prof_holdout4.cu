/* Profiling driver of bench/gpu/holdout4.cu (bench/profile/README.md): the
 * program's kernels, data and checks unchanged, its main replaced by
 * pmain.cuh's, which runs the benchmarks named on the command line
 * (default: each at the program's smaller size). */
#define PROG "holdout4"
#include "ptiming.cuh"
#define main bench_gpu_main
#include "../gpu/holdout4.cu"
#undef main

#define PB_HEADER "program,n,f,d,tpb,k,tile,r,time_ms"
static const struct pbench PB[] = {{"seq_reduce", 1L << 25, 0, 0}, {"mm2d", 1024, 0, 0}, {"bfs_step", 1 << 20, 1 << 14, 8}, {"vec_spmv", 1 << 18, 64, 0}};
static void pb_run(int i, long a, long b, long c)
{
    switch (i) {
    case 0: bench_seq_reduce(a); break;
    case 1: bench_mm2d((int)a); break;
    case 2: bench_bfs_step((int)a, (int)b, (int)c); break;
    case 3: bench_csr("vec_spmv", (int)a, (int)b, vs_run); break;
    }
}
#include "pmain.cuh"
