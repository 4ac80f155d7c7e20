#!/bin/bash
# cumodp_device.sh: what runs on the device machine for CUMODP (run tool),
# from the repository root, with build-profile/prof_cumodp carried.
#   DEADLINE=400 bash bench/profile/cumodp_device.sh            # everything
#   PHASES=samples DEADLINE=300 bash bench/profile/cumodp_device.sh   # the
#       full-metric samples again, one driver process per configuration (so
#       that ncu's per-launch-config filter, which groups launches by the
#       function's name without its namespace, samples every configuration)
# Phases: timing (no ncu, all sizes), then ncu captures at the smallest sizes
# the way `mmm profile run` takes them: a launch-statistics pass over every
# launch (--metrics $(mmm profile metrics --launch)) and one full sample per
# launch configuration (--metrics $(mmm profile metrics)
# --print-metric-instances details --filter-mode per-launch-config
# --launch-count 1); for div_opt also the last divGPU of each chain
# (--nvtx --nvtx-include last).  Every ncu run --csv --page raw
# --print-units base --clock-control none --log-file X.csv.
# Output: $OUT/cumodp.tar.xz and $OUT/run.log.
set -u
T0=$(date +%s)
O=${OUT:?}
W=/tmp/cumodp; mkdir -p $W/timing $W/ncu
exec > >(tee -a $O/run.log) 2>&1
DEADLINE=${DEADLINE:-400}
el() { echo $(( $(date +%s) - T0 )); }
left() { echo $(( DEADLINE - $(el) )); }
log() { echo "[$(el)s] $*"; }
B=build-profile/prof_cumodp
chmod +x $B
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
# one metric a line in the file, commas for ncu (the first run, 2026-11-28,
# joined them without commas: its samples have launch statistics only)
FULL=$(grep -v '^ *$' bench/profile/metrics-mmm-profile.txt | paste -sd, -)
LAUNCH=launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
COMMON="--csv --page raw --print-units base --clock-control none"
log "ncu: $NCU"; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv | tee $W/nvidia-smi.csv
pack() { tar -cJf $O/cumodp.tar.xz -C /tmp cumodp; }

PHASES=${PHASES:-"timing lists"}
want() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }

if want samples; then
    # X-sample.csv of every (program, size) as one file per configuration:
    # X-sample-CFG.csv; div_opt also X-last-S.csv
    for s in 32 64 128 256 512 1024; do
        [ $(left) -lt 20 ] && break
        timeout 30 $NCU $COMMON --metrics $FULL --print-metric-instances details --filter-mode per-launch-config \
            --launch-count 1 --log-file $W/ncu/div_opt_4096_2048-sample-$s.csv $B once div_opt 4096:2048 $s > /dev/null 2>&1
        timeout 30 $NCU $COMMON --metrics $FULL --print-metric-instances details --nvtx --nvtx-include last \
            --log-file $W/ncu/div_opt_4096_2048-last-$s.csv $B once div_opt 4096:2048 $s > /dev/null 2>&1
        log "div_opt s=$s"
    done
    pack
    timeout 60 $NCU $COMMON --metrics $FULL --print-metric-instances details --filter-mode per-launch-config \
        --launch-count 1 --log-file $W/ncu/div_naive_4096_2048-sample.csv $B once div_naive 4096:2048 > /dev/null 2>&1
    log "div_naive"
    for sz in 1024:1024 4096:4096 2048:256; do
        for c in 1:256 2:256 4:256 8:256 16:256 32:256 4:128 4:512 8:128; do
            [ $(left) -lt 15 ] && break
            timeout 30 $NCU $COMMON --metrics $FULL --print-metric-instances details --filter-mode per-launch-config \
                --launch-count 1 --log-file $W/ncu/mul_${sz/:/_}-sample-${c/:/_}.csv $B once mul $sz $c > /dev/null 2>&1
        done
        log "mul $sz"
        pack
    done
    log "done"; exit 0
fi

# 1. timing, all sizes (div_opt, mul, then the naive division: the longest)
for p in div_opt mul div_naive; do
    s=$(left); [ $s -lt 60 ] && { log "skip timing $p"; continue; }
    log "time $p"
    t0=$(date +%s)
    timeout $(( s - 30 )) $B time $p all > $W/timing/${p}_h200.csv 2> $W/timing/${p}_h200.err
    echo "$p,$(( $(date +%s) - t0 ))" >> $W/timing/wall.csv
    grep -c FAILED $W/timing/${p}_h200.csv; wc -l < $W/timing/${p}_h200.csv
done
pack

# 2. ncu: list + sample (+ last) per capture
cap() {   # name, time cap, program args...
    local x=$1 cap=$2; shift 2
    local s=$(left); [ $s -lt 25 ] && { log "skip $x"; return; }
    [ $cap -gt $(( s - 15 )) ] && cap=$(( s - 15 ))
    log "ncu $x (cap ${cap}s): $*"
    local t0=$(date +%s)
    timeout $cap $NCU $COMMON --metrics $LAUNCH --log-file $W/ncu/$x-launches.csv $B once "$@" > $W/ncu/$x-launches.out 2>&1
    local t1=$(date +%s)
    s=$(left); [ $cap -gt $(( s - 10 )) ] && cap=$(( s - 10 ))
    timeout $cap $NCU $COMMON --metrics $FULL --print-metric-instances details --filter-mode per-launch-config \
        --launch-count 1 --log-file $W/ncu/$x-sample.csv $B once "$@" > $W/ncu/$x-sample.out 2>&1
    local t2=$(date +%s)
    echo "$x,launches,$(( t1 - t0 ))" >> $W/ncu/replay.csv
    echo "$x,sample,$(( t2 - t1 ))" >> $W/ncu/replay.csv
    log "  $x: list $(( t1 - t0 ))s ($(grep -c '^"[0-9]' $W/ncu/$x-launches.csv) rows), sample $(( t2 - t1 ))s ($(grep -c '^"[0-9]' $W/ncu/$x-sample.csv) rows)"
}
cap div_opt_4096_2048 60 div_opt 4096:2048
s=$(left)
if [ $s -gt 30 ]; then
    t0=$(date +%s)
    timeout 40 $NCU $COMMON --metrics $FULL --print-metric-instances details --nvtx --nvtx-include last \
        --log-file $W/ncu/div_opt_4096_2048-last.csv $B once div_opt 4096:2048 > $W/ncu/div_opt_4096_2048-last.out 2>&1
    echo "div_opt_4096_2048,last,$(( $(date +%s) - t0 ))" >> $W/ncu/replay.csv
    log "  last: $(grep -c '^"[0-9]' $W/ncu/div_opt_4096_2048-last.csv) rows"
fi
pack
cap mul_1024_1024 70 mul 1024:1024
cap mul_4096_4096 70 mul 4096:4096
pack
cap div_naive_4096_2048 150 div_naive 4096:2048
pack
cap mul_2048_256 60 mul 2048:256
pack
log "done"
