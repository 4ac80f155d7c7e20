#!/bin/sh
# gpu_setg_grid.sh MMM SOURCE_DIR: every launch configuration that
# bench/gpu/holdout6.cu times (its two sizes of each kernel) evaluates with
# the time model from its DAG file in dags/gpu, and configurations the
# program does not run are refused by the files' ranges and constraints.
mmm=$1 src=$2
. "$(dirname "$0")/helpers/gpu_grid.sh"
ok_tpb_k col_sum.xml -D rows=32 -D cols=262144
ok_tpb_k col_sum.xml -D rows=64 -D cols=1048576
ok_tpb_k block_hist.xml -D n=8388608 -D bins=256
ok_tpb_k block_hist.xml -D n=134217728 -D bins=256
ok_tpb_k batched_mm.xml -D batch=2048
ok_tpb_k batched_mm.xml -D batch=32768
ok_tpb_k tri_count.xml -D n=131072 -D d=8
ok_tpb_k tri_count.xml -D n=4194304 -D d=8
bad_tpb_k col_sum.xml block_hist.xml batched_mm.xml tri_count.xml
bad col_sum.xml -D cols=1000
bad col_sum.xml -D rows=30
bad col_sum.xml -D rows=0
bad block_hist.xml -D n=1000
bad block_hist.xml -D bins=128
bad block_hist.xml -D bins=512
bad batched_mm.xml -D batch=6 -D k=4
bad tri_count.xml -D n=3000
bad tri_count.xml -D n=64 -D tpb=1024
bad tri_count.xml -D d=16
bad tri_count.xml -D win=64
[ "$fail" -eq 0 ] && echo "$n configurations of set G evaluate; the others are refused"
exit "$fail"
