#!/bin/sh
# gpu_sete_grid.sh MMM SOURCE_DIR: every launch configuration that
# bench/gpu/holdout4.cu times (its two sizes of each kernel) evaluates with
# the time model from its DAG file in dags/gpu, and configurations the
# program does not run are refused by the files' ranges and constraints.
mmm=$1 src=$2
. "$(dirname "$0")/helpers/gpu_grid.sh"
ok_tpb_k seq_reduce.xml -D n=33554432
ok_tpb_k seq_reduce.xml -D n=1073741824
ok_tpb_k bfs_step.xml -D n=1048576 -D f=16384 -D d=8
ok_tpb_k bfs_step.xml -D n=33554432 -D f=524288 -D d=8
ok_tpb_k vec_spmv.xml -D n=262144 -D d=64
ok_tpb_k vec_spmv.xml -D n=8388608 -D d=32
for TR in 32:1 32:2 32:4 64:2 64:4; do
    ok mm2d.xml -D n=1024 -D tile=${TR%:*} -D r=${TR#*:}
    ok mm2d.xml -D n=4096 -D tile=${TR%:*} -D r=${TR#*:}
done
bad_tpb_k seq_reduce.xml bfs_step.xml vec_spmv.xml
bad seq_reduce.xml -D n=1000
bad bfs_step.xml -D f=1000
bad bfs_step.xml -D n=2097152
bad bfs_step.xml -D d=16
bad vec_spmv.xml -D n=1001
bad vec_spmv.xml -D d=48
bad vec_spmv.xml -D d=128
bad mm2d.xml -D tile=16
bad mm2d.xml -D tile=48
bad mm2d.xml -D tile=128
bad mm2d.xml -D r=3
bad mm2d.xml -D r=8
bad mm2d.xml -D tile=64 -D r=1
bad mm2d.xml -D n=1000
[ "$fail" -eq 0 ] && echo "$n configurations of set E evaluate; the others are refused"
exit "$fail"
