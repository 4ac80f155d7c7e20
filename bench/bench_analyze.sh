#!/bin/sh
# bench/bench_analyze.sh: the performance targets of the analysis, measured in one
# run and printed as ratios with PASS/FAIL.
#
#   bench/bench_analyze.sh [all|big|n]
#
#   big: a generated explicit DAG of 10^6 kernels and 3*10^6 edges;
#        mmm analyze --format json must take at most 2x the wall time of
#        xmllint --stream --noout on the same file, and peak at most 300
#        bytes of memory per kernel + edge.
#   n:   dags/poly_div_opt.xml with -D n=2^40 must take no longer than with
#        n=2^12 (the whole command, and eval + metrics in process).
#
# Environment: BUILD (default build-release: a Release build made here if
# needed), KERNELS, EDGES, WINDOW (generator), REPS (runs per side of the
# big comparison, default 3), TIMEOUT (seconds after which one mmm analyze
# of the big DAG is killed and counted as a failure, default 300), NREPS
# (runs per side of the n comparison, default 101).  Generated files go to bench/out/ (git-ignored).
# Exit status: 0 when every target passes, 1 otherwise.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
OUT=$ROOT/bench/out
KERNELS=${KERNELS:-1000000}
EDGES=${EDGES:-3000000}
WINDOW=${WINDOW:-1000}
REPS=${REPS:-3}
TIMEOUT=${TIMEOUT:-300}
NREPS=${NREPS:-101}
WHAT=${1:-all}

case $WHAT in
all | big | n) ;;
*)
    echo "usage: bench/bench_analyze.sh [all|big|n]" >&2
    exit 2
    ;;
esac
. "$ROOT/bench/lib.sh"
bench_need bench_analyze.sh cmake python3 xmllint cc pkg-config

mkdir -p "$OUT"
# Release build of the binary and the library (incremental when it exists).
bench_build mmm_cli mmm
MMM=$BUILD/mmm

build_helper() { # NAME: bench/NAME.c -> $OUT/NAME; prints its path or nothing
    if bench_cc "$1" "$OUT/$1"; then
        echo "$OUT/$1"
    else
        echo "bench/$1.c did not build: its in-process timing is skipped" >&2
    fi
}

status=0
if [ "$WHAT" != n ]; then
    echo "== explicit DAG: mmm analyze vs xmllint --stream =="
    DAG=$OUT/dag_${KERNELS}_${EDGES}_${WINDOW}.xml
    EXPECT=$OUT/dag_${KERNELS}_${EDGES}_${WINDOW}.json
    if [ ! -f "$DAG" ] || [ ! -f "$EXPECT" ] ||
        [ -n "$(find "$ROOT/bench/gen_dag.py" -newer "$DAG")" ]; then
        python3 "$ROOT/bench/gen_dag.py" --kernels "$KERNELS" \
            --edges "$EDGES" --window "$WINDOW" -o "$DAG" --expect "$EXPECT"
    fi
    LOAD=$(build_helper bench_load)
    python3 "$ROOT/bench/measure.py" big --mmm "$MMM" --dag "$DAG" \
        --expect "$EXPECT" --reps "$REPS" --timeout "$TIMEOUT" \
        ${LOAD:+--load-bin "$LOAD"} || status=1
fi

if [ "$WHAT" != big ]; then
    echo "== poly_div_opt: n = 2^40 vs n = 2^12 =="
    EVAL=$(build_helper bench_eval)
    python3 "$ROOT/bench/measure.py" n --mmm "$MMM" \
        --file "$ROOT/dags/poly_div_opt.xml" --reps "$NREPS" \
        ${EVAL:+--eval-bin "$EVAL"} || status=1
fi
exit $status
