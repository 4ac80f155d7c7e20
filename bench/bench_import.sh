#!/bin/sh
# bench/bench_import.sh: reading task graphs, measured in one run and
# printed as ratios with PASS/FAIL.
#
#   a 10^5-task WfCommons 1.5 file: mmm analyze must take at most 3x the
#       wall time of python3 -c 'import json,sys; json.load(open(sys.argv[1]))'
#   a 10^5-task DOT file: mmm analyze must take at most 3x the wall time of
#       ccomps -x (Graphviz reading the same file)
#
# Environment: BUILD (default build-release: a Release build made here if
# needed), TASKS (default 100000), REPS (runs per side, default 3; the best
# of each side is compared).  Generated files go to bench/out/ (git-ignored).
# Exit status: 0 when both targets pass, 1 otherwise.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
OUT=$ROOT/bench/out
TASKS=${TASKS:-100000}
REPS=${REPS:-3}
. "$ROOT/bench/lib.sh"
bench_need bench_import.sh cmake python3 ccomps
mkdir -p "$OUT"
bench_build mmm_cli
MMM=$BUILD/mmm

JSON=$OUT/tasks_$TASKS.json
DOT=$OUT/tasks_$TASKS.dot
[ -f "$JSON" ] || python3 "$ROOT/bench/gen_taskgraph.py" wfcommons "$TASKS" "$JSON"
[ -f "$DOT" ] || python3 "$ROOT/bench/gen_taskgraph.py" dot "$TASKS" "$DOT"

# best wall time of REPS runs of a command (seconds)
best() {
    python3 - "$REPS" "$@" <<'PY'
import subprocess, sys, time
reps = int(sys.argv[1]); cmd = sys.argv[2:]
best = None
for _ in range(reps):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t
    if r.returncode not in (0, 1):   # ccomps -x exits 1 on several components
        sys.exit("failed: %s (exit %d)" % (" ".join(cmd), r.returncode))
    best = dt if best is None else min(best, dt)
print("%.4f" % best)
PY
}

status=0
report() { # name mmm_s ref_s ref_name
    python3 - "$@" <<'PY'
import sys
name, m, r, ref = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
ratio = m / r
print("%-9s mmm analyze %.3f s  %s %.3f s  ratio %.2f (target <= 3)  %s"
      % (name, m, ref, r, ratio, "PASS" if ratio <= 3 else "FAIL"))
sys.exit(0 if ratio <= 3 else 1)
PY
}

echo "bench_import: $TASKS tasks, best of $REPS runs per side"
m=$(best "$MMM" analyze "$JSON" --format json)
r=$(best python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$JSON")
report wfcommons "$m" "$r" "json.load" || status=1
m=$(best "$MMM" analyze "$DOT" --format json)
r=$(best ccomps -x "$DOT")
report dot "$m" "$r" "ccomps -x" || status=1
exit $status
