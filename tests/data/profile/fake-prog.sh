#!/bin/sh
# fake-prog.sh: a stand-in for a CUDA program in tests/test_profile.c.  Run
# with the launch tracer injected (CUDA_INJECTION64_PATH set), it writes
# what libmmm_trace.so wrote for CUMODP's optimized division at s = 1024 on
# an H200 (tests/data/profile/trace/launches.csv) to $MMM_TRACE_FILE;
# with NOTRACE=1 it writes nothing, as a program that never touches CUDA.
dir=$(dirname "$0")
echo "program output"
if [ -n "$CUDA_INJECTION64_PATH" ] && [ -z "$NOTRACE" ]; then
  cp "$dir/trace/launches.csv" "$MMM_TRACE_FILE"
fi
exit "${EXIT:-0}"
