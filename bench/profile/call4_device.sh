#!/bin/bash
# call4_device.sh: what runs on the device machine (run tool) for the fourth
# set of captures, from the repository root, with build-profile/ carried
# (bench/profile/build.sh: prof_validate, prof_holdout2..5, prof_cumodp).
#
#   DEADLINE=165 bash bench/profile/call4_device.sh
#
# 1. bench/gpu at one or two MORE small sizes of the programs that the
#    one-size profile (call3) got wrong: the matrix products at n = 512 and
#    2048 (call3: 1024), and the programs whose per-thread parameter
#    changes between sizes at other values of it.  Same metric list as
#    call3 (bench/profile/metrics.txt), --clock-control none, default
#    replay and cache control; each capture exported as call3's were
#    (X.raw.csv, X.raw-base.csv, X.raw-instances.csv; X.out the driver's
#    stdout, X.err its stderr, X.ncu.log ncu's messages).
# 2. With the time left (no run starts after DEADLINE seconds): CUMODP's
#    full-metric samples, one driver process per configuration, as
#    cumodp_device.sh PHASES=samples takes them: div_opt, then mul.
# Output: $OUT/call4.tar.xz and call4-rep.tar.xz (1; until they are packed,
# one X.tar.xz per capture), $OUT/cumodp-samples.tar.xz (2), $OUT/run.log.
#
# The first run of this script (2026-11-28) lost its captures: it ended
# part 1 with a plain `wait`, which in bash 5.2 also waits for the `tee` of
# `exec > >(tee ...)`, so it hung until the run tool's limit and nothing was
# packed.  It now waits for the exports' process ids only, and packs each
# capture as soon as its exports are written.  It also sampled the two
# pagerank sizes in one filtered run, where ncu's per-launch-config filter
# (the function's name, grid, block, shared memory) took one sample for
# configurations of both sizes with the same grid (54 launches, not 72):
# each size is now its own run.
set -u
T0=$(date +%s)
O=${OUT:?}
W=/tmp/call4
mkdir -p $W/cap $W/cumodp/ncu
exec > >(tee -a $O/run.log) 2>&1
DEADLINE=${DEADLINE:-165}
B=build-profile
el() { echo $(( $(date +%s) - T0 )); }
left() { echo $(( DEADLINE - $(el) )); }
log() { echo "[$(el)s] $*"; }
chmod +x $B/* 2>/dev/null
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
log "ncu: $NCU $($NCU --version | tail -1)"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv | tee $W/cap/nvidia-smi.csv
MET=$(grep -v '^#' bench/profile/metrics.txt | grep -v '^ *$' | paste -sd, -)
cp bench/profile/metrics.txt $W/cap/metrics.txt
echo "capture,rc,seconds,launches_profiled,command" > $W/cap/replay.csv

# One capture: NAME BINARY ARGS... (EXTRA: more ncu options).  The exports
# (and the capture's tar.xz) are made in the background while the next
# capture runs.
PIDS=""
cap() {
    local name=$1; shift
    local t; t=$(date +%s)
    timeout 100 $NCU --clock-control none --metrics "$MET" ${EXTRA:-} -f -o $W/cap/$name \
        --log-file $W/cap/$name.ncu.log "$@" > $W/cap/$name.out 2> $W/cap/$name.err
    local rc=$?
    local s=$(( $(date +%s) - t ))
    local n; n=$(grep -c '^==PROF== Profiling' $W/cap/$name.ncu.log)
    echo "$name,$rc,$s,$n,${EXTRA:-} $*" >> $W/cap/replay.csv
    log "cap $name rc=$rc ${s}s launches=$n"
    (
        $NCU --import $W/cap/$name.ncu-rep --csv --page raw > $W/cap/$name.raw.csv 2> /dev/null
        $NCU --import $W/cap/$name.ncu-rep --csv --page raw --print-units base > $W/cap/$name.raw-base.csv 2> /dev/null
        $NCU --import $W/cap/$name.ncu-rep --csv --page raw --print-metric-instances details > $W/cap/$name.raw-instances.csv 2> /dev/null
        tar -cf - -C $W/cap $name.raw.csv $name.raw-base.csv $name.raw-instances.csv $name.out \
            $name.err $name.ncu.log | xz -T2 -6 > $O/$name.tar.xz
    ) &
    PIDS="$PIDS $!"
}

# 1. bench/gpu (sizes: the driver's NAME:A:B, bench/profile/prof_*.cu)
cap validate4 $B/prof_validate matmul:512 matmul:2048
EXTRA="--filter-mode per-launch-config --launch-count 1" \
    cap validate4_pr_d4 $B/prof_validate pagerank:1048576:4
EXTRA="--filter-mode per-launch-config --launch-count 1" \
    cap validate4_pr_d8 $B/prof_validate pagerank:524288:8
cap holdout4_4 $B/prof_holdout4 mm2d:512 mm2d:2048 vec_spmv:262144:32 vec_spmv:131072:16
cap holdout3_4 $B/prof_holdout3 regmm:512 regmm:2048 spmv:1048576:8 spmv:524288:4 \
    relax:1048576:4194304 relax:524288:1048576
cap holdout5_4 $B/prof_holdout5 cc_hook:1048576:4194304 cc_hook:524288:4194304
cap holdout2_4 $B/prof_holdout2 gemv:16384:1024 gemv:8192:2048
wait $PIDS    # never a plain wait: it would wait for the tee above
cat $W/cap/replay.csv
log "packing call4"
rm -f $O/*_4.tar.xz $O/validate4*.tar.xz
mkdir -p $W/rep && mv $W/cap/*.ncu-rep $W/rep/ 2>/dev/null
tar -cf - -C $W cap | xz -T0 -6 > $O/call4.tar.xz
tar -cf - -C $W rep | xz -T0 -1 > $O/call4-rep.tar.xz
log "packed: $(ls -la $O | tr '\n' ' ')"

# 2. CUMODP's samples, while time is left
C=$B/prof_cumodp
FULL=$(grep -v '^ *$' bench/profile/metrics-mmm-profile.txt | paste -sd, -)
COMMON="--csv --page raw --print-units base --clock-control none"
packc() { tar -cJf $O/cumodp-samples.tar.xz -C $W cumodp; }
echo "what,seconds,rc" > $W/cumodp/ncu/replay.csv
cs() {   # FILE ARGS...: one ncu run of prof_cumodp, capped at 20 s
    local f=$1; shift
    local t; t=$(date +%s)
    timeout 20 $NCU $COMMON --metrics $FULL --print-metric-instances details "$@" > /dev/null 2>&1
    local rc=$?
    echo "$f,$(( $(date +%s) - t )),$rc" >> $W/cumodp/ncu/replay.csv
}
for s in 32 64 128 256 512 1024; do
    [ $(left) -lt 8 ] && { log "cumodp: out of time before div_opt s=$s"; break; }
    cs div_opt-sample-$s --filter-mode per-launch-config --launch-count 1 \
        --log-file $W/cumodp/ncu/div_opt_4096_2048-sample-$s.csv $C once div_opt 4096:2048 $s
    cs div_opt-last-$s --nvtx --nvtx-include last \
        --log-file $W/cumodp/ncu/div_opt_4096_2048-last-$s.csv $C once div_opt 4096:2048 $s
    log "div_opt s=$s"
done
packc
for sz in 1024:1024 4096:4096 2048:256; do
    for c in 1:256 2:256 4:256 8:256 16:256 32:256 4:128 4:512 8:128; do
        [ $(left) -lt 5 ] && break
        cs mul-${sz/:/_}-${c/:/_} --filter-mode per-launch-config --launch-count 1 \
            --log-file $W/cumodp/ncu/mul_${sz/:/_}-sample-${c/:/_}.csv $C once mul $sz $c
    done
    log "mul $sz"
    packc
done
cat $W/cumodp/ncu/replay.csv | tail -3
log "done; $(ls -la $O | tr '\n' ' ')"
