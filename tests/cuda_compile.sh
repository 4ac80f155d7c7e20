#!/bin/sh
# cuda_compile.sh NVCC SOURCE_DIR WORK_DIR: compile the GPU module of
# `mmm calibrate` (cuda/calibrate.cu) and the timed kernels of
# bench/gpu (validate.cu, holdout.cu, holdout2.cu, holdout3.cu, holdout4.cu,
# holdout5.cu, holdout6.cu, stores.cu, atomics.cu, reads.cu, gathers.cu,
# retouch.cu, blocks.cu, shared.cu) for sm_90 with warnings as errors.
# Without nvcc the test is skipped (exit 77).  Where cuobjdump is found as
# well, check in the machine code that each timed chain kept one
# instruction per operation (otherwise the cycles per operation would be
# cycles per instruction of some fused form).
nvcc=$1 src=$2 work=$3
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
    nvcc=$(command -v nvcc || true)
fi
if [ -z "$nvcc" ]; then
    echo "nvcc not found: the CUDA module is not compiled (skipped)"
    exit 77
fi
set -e
mkdir -p "$work"
obj=$work/calibrate_sm90.o
"$nvcc" -arch=sm_90 -O3 -Werror all-warnings -Xcompiler=-Wall \
    -I"$src/include" -I"$src/cuda" -c "$src/cuda/calibrate.cu" -o "$obj"
echo "compiled $src/cuda/calibrate.cu for sm_90"
for prog in validate holdout holdout2 holdout3 holdout4 holdout5 holdout6 stores atomics reads gathers retouch blocks shared; do
    "$nvcc" -arch=sm_90 -O3 -std=c++17 -Werror all-warnings -Xcompiler=-Wall \
        -o "$work/$prog" "$src/bench/gpu/$prog.cu"
    echo "compiled $src/bench/gpu/$prog.cu for sm_90"
done
dump=$(dirname "$nvcc")/cuobjdump
[ -x "$dump" ] || dump=$(command -v cuobjdump || true)
if [ -z "$dump" ]; then
    echo "cuobjdump not found: machine code not checked"
    exit 0
fi
"$dump" -sass "$obj" > "$work/calibrate_sm90.sass"
[ -z "$MMM_SHOW_SASS" ] || awk -v f="$MMM_SHOW_SASS" '/Function :/ { on = index($0, f) > 0 } on' "$work/calibrate_sm90.sass"
# count FUNCTION REGEX: instructions of the kernel whose mangled name
# contains FUNCTION that match REGEX
count() {
    awk -v f="$1" '/Function :/ { on = index($0, f) > 0 } on' \
        "$work/calibrate_sm90.sass" | grep -cE "$2" || true
}
expect() { # FUNCTION REGEX OP N: exactly N, or at least N with OP ">="
    n=$(count "$1" "$2")
    if { [ "$3" = "==" ] && [ "$n" -ne "$4" ]; } ||
       { [ "$3" = ">=" ] && [ "$n" -lt "$4" ]; }; then
        echo "FAIL: $1 has $n instructions matching '$2', expected $3 $4"
        exit 1
    fi
    echo "ok: $1: $n x '$2' ($3 $4)"
}
# 32 operations per unrolled loop body (OPS_UNROLL), 16 adds + 16 xors;
# the issue kernel: 4 x 16 chains per loop body.
expect op_iadd ' LOP3' == 16
expect op_iadd ' (IADD3|IADD|VIADD|IMAD\.IADD) ' '>=' 16
expect op_ffma ' FFMA ' == 32
expect op_dfma ' DFMA ' == 32
expect k_issue ' FFMA ' == 64
expect k_smem ' LDS ' '>=' 16
expect k_sync ' BAR.SYNC' '>=' 17
expect k_chase ' LDG' '>=' 2
