/*
 * ptiming.cuh: what a profiling driver of bench/profile/ (prof_*.cu)
 * includes first: bench/gpu/timing.cuh, which the build compiles with
 * RUNS=0 (-DRUNS=0: every launch sequence run exactly once, untimed, so
 * that under ncu each configuration's sequence is profiled once; the
 * checks of the programs that count runs, ALL_RUNS = 1 + RUNS and
 * bfs_step's levels, stay consistent), and a driver's benchmarks
 * (pmain.cuh).  Define PROG before including it.
 */
#ifndef MMM_BENCH_PROFILE_PTIMING_CUH
#define MMM_BENCH_PROFILE_PTIMING_CUH

#include "../gpu/timing.cuh"

/* A benchmark of a profiling driver (pmain.cuh): its name and default sizes. */
struct pbench {
    const char *name;
    long a, b, c;
};

#endif
