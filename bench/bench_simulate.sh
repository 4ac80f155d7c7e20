#!/bin/sh
# bench/bench_simulate.sh: the performance targets of the simulator (`mmm
# simulate`), measured in one run, printed with PASS/FAIL.
#
#   bench/bench_simulate.sh [all|chain|dag]
#
#   chain: 1000 kernels in a chain, 10^9 blocks each, on P SMs: every
#          policy must simulate in under a second and give exactly
#          sum_k ceil(10^9/P) (S_k + O_k) (bench/gen_sim.py --expect).
#   dag:   10^5 kernels, 3*10^5 edges, 2 or 3 kinds of block per kernel
#          (up to 10^5 blocks each): every policy in a few seconds (target
#          5 s per policy).
# The targets apply to the simulation alone (bench/bench_sim.c, in process,
# CPU time: the machine may be shared); the wall times and the whole
# command (load, evaluation, every policy) are shown beside.
#
# Environment: BUILD (default build-release: a Release build made here if
# needed), P (SMs, default 14), REPS (runs per policy, default 3).
# Generated files go to bench/out/ (git-ignored).  Exit status: 0 when every
# target passes, 1 otherwise.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
OUT=$ROOT/bench/out
P=${P:-14}
REPS=${REPS:-3}
WHAT=${1:-all}
CHAIN_LIMIT=1.0
DAG_LIMIT=5.0

case $WHAT in
all | chain | dag) ;;
*)
    echo "usage: bench/bench_simulate.sh [all|chain|dag]" >&2
    exit 2
    ;;
esac
. "$ROOT/bench/lib.sh"
bench_need bench_simulate.sh cmake python3 cc pkg-config awk

mkdir -p "$OUT"
bench_build mmm_cli mmm
MMM=$BUILD/mmm
SIM=$OUT/bench_sim
bench_cc bench_sim "$SIM"

# Wall and CPU time of a command.
wall() {
    python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
def cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime
c = cpu()
t = time.perf_counter()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
if r.returncode:
    print("failed")
else:
    print("%.3f s wall, %.3f s cpu" % (time.perf_counter() - t, cpu() - c))
EOF
}

status=0
# check NAME FILE LIMIT [EXPECTED_MAKESPAN]: every policy under LIMIT s.
check() {
    name=$1 file=$2 limit=$3 expect=${4:-}
    echo "policy          makespan            events   batches wave-jumps launch-jumps  cpu s   wall s"
    "$SIM" "$file" "$P" "$REPS" >"$OUT/$name.txt"
    awk -v limit="$limit" -v expect="$expect" '
        $1 == "load" { printf "(load + evaluate: %.3f s cpu, %.3f s wall)\n", $2, $3; next }
        {
            ok = $7 < limit && (expect == "" || $2 == expect)
            printf "%-15s %-18s %8d %9d %10d %12d %7.4f %8.4f  %s\n", $1, $2, $3, $4,
                   $5, $6, $7, $8, ok ? "PASS" : "FAIL"
            if (!ok) bad = 1
        }
        END { exit bad }' "$OUT/$name.txt" || status=1
    printf "whole command, mmm simulate --policy all: %s\n" \
        "$(wall "$MMM" simulate "$file" -p "$P" --policy all --format json)"
}

if [ "$WHAT" != dag ]; then
    echo "== chain: 1000 kernels x 10^9 blocks, p = $P (target < $CHAIN_LIMIT s per policy) =="
    CHAIN=$OUT/sim_chain_1000.xml
    [ -f "$CHAIN" ] || python3 "$ROOT/bench/gen_sim.py" chain --kernels 1000 \
        --blocks 1000000000 -o "$CHAIN"
    want=$(python3 "$ROOT/bench/gen_sim.py" chain --kernels 1000 \
        --blocks 1000000000 --expect "$P")
    echo "exact makespan sum_k ceil(10^9/$P)(S_k+O_k) = $want"
    check chain "$CHAIN" "$CHAIN_LIMIT" "$want"
fi
if [ "$WHAT" != chain ]; then
    echo "== DAG: 10^5 kernels, 3*10^5 edges, several kinds of block, p = $P (target < $DAG_LIMIT s per policy) =="
    DAG=$OUT/sim_dag_100000.xml
    [ -f "$DAG" ] || python3 "$ROOT/bench/gen_sim.py" dag --kernels 100000 \
        --edges 300000 --window 50 --max-blocks 100000 -o "$DAG"
    check dag "$DAG" "$DAG_LIMIT"
fi
exit $status
