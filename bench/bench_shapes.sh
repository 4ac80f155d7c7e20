#!/bin/sh
# bench/bench_shapes.sh: K (the largest antichain) and the whole analysis on
# the three generated DAG shapes of bench/gen_dag.py, each measured in one
# run and printed as ratios with PASS/FAIL:
#
#   bench/bench_shapes.sh [local|wide|uniform]...   (default: all three)
#
# For each shape, on its big file (local, uniform: 10^6 kernels and 3*10^6
# edges; wide: KERNELS_WIDE, default 3*10^5, with 3 edges per kernel):
#   - mmm analyze --format json against xmllint --stream --noout on the
#     same file (target <= 2x), peak RSS per kernel + edge (<= 300 bytes),
#     and the time of each phase in process (bench_load: load, eval, the
#     measures without K, K);
#   - K's own time on the 10^5-kernel file of the shape and on the big
#     one, and its growth (target <= 12x from 10^5 to 10^6 kernels; for
#     the wide shape's 3*10^5, 12/10 of the ratio: 3.6x), and beside it
#     the growth of one pass over the predecessor lists (bench_load's
#     pred_pass: the least random reading an exact K does, so the growth
#     the machine's memory gives; not a target).
#
# Environment: BUILD (default build-release), REPS (runs per side, default
# 1: the big files take minutes), TIMEOUT (seconds before one run is killed
# and fails, default 300), KERNELS_WIDE, OUT (where the files go, default
# bench/out/, git-ignored).  The files are generated once (about 200 MB
# each; python3 writes one in about 30 to 50 s) and reused.
# K by each method of the flow and by the earlier algorithm, on the same
# files: bench/bench_k.sh.
# Exit status: 0 when every target passes, 1 otherwise.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
OUT=${OUT:-$ROOT/bench/out}
REPS=${REPS:-1}
TIMEOUT=${TIMEOUT:-300}
KERNELS_WIDE=${KERNELS_WIDE:-300000}
SHAPES=${*:-local wide uniform}

. "$ROOT/bench/lib.sh"
bench_need bench_shapes.sh cmake python3 xmllint cc pkg-config
mkdir -p "$OUT"
bench_build mmm_cli mmm
bench_cc bench_load "$OUT/bench_load"

gen() { # SHAPE KERNELS: prints the path of the file, generated if needed
    base=$OUT/shape_$1_$2
    edges=$(($2 * 3))
    if [ ! -f "$base.xml" ] || [ ! -f "$base.json" ] ||
        [ -n "$(find "$ROOT/bench/gen_dag.py" -newer "$base.xml")" ]; then
        python3 "$ROOT/bench/gen_dag.py" --shape "$1" --kernels "$2" \
            --edges "$edges" -o "$base.xml" --expect "$base.json" >&2
    fi
    echo "$base"
}

status=0
for shape in $SHAPES; do
    case $shape in
    local | uniform) big=1000000 ;;
    wide) big=$KERNELS_WIDE ;;
    *)
        echo "usage: bench/bench_shapes.sh [local|wide|uniform]..." >&2
        exit 2
        ;;
    esac
    echo "== shape $shape =="
    small=$(gen "$shape" 100000)
    large=$(gen "$shape" "$big")
    python3 "$ROOT/bench/measure.py" big --mmm "$BUILD/mmm" \
        --dag "$large.xml" --expect "$large.json" --reps "$REPS" \
        --timeout "$TIMEOUT" --load-bin "$OUT/bench_load" || status=1
    python3 "$ROOT/bench/measure.py" k --load-bin "$OUT/bench_load" \
        --small "$small.xml" --big "$large.xml" --reps "$REPS" \
        --timeout "$TIMEOUT" || status=1
done
exit $status
