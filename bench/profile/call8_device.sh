#!/bin/bash
# call8_device.sh: CUDA graphs.  bench/profile/graph_demo.cu (one graph of
# a memset and four kernels, two of them concurrent, replayed 3 times) run
# under the launch tracer alone (the raw trace), then profiled by `mmm
# profile run` at three sizes.  Carry devkit/ (see call6_device.sh) with
# devkit/bp/graph_demo.  Output: $OUT/graph.tar.xz (trace_raw.csv, the kept
# folder, the DAG, stdout/stderr), run.log.
set -u
T0=$(date +%s)
O=${OUT:?}
exec > >(tee -a $O/run.log) 2>&1
el() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$(el)s] $*"; }
chmod +x devkit/bp/* devkit/mmm
export LD_LIBRARY_PATH=$PWD/devkit/lib
export MMM_TRACER=$PWD/devkit/libmmm_trace.so
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
W=/tmp/c8/graph; mkdir -p $W
MMM_TRACE_FILE=$W/trace_raw.csv CUDA_INJECTION64_PATH=$MMM_TRACER devkit/bp/graph_demo 1048576 3 > $W/raw.stdout 2>&1
log "raw trace rc=$? $(wc -l < $W/trace_raw.csv) lines"
cat $W/trace_raw.csv
t=$(date +%s)
timeout 240 devkit/mmm profile run --ncu "$NCU" --keep $W/keep --name graph_demo -o $W/out.xml \
    --param n=262144,1048576,4194304 -- devkit/bp/graph_demo '{n}' 3 > $W/stdout 2> $W/stderr
log "profile run rc=$? $(( $(date +%s) - t ))s: $(tail -3 $W/stderr | tr '\n' ' ')"
grep -n "<kernel\|<copy\|<edge" $W/out.xml
tar -cJf $O/graph.tar.xz -C /tmp/c8 graph
log done
