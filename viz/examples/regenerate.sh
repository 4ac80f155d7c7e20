#!/bin/sh
# Regenerate the pictures in viz/examples/ from the bundled programs in
# dags/: every program at kernel level (PNG and SVG), the small ones also
# at block level.  Run from anywhere after a build:
#     viz/examples/regenerate.sh [path/to/mmm]
# (default: build/mmm under the repository root).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
MMM=${1:-$ROOT/build/mmm}
[ -x "$MMM" ] || { echo "regenerate.sh: no mmm at $MMM (build first, or pass its path)" >&2; exit 2; }

cd "$ROOT"
rm -f "$HERE"/*.png "$HERE"/*.svg
for f in dags/*.xml dags/apsp/*.xml; do
    name=$(basename "$f" .xml)
    case $f in dags/apsp/*) name=apsp_$name ;; esac
    "$MMM" render "$f" -o "$HERE/$name.png"
    "$MMM" render "$f" -o "$HERE/$name.svg"
done
for name in diamond fork_join not_series_parallel; do
    "$MMM" render "dags/$name.xml" --level block -o "$HERE/${name}_blocks.png"
done
"$MMM" render dags/poly_div_opt.xml -D n=2^12 -D m=2^10 -D s=128 --level block \
    -o "$HERE/poly_div_opt_blocks.png"
"$MMM" render dags/poly_mul.xml --color cost -o "$HERE/poly_mul_cost.png"
# Large task graphs: condensed by default (one node per task type and
# level), the critical view, and identical blocks drawn as one box.
"$MMM" render tests/data/import/real/wfcommons-1.5-montage-2mass-015d-001.json \
    -o "$HERE/montage_condensed.png"
"$MMM" render tests/data/import/real/pegasus-dax-montage-100.xml --view critical \
    -o "$HERE/montage100_critical.png"
"$MMM" render dags/gpu/mm2d.xml --level block -o "$HERE/mm2d_blocks.png"
"$MMM" scale dags/fork_join.xml --p 1..16 --policy all --plot "$HERE/fork_join_speedup.png" >/dev/null
"$MMM" scale dags/fork_join.xml --measured tests/data/scale/fork_join_times.csv \
    --plot "$HERE/fork_join_speedup_measured.png" >/dev/null
ls -l "$HERE"
