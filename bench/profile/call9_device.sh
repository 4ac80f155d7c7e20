#!/bin/bash
# call9_device.sh: stream order across streams.  bench/profile/streams_demo.cu
# (events, a non-blocking stream, the legacy default stream, host waits)
# run under the launch tracer alone (the raw trace), then profiled by `mmm
# profile run` at three sizes; graph_demo again (the trace's version 3).
# Carry devkit/ (see call6_device.sh) with devkit/bp/streams_demo and
# graph_demo.  Output: $OUT/streams.tar.xz, run.log.
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
W=/tmp/c9; mkdir -p $W/streams $W/graph
MMM_TRACE_FILE=$W/streams/trace_raw.csv CUDA_INJECTION64_PATH=$MMM_TRACER devkit/bp/streams_demo 1048576 > $W/streams/raw.stdout 2>&1
log "raw trace rc=$? $(wc -l < $W/streams/trace_raw.csv) lines"
cat $W/streams/trace_raw.csv
MMM_TRACE_FILE=$W/graph/trace_raw.csv CUDA_INJECTION64_PATH=$MMM_TRACER devkit/bp/graph_demo 1048576 3 > $W/graph/raw.stdout 2>&1
log "graph raw trace rc=$? $(wc -l < $W/graph/trace_raw.csv) lines"
cat $W/graph/trace_raw.csv
t=$(date +%s)
timeout 240 devkit/mmm profile run --ncu "$NCU" --keep $W/streams/keep --name streams_demo -o $W/streams/out.xml \
    --param n=262144,1048576,4194304 -- devkit/bp/streams_demo '{n}' > $W/streams/stdout 2> $W/streams/stderr
log "profile run rc=$? $(( $(date +%s) - t ))s: $(tail -3 $W/streams/stderr | tr '\n' ' ')"
grep -n "<kernel\|<copy\|<edge" $W/streams/out.xml
tar -cJf $O/streams.tar.xz -C $W .
log done
