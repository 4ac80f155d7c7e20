#!/bin/bash
# call6_device.sh: `mmm profile run` with its launch tracer on the GPU
# machine (run tool), from the repository root, carrying devkit/bp/
# (bench/profile/build.sh) and devkit/ (mmm, libmmm_trace.so and the shared
# libraries they need, libcupti.so.13 among them; see call5_device.sh).
# Each profile run keeps its captures (--keep) and is packed with its
# output and timing into $OUT/NAME.tar.xz; $OUT/run.log has the times.
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
ls -la /usr/local/cuda/lib64/libcupti* 2>&1 | head -3
W=/tmp/c6; mkdir -p $W
prof() {   # NAME CAP ARGS...: one mmm profile run, packed
    local name=$1 cap=$2; shift 2
    local t; t=$(date +%s)
    mkdir -p $W/$name
    timeout $cap devkit/mmm profile run --ncu "$NCU" --keep $W/$name/keep -o $W/$name/out.xml "$@" \
        > $W/$name/stdout 2> $W/$name/stderr
    local rc=$?
    echo "$name,$rc,$(( $(date +%s) - t ))" >> $O/times.csv
    log "$name rc=$rc $(( $(date +%s) - t ))s: $(tail -2 $W/$name/stderr | tr '\n' ' ')"
    tar -cJf $O/$name.tar.xz -C $W $name
}
echo "name,rc,seconds" > $O/times.csv
prof reduce3 120 --param n=262144,524288,1048576 -- devkit/bp/prof_validate 'reduce:{n}'
prof pagerank2 90 -- devkit/bp/prof_validate pagerank:1048576:4 pagerank:524288:8
t=$(date +%s); MMM_TRACE_FILE=$W/naive-plain-trace.csv CUDA_INJECTION64_PATH=$MMM_TRACER \
  devkit/bp/prof_cumodp once div_naive 4096:2048 > /dev/null 2>&1; log "naive traced alone rc=$? $(( $(date +%s) - t ))s $(wc -l < $W/naive-plain-trace.csv) lines"
prof naive_4096 120 -- devkit/bp/prof_cumodp once div_naive 4096:2048
prof naive_65536 200 -- devkit/bp/prof_cumodp once div_naive 65536:32768
prof div_opt 150 --param s=32,64,128,256,512,1024 -- devkit/bp/prof_cumodp once div_opt 4096:2048 '{s}'
prof mul 150 --param n=1024,2048 --param s=1,2,4,8,16,32 -- devkit/bp/prof_cumodp once mul '{n}:{n}' '{s}:256'
log "done"
