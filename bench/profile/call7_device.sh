#!/bin/bash
# call7_device.sh: CUMODP's multiplication profiled by `mmm profile run` at
# sizes where every block is full (n = m = 8192, 16384), every (s, l) the
# driver has: 12 points with l = 256, 4 with l = 128 (s = 4, 8), 2 with
# l = 512 (s = 4).  Carry devkit/ (see call6_device.sh).  Output:
# $OUT/mul_A.tar.xz, mul_B.tar.xz, mul_C.tar.xz (each a kept folder with its
# POINTS.csv, the DAG built without a skeleton, stdout/stderr), run.log.
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
W=/tmp/c7; mkdir -p $W
prof() {   # NAME CAP ARGS...
    local name=$1 cap=$2; shift 2
    local t; t=$(date +%s)
    mkdir -p $W/$name
    timeout $cap devkit/mmm profile run --ncu "$NCU" --keep $W/$name/keep -o $W/$name/out.xml "$@" \
        > $W/$name/stdout 2> $W/$name/stderr
    log "$name rc=$? $(( $(date +%s) - t ))s: $(tail -2 $W/$name/stderr | tr '\n' ' ')"
    tar -cJf $O/$name.tar.xz -C $W $name
}
prof mul_A 200 --param n=8192,16384 --param s=1,2,4,8,16,32 -- devkit/bp/prof_cumodp once mul '{n}:{n}' '{s}:256'
prof mul_B 100 --param n=8192,16384 --param s=4,8 -- devkit/bp/prof_cumodp once mul '{n}:{n}' '{s}:128'
prof mul_C 60 --param n=8192,16384 -- devkit/bp/prof_cumodp once mul '{n}:{n}' '4:512'
log done
