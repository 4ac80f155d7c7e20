#!/bin/sh
# gpu_setf_grid.sh MMM SOURCE_DIR: every launch configuration that
# bench/gpu/holdout5.cu times (its two sizes of each kernel) evaluates with
# the time model from its DAG file in dags/gpu, and configurations the
# program does not run are refused by the files' ranges and constraints.
mmm=$1 src=$2
. "$(dirname "$0")/helpers/gpu_grid.sh"
ok_tpb_k pr_push.xml -D n=524288 -D d=8
ok_tpb_k pr_push.xml -D n=16777216 -D d=8
ok_tpb_k histogram.xml -D n=67108864 -D bins=65536
ok_tpb_k histogram.xml -D n=67108864 -D bins=67108864
ok_tpb_k cc_hook.xml -D n=1048576 -D m=2097152
ok_tpb_k cc_hook.xml -D n=16777216 -D m=67108864
ok_tpb_k tiled_conv.xml -D n=4194304
ok_tpb_k tiled_conv.xml -D n=67108864
bad_tpb_k pr_push.xml histogram.xml cc_hook.xml tiled_conv.xml
bad pr_push.xml -D n=1000
bad pr_push.xml -D d=4
bad pr_push.xml -D d=16
bad histogram.xml -D n=1000
bad histogram.xml -D bins=1000
bad histogram.xml -D bins=0
bad cc_hook.xml -D m=1000
bad tiled_conv.xml -D n=1000
bad tiled_conv.xml -D taps=17
bad tiled_conv.xml -D taps=65
[ "$fail" -eq 0 ] && echo "$n configurations of set F evaluate; the others are refused"
exit "$fail"
