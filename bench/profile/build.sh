#!/bin/sh
# Builds, into $1 (default build-profile/ at the repository root, which
# .gitignore's /build*/ ignores), the bench/gpu programs that have DAG files
# (timing, unchanged) and their profiling drivers (prof_*.cu with RUNS=0:
# every configuration's launch sequence once).  Run from the repository root.
# Set JOBS for parallel compiles (default 2).
set -e
out=${1:-build-profile}
mkdir -p "$out"
NVCC=${NVCC:-nvcc}
FLAGS="-O3 -arch=sm_90 -std=c++17"   # as bench/gpu/README.md builds them
jobs=${JOBS:-2}
{
for p in validate holdout holdout2 holdout3 holdout4 holdout5 holdout6; do
    echo "$NVCC $FLAGS -o $out/$p bench/gpu/$p.cu"
    echo "$NVCC $FLAGS -lineinfo -DRUNS=0 -o $out/prof_$p bench/profile/prof_$p.cu"
done
# CUMODP's kernels (cumodp/README.md, not committed): one driver, every
# configuration
[ -f bench/profile/cumodp/src/cudaDiv.cu ] && echo "$NVCC $FLAGS -lineinfo -DLINUXINTEL64 -Ibench/profile/cumodp -Ibench/profile/cumodp/shim -Ibench/profile/cumodp/include -o $out/prof_cumodp bench/profile/prof_cumodp.cu"
} | xargs -P "$jobs" -I{} sh -c '{}'
ls -la "$out"
