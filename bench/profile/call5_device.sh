#!/bin/bash
# call5_device.sh: the fifth device call (run tool), from the repository root,
# carrying build-profile/ (bench/profile/build.sh) and devkit/ (a Release
# build of mmm and the shared libraries it needs: libxml2, jansson, ICU, zlib,
# lzma, copied from this Debian machine; ignored through .git/info/exclude).
#   bash bench/profile/call5_device.sh
# 1. mmm itself on the GPU machine: `mmm profile run` of the reduction at
#    three sizes (its two ncu passes, --keep), timed.
# 2. call4_device.sh (the multi-size captures of bench/gpu, then CUMODP's
#    samples) with its own deadline.
# 3. CUMODP's naive division under ncu: the per-launch-config sample (how
#    long ncu takes over 12,296 launches when it profiles a handful) and the
#    launch-statistics list, each capped, with the rows they reached.
# Output under $OUT: mmm/ (1), call4/ (2), naive/ (3), run.log.
set -u
T0=$(date +%s)
O=${OUT:?}
exec > >(tee -a $O/run.log) 2>&1
el() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$(el)s] $*"; }
chmod +x build-profile/* devkit/mmm
export LD_LIBRARY_PATH=$PWD/devkit/lib
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
log "ncu $NCU; $(uname -a); $(ldd --version | head -1)"
mkdir -p $O/mmm $O/call4 $O/naive
devkit/mmm --version
t=$(date +%s)
timeout 150 devkit/mmm profile run --ncu "$NCU" --param n=262144,524288,1048576 --keep $O/mmm/keep \
    -o $O/mmm/reduce.xml -- build-profile/prof_validate 'reduce:{n}' > $O/mmm/stdout 2> $O/mmm/stderr
log "mmm profile run rc=$? $(( $(date +%s) - t ))s"; tail -5 $O/mmm/stderr
OUT=$O/call4 DEADLINE=330 bash bench/profile/call4_device.sh > /dev/null 2>&1
log "call4 done: $(ls $O/call4 | tr '\n' ' ')"
B=build-profile/prof_cumodp
COMMON="--csv --page raw --print-units base --clock-control none"
FULL=$(grep -v '^ *$' bench/profile/metrics-mmm-profile.txt | paste -sd, -)
LAUNCH=launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
t=$(date +%s)
timeout 20 $B once div_naive 4096:2048 > $O/naive/plain.out 2> $O/naive/plain.err
log "naive plain rc=$? $(( $(date +%s) - t ))s"
t=$(date +%s)
timeout 100 $NCU $COMMON --metrics $FULL --print-metric-instances details --filter-mode per-launch-config \
    --launch-count 1 --log-file $O/naive/sample.csv $B once div_naive 4096:2048 > $O/naive/sample.out 2>&1
log "naive sample rc=$? $(( $(date +%s) - t ))s rows=$(grep -c '^"[0-9]' $O/naive/sample.csv)"
t=$(date +%s)
timeout 60 $NCU $COMMON --metrics $LAUNCH --log-file $O/naive/list.csv $B once div_naive 4096:2048 > $O/naive/list.out 2>&1
log "naive list rc=$? $(( $(date +%s) - t ))s rows=$(grep -c '^"[0-9]' $O/naive/list.csv)"
xz -T0 $O/naive/*.csv $O/naive/*.out 2>/dev/null
log "done"
