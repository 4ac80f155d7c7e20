#!/bin/sh
# gpu_setd_grid.sh MMM SOURCE_DIR: every launch configuration that
# bench/gpu/holdout3.cu times (its two sizes of each kernel) evaluates with
# the time model from its DAG file in dags/gpu, and configurations the
# program does not run are refused by the files' ranges and constraints.
mmm=$1 src=$2
. "$(dirname "$0")/helpers/gpu_grid.sh"
ok_tpb_k spmv.xml -D n=1048576 -D d=16
ok_tpb_k spmv.xml -D n=16777216 -D d=8
ok_tpb_k relax.xml -D n=1048576 -D m=8388608
ok_tpb_k relax.xml -D n=16777216 -D m=67108864
ok_tpb_k shfl_reduce.xml -D n=33554432
ok_tpb_k shfl_reduce.xml -D n=1073741824
for TS in 16 32; do
    for R in 1 2 4 8; do
        ok regmm.xml -D n=1024 -D tile=$TS -D r=$R
        ok regmm.xml -D n=3072 -D tile=$TS -D r=$R
    done
done
bad_tpb_k spmv.xml relax.xml shfl_reduce.xml
bad spmv.xml -D n=1000
bad relax.xml -D m=1000
bad shfl_reduce.xml -D n=1000
bad regmm.xml -D tile=8
bad regmm.xml -D tile=24
bad regmm.xml -D r=16
bad regmm.xml -D n=1000
[ "$fail" -eq 0 ] && echo "$n configurations of set D evaluate; the others are refused"
exit "$fail"
