#!/bin/bash
# device_run.sh: what runs on the device machine (run tool), from the
# repository root, with build-profile/ carried (bench/profile/build.sh, plus
# build-profile/mmm and build-profile/mmmlib.tar.xz for mmm calibrate).
#
#   PHASES="meta calib trial timing nsys caps" DEADLINE=540 bash bench/profile/device_run.sh
#
# Phases (in this order, each skipped unless named):
#   meta    nvidia-smi -q, ncu --version/--help/--query-metrics, tools found
#   calib   mmm calibrate -> h200-calibrated.xml / .json
#   trial   validate metrics-candidates.txt against --query-metrics, one
#           capture of prof_holdout transpose (12 launches) -> metrics.txt
#   timing  the unchanged bench/gpu programs, no ncu, all sizes
#   nsys    try the nsys that ships inside Nsight Compute
#   caps    ncu captures of the profiling drivers (CAPS: names, default all)
# Every ncu run: --clock-control none.  Output: $OUT/*.tar.xz and run.log.
# No phase starts after DEADLINE seconds (from the start); captures are cut
# at DEADLINE+30.
set -u
T0=$(date +%s)
O=${OUT:?}
W=/tmp/prof
TD=${TD:-timing}
mkdir -p $W/meta $W/$TD $W/cap
exec > >(tee -a $O/run.log) 2>&1
PHASES=${PHASES:-"meta calib trial check timing nsys caps"}
DEADLINE=${DEADLINE:-540}
B=build-profile
R=$(pwd)
el() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$(el)s] $*"; }
want() { case " $PHASES " in *" $1 "*) return 0 ;; esac; return 1; }
left() { echo $(( DEADLINE - $(el) )); }

NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
log "ncu: $NCU"
chmod +x $B/* 2>/dev/null

if want meta; then
    log meta
    { date -u; uname -a; cat /etc/os-release; nproc; free -g; } > $W/meta/host.txt 2>&1
    nvidia-smi > $W/meta/nvidia-smi.txt 2>&1
    nvidia-smi -q > $W/meta/nvidia-smi-q.txt 2>&1
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv > $W/meta/clocks-start.csv 2>&1
    $NCU --version > $W/meta/ncu-version.txt 2>&1
    $NCU --help > $W/meta/ncu-help.txt 2>&1
    $NCU --query-metrics > $W/meta/query-metrics.txt 2>&1
    $NCU --query-metrics --chip gh100 > $W/meta/query-metrics-gh100.txt 2>&1
    $NCU --list-sets > $W/meta/list-sets.txt 2>&1
    $NCU --list-sections > $W/meta/list-sections.txt 2>&1
    d=$(dirname "$(readlink -f "$NCU")")
    { echo "ncu dir: $d"; ls -la "$d" "$d"/host/* "$d"/target/* 2>&1 | head -200;
      command -v nsys nvcc cmake; nvcc --version; ls /usr/local/cuda*/bin | head -80; } > $W/meta/tools.txt 2>&1
    cp -r "$d"/sections $W/meta/sections 2>/dev/null
    ldd $B/prof_holdout > $W/meta/ldd.txt 2>&1; ldd $B/mmm >> $W/meta/ldd.txt 2>&1
    cat $W/meta/ncu-version.txt; head -3 $W/meta/query-metrics.txt; wc -l $W/meta/query-metrics*.txt
    tar -cJf $O/meta.tar.xz -C $W meta
fi

if want calib; then
    log calib
    if ldd $B/mmm | grep -q 'not found'; then
        tar -xJf $B/mmmlib.tar.xz -C /tmp && export LD_LIBRARY_PATH=/tmp/mmmlib
        log "mmm: using the carried libraries"; ldd $B/mmm | grep -E 'not found|mmmlib'
    fi
    mkdir -p $W/calib
    timeout 180 $B/mmm calibrate -o $W/calib/h200-calibrated.xml --format json > $W/calib/h200-calibrated.json 2> $W/calib/calibrate.err
    log "calibrate rc=$? $(wc -c < $W/calib/h200-calibrated.json) bytes of JSON"
    tail -5 $W/calib/calibrate.err
    unset LD_LIBRARY_PATH
    tar -cJf $O/calib.tar.xz -C $W calib
fi

# The metric list: candidates kept where --query-metrics lists their base name.
if [ -s bench/profile/metrics.txt ] && ! want trial; then
    MET=$(grep -v '^#' bench/profile/metrics.txt | paste -sd, -)
fi
if want trial; then
    log trial
    : > $W/meta/metrics-dropped.txt; : > $W/meta/metrics.txt
    grep -v '^#' bench/profile/metrics-candidates.txt | while read -r m; do
        [ -z "$m" ] && continue
        case "$m" in regex:*|launch__*|device__*|sass__*) echo "$m" >> $W/meta/metrics.txt; continue ;; esac
        base=${m%%.*}
        if grep -Eq "^[[:space:]]*$base([[:space:]]|$)" $W/meta/query-metrics.txt; then
            echo "$m" >> $W/meta/metrics.txt
        else
            echo "$m" >> $W/meta/metrics-dropped.txt
        fi
    done
    log "dropped: $(paste -sd' ' $W/meta/metrics-dropped.txt)"
    if [ "$(wc -l < $W/meta/metrics-dropped.txt)" -gt 20 ]; then
        log "query-metrics not understood: keeping every candidate"
        grep -v '^#' bench/profile/metrics-candidates.txt | grep . > $W/meta/metrics.txt
    fi
    grep -E 'barrier|_bar[._ ]|op_bar' $W/meta/query-metrics.txt | head -20 > $W/meta/query-barrier.txt
    grep -E 'wavefronts' $W/meta/query-metrics.txt | head -60 > $W/meta/query-wavefronts.txt
    MET=$(paste -sd, $W/meta/metrics.txt)
    t=$(date +%s)
    $NCU --clock-control none --metrics "$MET" -f -o $W/cap/trial_transpose --log-file $W/cap/trial_transpose.ncu.log \
        $B/prof_holdout transpose > $W/cap/trial_transpose.out 2>&1
    rc=$?
    log "trial rc=$rc in $(( $(date +%s) - t ))s"; tail -5 $W/cap/trial_transpose.ncu.log
    if [ $rc -ne 0 ]; then
        log "trial failed: retrying without regex/sass__/device__"
        grep -v -E '^(regex:|sass__|device__)' $W/meta/metrics.txt > $W/meta/metrics2.txt
        for m in launch__grid_size launch__block_size launch__registers_per_thread \
                 launch__shared_mem_per_block_static launch__shared_mem_per_block_dynamic; do echo $m; done >> $W/meta/metrics2.txt
        grep -v '^launch__' $W/meta/metrics2.txt > /dev/null
        MET=$(paste -sd, $W/meta/metrics2.txt); cp $W/meta/metrics2.txt $W/meta/metrics.txt
        t=$(date +%s)
        $NCU --clock-control none --metrics "$MET" -f -o $W/cap/trial_transpose --log-file $W/cap/trial_transpose.ncu.log \
            $B/prof_holdout transpose > $W/cap/trial_transpose.out 2>&1
        rc=$?; log "trial2 rc=$rc in $(( $(date +%s) - t ))s"; tail -5 $W/cap/trial_transpose.ncu.log
    fi
    echo "$(( $(date +%s) - t ))" > $W/cap/trial_transpose.seconds
    $NCU --import $W/cap/trial_transpose.ncu-rep --csv --page raw > $W/cap/trial_transpose.raw.csv 2>&1
    $NCU --import $W/cap/trial_transpose.ncu-rep --csv --page raw --print-units base > $W/cap/trial_transpose.raw-base.csv 2>&1
    $NCU --import $W/cap/trial_transpose.ncu-rep --csv --page raw --print-kernel-base mangled > $W/cap/trial_transpose.raw-mangled.csv 2>&1
    $NCU --import $W/cap/trial_transpose.ncu-rep --csv --page raw --print-metric-instances values > $W/cap/trial_transpose.raw-instances.csv 2>&1
    $NCU --import $W/cap/trial_transpose.ncu-rep --csv --page details > $W/cap/trial_transpose.details.csv 2>&1
    $NCU --import $W/cap/trial_transpose.ncu-rep --page raw > $W/cap/trial_transpose.raw.txt 2>&1
    head -c 3000 $W/cap/trial_transpose.raw.csv; echo
    # A quick look at the launch metrics and the per-opcode instances of one launch.
    $NCU --clock-control none --metrics "regex:launch__.*,regex:device__attribute_.*" --launch-count 1 -f -o $W/cap/trial_launch \
        $B/prof_holdout transpose > /dev/null 2>&1
    $NCU --import $W/cap/trial_launch.ncu-rep --csv --page raw > $W/cap/trial_launch.raw.csv 2>&1
    cp $W/meta/metrics*.txt $W/cap/
    tar -cJf $O/trial.tar.xz -C $W cap meta/metrics.txt meta/metrics-dropped.txt meta/query-barrier.txt meta/query-wavefronts.txt
fi

if want check; then
    log "check: the list of bench/profile/metrics.txt on one launch"
    t=$(date +%s)
    $NCU --clock-control none --metrics "$MET" --launch-count 1 -f -o $W/cap/check \
        $B/prof_holdout transpose > $W/cap/check.out 2>&1
    rc=$?; log "check rc=$rc in $(( $(date +%s) - t ))s"; grep -E 'ERROR|WARN' $W/cap/check.out | head
    if [ $rc -ne 0 ]; then
        MET=$(grep -v -E '^(#|sass__)' bench/profile/metrics.txt | paste -sd, -)
        log "check failed: without sass__ metrics"
    fi
    echo "$MET" | tr , '\n' > $W/cap/metrics.txt
    $NCU --import $W/cap/check.ncu-rep --csv --page raw --print-metric-instances details > $W/cap/check.raw-instances.csv 2>&1
    grep -o 'sass__inst_executed_per_opcode[^,]*' $W/cap/check.raw-instances.csv | head -3
fi

if want timing; then
    log timing
    echo "program,seconds,rc" > $W/$TD/wall.csv
    for p in ${TIMING:-validate holdout holdout2 holdout3 holdout4 holdout5 holdout6}; do
        [ "$(left)" -lt 20 ] && { log "timing: out of time before $p"; break; }
        t=$(date +%s)
        timeout $(( $(left) + 20 )) $B/$p > $W/$TD/${p}_h200.csv 2> $W/$TD/${p}_h200.err
        rc=$?
        echo "$p,$(( $(date +%s) - t )),$rc" >> $W/$TD/wall.csv
        log "timing $p rc=$rc $(( $(date +%s) - t ))s rows=$(( $(wc -l < $W/$TD/${p}_h200.csv) - 1 ))"
    done
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,clocks.max.sm,power.draw,temperature.gpu --format=csv > $W/$TD/clocks-after.csv 2>&1
    tar -cJf $O/$TD.tar.xz -C $W $TD
fi

if want nsys && [ "$(left)" -gt 60 ]; then
    log nsys
    mkdir -p $W/nsys
    NSYS=$(command -v nsys || ls /opt/nvidia/nsight-compute/*/host/target-linux-x64/nsys 2>/dev/null | head -1)
    {
        echo "nsys: $NSYS"; $NSYS --version
        cd /tmp && timeout 60 $NSYS profile --trace=cuda --force-overwrite=true -o /tmp/nsys_t \
            $R/$B/prof_holdout transpose > /dev/null; echo "profile rc=$?"; cd $R
        ls -la /tmp/nsys_t* 2>&1
        timeout 60 $NSYS stats --report cuda_gpu_trace --format csv /tmp/nsys_t.nsys-rep 2>&1 | head -60
        ls $(dirname $NSYS) | head -50
    } > $W/nsys/nsys.txt 2>&1
    tail -20 $W/nsys/nsys.txt
    tar -cJf $O/nsys.tar.xz -C $W nsys
fi

# One ncu capture: NAME BINARY ARGS... (EXTRA: more ncu options)
cap() {
    local name=$1; shift
    local l; l=$(left)
    if [ "$l" -lt 15 ]; then log "cap $name: skipped (deadline)"; echo "$name,skipped,,,$*" >> $W/cap/replay.csv; return; fi
    local t; t=$(date +%s)
    timeout $(( l + 30 )) $NCU --clock-control none --metrics "$MET" ${EXTRA:-} -f -o $W/cap/$name \
        --log-file $W/cap/$name.ncu.log "$@" > $W/cap/$name.out 2> $W/cap/$name.err
    local rc=$?
    local s=$(( $(date +%s) - t ))
    $NCU --import $W/cap/$name.ncu-rep --csv --page raw > $W/cap/$name.raw.csv 2> /dev/null
    $NCU --import $W/cap/$name.ncu-rep --csv --page raw --print-kernel-base mangled > $W/cap/$name.raw-mangled.csv 2> /dev/null
    $NCU --import $W/cap/$name.ncu-rep --csv --page raw --print-metric-instances details > $W/cap/$name.raw-instances.csv 2> /dev/null
    local n=$(( $(wc -l < $W/cap/$name.raw.csv) - 2 ))
    echo "$name,$rc,$s,$n,${EXTRA:-} $*" >> $W/cap/replay.csv
    log "cap $name rc=$rc ${s}s launches=$n"
}

# What `mmm profile run` does (src/cli/profile_run.c, /work/wt-profile), by hand:
# per program, a launch-statistics-only list of every launch, then every metric
# of its list for the first launch of each launch configuration; both written
# by ncu itself (--csv --log-file), not through --import.
if want req; then
    log req
    mkdir -p $W/run
    RL=launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
    RF=$(paste -sd, bench/profile/metrics-mmm-profile.txt)
    EXTRA= cap validate_reduce_sizes $B/prof_validate reduce:262144 reduce:524288 reduce:1048576
    $NCU --import $W/cap/validate_reduce_sizes.ncu-rep --csv --page raw --print-units base > $W/cap/validate_reduce_sizes.raw-base.csv 2> /dev/null
    for spec in "validate_reduce_pagerank:prof_validate reduce pagerank" "holdout2:prof_holdout2"; do
        name=${spec%%:*}; cmd=${spec#*:}
        [ "$(left)" -lt 30 ] && break
        t=$(date +%s)
        timeout 120 $NCU --csv --page raw --print-units base --clock-control none --metrics "$RL" \
            --log-file $W/run/$name-launches.csv $B/$cmd > $W/run/$name-launches.out 2>&1
        r1=$?; t1=$(( $(date +%s) - t )); t=$(date +%s)
        timeout 200 $NCU --csv --page raw --print-units base --clock-control none --metrics "$RF" \
            --print-metric-instances details --filter-mode per-launch-config --launch-count 1 \
            --log-file $W/run/$name-sample.csv $B/$cmd > $W/run/$name-sample.out 2>&1
        r2=$?; t2=$(( $(date +%s) - t ))
        echo "$name,launches,$r1,$t1,$(grep -c '^"[0-9]' $W/run/$name-launches.csv)" >> $W/run/replay.csv
        echo "$name,sample,$r2,$t2,$(grep -c '^"[0-9]' $W/run/$name-sample.csv)" >> $W/run/replay.csv
        log "run-style $name: list rc=$r1 ${t1}s, sample rc=$r2 ${t2}s"
    done
    echo "$RL" > $W/run/metrics-launch.txt; echo "$RF" > $W/run/metrics-full.txt
    cat $W/run/replay.csv
    tar -cJf $O/run.tar.xz -C $W run
fi

if want caps; then
    log caps
    [ -f $W/cap/replay.csv ] || echo "capture,rc,seconds,launches_profiled,command" > $W/cap/replay.csv
    for c in ${CAPS:-validate validate_pagerank validate_pagerank_repeat validate_pagerank_repeat_nocache holdout_transpose holdout_stencil holdout2 holdout3 holdout4 holdout5 holdout6}; do
        case $c in
        validate) cap validate $B/prof_validate reduce matmul ;;
        validate_pagerank) EXTRA="--filter-mode per-launch-config --launch-count 1" cap validate_pagerank $B/prof_validate pagerank ;;
        validate_pagerank_repeat) EXTRA="--kernel-name regex:pr_sweep --launch-count 22" cap validate_pagerank_repeat $B/prof_validate pagerank ;;
        validate_pagerank_repeat_nocache) EXTRA="--cache-control none --kernel-name regex:pr_sweep --launch-count 22" cap validate_pagerank_repeat_nocache $B/prof_validate pagerank ;;
        holdout_transpose) cap holdout_transpose $B/prof_holdout transpose ;;
        holdout_stencil) EXTRA="--filter-mode per-launch-config --launch-count 1" cap holdout_stencil $B/prof_holdout stencil ;;
        holdout2|holdout3|holdout4|holdout5|holdout6) cap $c $B/prof_$c ;;
        esac
    done
    cp $W/meta/metrics.txt $W/cap/ 2>/dev/null
    $NCU --import $W/cap/validate.ncu-rep --csv --page raw --print-units base > $W/cap/validate.raw-base.csv 2> /dev/null
    $NCU --import $W/cap/validate.ncu-rep --csv --page raw --print-units base --print-kernel-base mangled > $W/cap/validate.raw-base-mangled.csv 2> /dev/null
    $NCU --import $W/cap/holdout_transpose.ncu-rep --csv --page raw --print-fp > $W/cap/holdout_transpose.raw-fp.csv 2> /dev/null
    cat $W/cap/replay.csv
    log "packing"
    tar -cf - -C $W cap | xz -T0 -6 > $O/caps.tar.xz
fi
log "done; $(ls -la $O)"
