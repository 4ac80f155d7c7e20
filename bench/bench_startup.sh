#!/bin/sh
# bench/bench_startup.sh: the start-up target, measured in one run and
# printed as a ratio with PASS/FAIL.
#
#   bench/bench_startup.sh [FILE]        (default dags/diamond.xml)
#
# `mmm analyze FILE` must cost, beyond what a bare process costs
# (/bin/true), at most 1.5x what `xmllint --noout FILE` costs beyond it:
#     (t_mmm - t_true) / (t_xmllint - t_true) <= 1.5
# Each t is the median wall time of ROUNDS (default 300) runs, the three
# commands interleaved round by round so that a busy machine slows all of
# them alike; each run is one posix_spawn + wait from one Python process
# (its own cost is in t_true and cancels).  Also printed: the shared
# libraries each command maps (from LD_TRACE_LOADED_OBJECTS), and the same
# ratio for `mmm render FILE -o x.svg`, for information (it loads the
# drawing plugin).
# Environment: BUILD (default build-release: a Release build made here if
# needed), ROUNDS.  Exit status: 0 when the target passes, 1 otherwise.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
FILE=${1:-$ROOT/dags/diamond.xml}
ROUNDS=${ROUNDS:-300}
. "$ROOT/bench/lib.sh"
bench_need bench_startup.sh cmake python3 xmllint
bench_build mmm_cli
MMM=$BUILD/mmm
TRUE=/bin/true
XMLLINT=$(command -v xmllint)
OUTDIR=$(mktemp -d "${TMPDIR:-/tmp}/mmm_startup_XXXXXX")
trap 'rm -rf "$OUTDIR"' EXIT

libs() { # the shared objects a dynamic program maps at start
    LD_TRACE_LOADED_OBJECTS=1 "$@" 2>/dev/null | grep -c '=>\|ld-linux' || true
}
echo "shared objects mapped at start: /bin/true $(libs "$TRUE"), xmllint $(libs "$XMLLINT"), mmm $(libs "$MMM")"

python3 - "$ROUNDS" "$TRUE" "$XMLLINT" "$MMM" "$FILE" "$OUTDIR" <<'EOF'
import os, statistics, sys, time
rounds = int(sys.argv[1]); true, xmllint, mmm, file, outdir = sys.argv[2:7]
cmds = {
    "true": [true],
    "xmllint": [xmllint, "--noout", file],
    "analyze": [mmm, "analyze", file],
    "render": [mmm, "render", file, "-o", os.path.join(outdir, "x.svg")],
}
devnull = os.open(os.devnull, os.O_WRONLY)
fa = [(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
def once(argv):
    t0 = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=fa)
    _, status = os.waitpid(pid, 0)
    t = time.perf_counter_ns() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench_startup: %s failed" % " ".join(argv))
    return t / 1e6
samples = {k: [] for k in cmds}
for k, argv in cmds.items():          # warm the page cache
    for _ in range(3):
        once(argv)
for _ in range(rounds):
    for k, argv in cmds.items():
        samples[k].append(once(argv))
med = {k: statistics.median(v) for k, v in samples.items()}
for k in cmds:
    print("%-8s median %7.3f ms  (min %.3f, %d runs)" % (k, med[k], min(samples[k]), rounds))
base = med["xmllint"] - med["true"]
r = (med["analyze"] - med["true"]) / base
rr = (med["render"] - med["true"]) / base
print("mmm analyze beyond a bare process: %.3f ms; xmllint --noout: %.3f ms"
      % (med["analyze"] - med["true"], base))
print("ratio analyze/xmllint (beyond /bin/true) = %.2f  (target <= 1.5)  %s"
      % (r, "PASS" if r <= 1.5 else "FAIL"))
print("ratio render/xmllint (beyond /bin/true)  = %.2f  (for information)" % rr)
sys.exit(0 if r <= 1.5 else 1)
EOF
