#!/bin/sh
# bench/bench_k.sh: K (the largest antichain) alone, by each method of the
# minimum flow and by the earlier algorithm, on DAG files, in one process
# per file (bench/bench_k.c), CPU seconds:
#
#   bench/bench_k.sh FILE...        (default: the shapes' files under OUT)
#
# Per file: a = the flow as the library runs it (adaptive: breadth-first
# searches, or the labelled search where they are long), b = breadth-first
# searches only, l = the labelled search first always, p = the earlier
# greedy + Dinic (tests/helpers/antichain_prev.c); every K must agree.
# Environment: BUILD (default build-release), OUT (default bench/out, where
# bench/bench_shapes.sh writes its files), METHODS (default abpl).
# Exit status: 0 when every method agreed on every file.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
OUT=${OUT:-$ROOT/bench/out}
METHODS=${METHODS:-abpl}

. "$ROOT/bench/lib.sh"
bench_need bench_k.sh cmake cc pkg-config
mkdir -p "$OUT"
bench_build mmm
# shellcheck disable=SC2046  # word splitting of the flags is wanted
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$ROOT/include" \
    -I"$BUILD/include" -I"$ROOT/src" -I"$ROOT/tests/helpers" \
    "$ROOT/bench/bench_k.c" "$ROOT/tests/helpers/antichain_prev.c" \
    "$BUILD/libmmm.a" $(pkg-config --libs libxml-2.0 jansson) \
    -lm -lpthread -o "$OUT/bench_k"

if [ $# -eq 0 ]; then
    set -- "$OUT"/shape_*.xml
fi
status=0
printf '%-28s %6s %14s %9s\n' file method K "CPU s"
for f in "$@"; do
    "$OUT/bench_k" "$f" "$METHODS" >"$OUT/bench_k.txt" || status=1
    while read -r m k t; do
        printf '%-28s %6s %14s %9s\n' "$(basename "$f")" "$m" "$k" "$t"
    done <"$OUT/bench_k.txt"
    awk -v f="$(basename "$f")" '
        { t[$1] = $3 }
        END { if (t["a"] > 0) for (m in t) if (m != "a")
                  printf "%-28s %s/a   %.2fx\n", f, m, t[m] / t["a"] }' \
        "$OUT/bench_k.txt"
done
rm -f "$OUT/bench_k.txt"
exit $status
