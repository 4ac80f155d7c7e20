#!/usr/bin/env python3
"""Measurements for bench/bench_analyze.sh (issue 2's performance targets).

  measure.py big --mmm BIN --dag FILE --expect FILE.json [--reps R]
      xmllint --stream --noout FILE vs mmm analyze --format json FILE:
      wall times (min of R runs each), their ratio (target <= 2), the peak
      RSS of mmm per kernel + edge (target <= 300 bytes), and a check of
      mmm's W, S, O, N, L, C against the generator's own computation.

  measure.py n --mmm BIN --file FILE [--reps R] [--eval-bin BIN]
      mmm analyze FILE -D n=2^40 vs -D n=2^12 (median of R interleaved runs
      each) and, when given, the in-process timing of bench_eval (min over
      rounds of a batch of evaluations): ratio target ~1 (<= 1.25).

Every ratio printed comes from measurements of this one invocation.  Peak
RSS is the child's own ru_maxrss, read with os.wait4 (no /usr/bin/time
needed).  Only the standard library is used.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TIME_RATIO_MAX = 2.0
BYTES_MAX = 300.0
N_RATIO_MAX = 1.25


def run(cmd, stdout_path=None):
    """Run cmd; return (wall seconds, peak RSS bytes, exit status, stderr).
    stdout goes to stdout_path (or is discarded)."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if stdout_path:
        out.close()
    # Linux reports ru_maxrss in KiB
    return wall, usage.ru_maxrss * 1024, proc.returncode, text


def must_succeed(what, rc, err):
    if rc != 0:
        sys.stderr.write("%s failed (exit %d):\n%s" % (what, rc, err))
        sys.exit(1)


def verdict(ok):
    return "PASS" if ok else "FAIL"


def close(a, b, rel):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1.0)


def check_metrics(json_path, expect):
    """Compare mmm's metrics with the generator's; return a list of
    mismatches (empty when all agree)."""
    with open(json_path, encoding="utf-8") as f:
        got = json.load(f)["metrics"]
    bad = []
    for key in ("N", "L"):
        if got.get(key) != expect[key]:
            bad.append("%s = %s, expected %s" % (key, got.get(key), expect[key]))
    for key in ("W", "S", "O", "C"):
        if not isinstance(got.get(key), (int, float)) or \
                not close(got[key], expect[key], 1e-9):
            bad.append("%s = %s, expected %s" % (key, got.get(key), expect[key]))
    return bad


def cmd_big(a):
    with open(a.expect, encoding="ascii") as f:
        expect = json.load(f)
    items = expect["kernels"] + expect["edges"]
    size = os.path.getsize(a.dag)
    print("DAG: %d kernels, %d edges, %.1f MB (%s)"
          % (expect["kernels"], expect["edges"], size / 1e6, a.dag))
    json_out = os.path.join(os.path.dirname(a.dag), "analyze.json")
    xl, mm, rss = [], [], []
    for _ in range(a.reps):  # interleaved, so drifts hit both alike
        w, _, rc, err = run(["xmllint", "--stream", "--noout", a.dag])
        must_succeed("xmllint", rc, err)
        xl.append(w)
        w, peak, rc, err = run([a.mmm, "analyze", "--format", "json", a.dag],
                               stdout_path=json_out)
        must_succeed("mmm analyze", rc, err)
        mm.append(w)
        rss.append(peak)
    bad = check_metrics(json_out, expect)
    print("mmm analyze metrics vs the generator's W S O N L C: %s"
          % ("agree" if not bad else "DIFFER: " + "; ".join(bad)))
    t_x, t_m = min(xl), min(mm)
    ratio = t_m / t_x
    per_item = max(rss) / items
    print("xmllint --stream --noout    %8.3f s  (min of %d)" % (t_x, a.reps))
    print("mmm analyze --format json   %8.3f s  (min of %d)" % (t_m, a.reps))
    print("time ratio mmm/xmllint      %8.2f    target <= %.0f   %s"
          % (ratio, TIME_RATIO_MAX, verdict(ratio <= TIME_RATIO_MAX)))
    print("peak RSS of mmm             %8.1f MiB = %.1f bytes per kernel+edge"
          "   target <= %.0f   %s"
          % (max(rss) / 2**20, per_item, BYTES_MAX,
             verdict(per_item <= BYTES_MAX)))
    return 0 if (not bad and ratio <= TIME_RATIO_MAX
                 and per_item <= BYTES_MAX) else 1


def cmd_n(a):
    big, small = "n=2^40", "n=2^12"
    times = {big: [], small: []}
    for _ in range(a.reps):
        for d in (big, small):
            w, _, rc, err = run([a.mmm, "analyze", "--format", "json",
                                 "-D", d, a.file])
            must_succeed("mmm analyze -D " + d, rc, err)
            times[d].append(w)
    t_b = statistics.median(times[big])
    t_s = statistics.median(times[small])
    ratio = t_b / t_s
    ok = ratio <= N_RATIO_MAX
    print("mmm analyze %s -D %s     %8.2f ms (median of %d)"
          % (os.path.basename(a.file), big, t_b * 1e3, a.reps))
    print("mmm analyze %s -D %s     %8.2f ms (median of %d)"
          % (os.path.basename(a.file), small, t_s * 1e3, a.reps))
    print("ratio n=2^40 / n=2^12, whole command  %6.3f   target ~1 (<= %.2f)"
          "   %s" % (ratio, N_RATIO_MAX, verdict(ratio <= N_RATIO_MAX)))
    if a.eval_bin:
        proc = subprocess.run([a.eval_bin, a.file, "n", str(2**40),
                               str(2**12)], capture_output=True, text=True)
        must_succeed("bench_eval", proc.returncode, proc.stderr)
        ns_b, ns_s = (float(x) for x in proc.stdout.split()[:2])
        r2 = ns_b / ns_s
        print("eval + metrics in process, n=2^40  %10.0f ns" % ns_b)
        print("eval + metrics in process, n=2^12  %10.0f ns" % ns_s)
        print("ratio n=2^40 / n=2^12, in process   %6.3f   target ~1 "
              "(<= %.2f)   %s" % (r2, N_RATIO_MAX, verdict(r2 <= N_RATIO_MAX)))
        ok = ok and r2 <= N_RATIO_MAX
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description="bench/bench_analyze.sh helper")
    sub = ap.add_subparsers(dest="what", required=True)
    b = sub.add_parser("big")
    b.add_argument("--mmm", required=True)
    b.add_argument("--dag", required=True)
    b.add_argument("--expect", required=True)
    b.add_argument("--reps", type=int, default=3)
    n = sub.add_parser("n")
    n.add_argument("--mmm", required=True)
    n.add_argument("--file", required=True)
    n.add_argument("--reps", type=int, default=101)
    n.add_argument("--eval-bin")
    a = ap.parse_args()
    if a.reps < 1:
        ap.error("--reps must be >= 1")
    return cmd_big(a) if a.what == "big" else cmd_n(a)


if __name__ == "__main__":
    sys.exit(main())
