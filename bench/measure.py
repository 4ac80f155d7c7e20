#!/usr/bin/env python3
"""Measurements for bench/bench_analyze.sh (the analysis' performance targets).

  measure.py big --mmm BIN --dag FILE --expect FILE.json [--reps R]
      xmllint --stream --noout FILE vs mmm analyze --format json FILE:
      wall times (min of R runs each), their ratio (target <= 2), the peak
      RSS of mmm per kernel + edge (target <= 300 bytes), and a check of
      mmm's W, S, O, N, L, C against the generator's own computation; with
      --load-bin, the time of each phase in process (load, eval, measures
      without K, K), run after each mmm run, and the non-K part of the
      analysis against xmllint of the same round (target <= 1.5, the best
      round): mmm analyze minus K's wall time in that bench_load run, or,
      when K is more than half of the analysis (its noise would swamp the
      difference), bench_load's load + eval + measures without K (which
      leave out the JSON output: said so).  One mmm run longer than
      --timeout is killed and fails the time target.

  measure.py k --load-bin BIN --small FILE --big FILE [--reps R]
      K's own CPU time in process (bench_load: measures with K minus
      measures without K, min of R runs) on a 10^5-kernel and a 10^6-kernel file of
      one shape, and its growth (target <= 12; for another ratio of kernels
      than 10, 12/10 of that ratio, read from FILE.json beside each file);
      beside it, for reference, the growth of bench_load's "pred_pass" (one
      pass over the predecessor lists reading a 32-byte record of each
      predecessor, min of its 5 passes and the R runs): the least random
      reading any exact K does, whose growth is the machine's memory's.

  measure.py n --mmm BIN --file FILE [--reps R] [--eval-bin BIN]
      mmm analyze FILE -D n=2^40 vs -D n=2^12 (median of R interleaved runs
      each) and, when given, the in-process timing of bench_eval (min over
      rounds of a batch of evaluations): ratio target ~1 (<= 1.25).

Every ratio printed comes from measurements of this one invocation.  Peak
RSS is measured by GNU time when /usr/bin/time is there, else with
os.wait4 (see run()).  Only the standard library is used.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TIME_RATIO_MAX = 2.0
NON_K_RATIO_MAX = 1.5
K_GROWTH_MAX = 12.0
BYTES_MAX = 300.0
N_RATIO_MAX = 1.25


def gnu_time():
    """Path of GNU time when it is there (it measures a child's peak RSS
    from a parent of about 2 MB), else None."""
    path = "/usr/bin/time"
    if not os.access(path, os.X_OK):
        return None
    probe = subprocess.run([path, "-f", "%M", "true"], capture_output=True,
                           text=True)
    return path if probe.returncode == 0 and probe.stderr.strip().isdigit() \
        else None


TIME = gnu_time()


def kill_child(pid):
    """Kill the measured command.  Under GNU time only the command (time's
    child) is killed, so that time still reports its peak RSS; otherwise,
    or when /proc does not tell the children, the whole process group."""
    kids = []
    if TIME:
        try:
            with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            pass
    try:
        if kids:
            for k in kids:
                os.kill(k, signal.SIGKILL)
        else:
            os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended meanwhile


def run(cmd, stdout_path=None, timeout=None):
    """Run cmd; return (wall seconds, peak RSS bytes, exit status, stderr).
    stdout goes to stdout_path (or is discarded).  After timeout seconds
    the command is killed (exit status -9); its peak RSS so far is still
    reported.

    Peak RSS: Linux starts a child's ru_maxrss at its parent's RSS (exec
    records the old address space's high-water mark), so a child of this
    Python would never read below Python's own RSS.  GNU time, a small
    parent, avoids that; without it the child's ru_maxrss from os.wait4 is
    used and Python's RSS is a floor (negligible for the big DAG)."""
    out = open(stdout_path, "wb") if stdout_path else subprocess.DEVNULL
    with tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r") as rss_file:
        full = ([TIME, "-f", "%M", "-o", rss_file.name] + cmd) if TIME \
            else cmd
        t0 = time.perf_counter()
        proc = subprocess.Popen(full, stdout=out, stderr=err,
                                start_new_session=True)
        timer = threading.Timer(timeout, kill_child, (proc.pid,)) \
            if timeout else None
        if timer:
            timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if timer:
            timer.cancel()
        killed = os.WIFSIGNALED(status) or (
            timer is not None and wall >= timeout)
        proc.returncode = -9 if killed else os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
        peak = usage.ru_maxrss * 1024  # Linux reports KiB
        if TIME:
            lines = rss_file.read().split()
            if lines and lines[-1].isdigit():
                peak = int(lines[-1]) * 1024
            # GNU time reports a killed child on stderr; keep the rest
            text = "\n".join(x for x in text.splitlines()
                             if not x.startswith("Command "))
    if stdout_path:
        out.close()
    return wall, peak, proc.returncode, text


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


def compare_big(a, expect, items):
    """xmllint vs mmm analyze on the big DAG; prints the verdicts and
    returns 0 when every target is met."""
    # one output file per run of this script: several people may share out/
    json_out = "%s.analyze.%d.json" % (a.dag, os.getpid())
    xl, mm, rss = [], [], []
    non_k = []  # (non-K ratio, non-K seconds, how, bench_load's lines)
    non_k_fail = []
    try:
        for _ in range(a.reps):  # interleaved, so drifts hit both alike
            w, _, rc, err = run(["xmllint", "--stream", "--noout", a.dag])
            must_succeed("xmllint", rc, err)
            xl.append(w)
            w, peak, rc, err = run([a.mmm, "analyze", "--format", "json",
                                    a.dag], stdout_path=json_out,
                                   timeout=a.timeout)
            rss.append(peak)
            if rc == -9 and w >= a.timeout:
                print("xmllint --stream --noout    %8.3f s" % min(xl))
                print("mmm analyze did not finish in %.1f s (killed); peak RSS"
                      " so far %.1f MiB = %.1f bytes per kernel+edge"
                      % (w, peak / 2**20, peak / items))
                print("time ratio mmm/xmllint      > %.1f    target <= %.0f"
                      "   FAIL" % (w / min(xl), TIME_RATIO_MAX))
                return 1
            must_succeed("mmm analyze", rc, err)
            mm.append(w)
            if a.load_bin:
                lines = phases(a)
                k = k_wall(lines)
                if k is not None and k <= w / 2:
                    non_k.append(((w - k) / xl[-1], w - k,
                                  "analyze - K", lines))
                elif k is not None:
                    t = phase_sum(lines, ("load", "eval",
                                          "metrics_without_K"))
                    non_k.append((t / xl[-1], t, "in process, no JSON output",
                                  lines))
                elif not non_k:
                    non_k_fail = lines
        bad = check_metrics(json_out, expect)
    finally:
        if os.path.exists(json_out):
            os.remove(json_out)
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
    non_k_ok = True
    if a.load_bin:
        if non_k:
            best = min(non_k, key=lambda x: x[0])
            non_k_ok = best[0] <= NON_K_RATIO_MAX
            print("non-K part                  %8.3f s  ratio to xmllint %.2f"
                  "   target <= %.1f   %s  (%s; best of %d rounds)"
                  % (best[1], best[0], NON_K_RATIO_MAX, verdict(non_k_ok),
                     best[2], len(non_k)))
            print_phases(best[3], items)
        else:
            non_k_ok = False
            print("non-K part: bench_load did not report K   FAIL")
            print_phases(non_k_fail, items)
    return 0 if (not bad and ratio <= TIME_RATIO_MAX
                 and per_item <= BYTES_MAX and non_k_ok) else 1


def phases(a):
    """The phases of the analysis timed in process by bench_load: load,
    eval, measures without K, K; its output lines, and a last line when
    it was killed or failed."""
    out = "%s.load.%d.txt" % (a.dag, os.getpid())
    try:
        w, _, rc, err = run([a.load_bin, a.dag], stdout_path=out,
                            timeout=a.timeout)
        with open(out, encoding="utf-8") as f:
            lines = [x for x in f.read().split("\n") if x]
    finally:
        if os.path.exists(out):
            os.remove(out)
    if rc == -9 and w >= a.timeout:
        lines.append("(killed after %.1f s: the next phase did not finish)"
                     % w)
    elif rc != 0:
        lines.append("(failed, exit %d: %s)" % (rc, err.strip()))
    return lines


def phase_sum(lines, names):
    """The sum of the wall times of the named phases in bench_load's
    lines."""
    t = 0.0
    for line in lines:
        f = line.split()
        if len(f) >= 3 and f[2] == "s" and f[0] in names:
            t += float(f[1])
    return t


def k_wall(lines):
    """K's wall time from bench_load's lines (measures with K minus
    measures without K), or None."""
    t = {}
    for line in lines:
        f = line.split()
        if len(f) >= 3 and f[2] == "s" and f[0].startswith("metrics_"):
            t[f[0]] = float(f[1])
    if "metrics_with_K" not in t or "metrics_without_K" not in t:
        return None
    return max(0.0, t["metrics_with_K"] - t["metrics_without_K"])


def print_phases(lines, items):
    print("in process (bench_load, that round):")
    for line in lines:
        if line.startswith("rss_"):
            name, value = line.split()
            print("  %-22s %8.1f MiB = %.1f bytes per kernel+edge"
                  % (name, int(value) / 2**20, int(value) / items))
        else:
            print("  " + line)


def cmd_big(a):
    with open(a.expect, encoding="ascii") as f:
        expect = json.load(f)
    items = expect["kernels"] + expect["edges"]
    size = os.path.getsize(a.dag)
    print("DAG: %d kernels, %d edges, %.1f MB (%s)"
          % (expect["kernels"], expect["edges"], size / 1e6, a.dag))
    return compare_big(a, expect, items)


def k_time(load_bin, dag, reps, timeout):
    """K's own CPU time on one file and the time of bench_load's pred_pass,
    each the min over reps ((None, None) when a run failed)."""
    best = None
    floor = None
    for _ in range(reps):
        out = "%s.k.%d.txt" % (dag, os.getpid())
        try:
            _, _, rc, _ = run([load_bin, dag], stdout_path=out,
                              timeout=timeout)
            with open(out, encoding="utf-8") as f:
                # "NAME WALL s (cpu CPU s)": the CPU time, which the load
                # of a shared machine disturbs much less than the wall time
                ph = {w[0]: w[4] if len(w) > 4 else w[1]
                      for w in (line.split() for line in f)
                      if w and (w[0].startswith("metrics_")
                                or w[0] == "pred_pass")}
        finally:
            if os.path.exists(out):
                os.remove(out)
        if rc != 0 or "metrics_with_K" not in ph:
            return None, None
        t = float(ph["metrics_with_K"]) - float(ph["metrics_without_K"])
        best = t if best is None else min(best, t)
        f_s = float(ph.get("pred_pass", -1))
        if f_s > 0:
            floor = f_s if floor is None else min(floor, f_s)
    return max(best, 1e-6), floor


def kernels_of(dag):
    """Kernel count from the generator's FILE.json beside FILE.xml, or
    None."""
    path = os.path.splitext(dag)[0] + ".json"
    try:
        with open(path, encoding="ascii") as f:
            return json.load(f)["kernels"]
    except (OSError, ValueError, KeyError):
        return None


def cmd_k(a):
    small, f_small = k_time(a.load_bin, a.small, a.reps, a.timeout)
    big, f_big = k_time(a.load_bin, a.big, a.reps, a.timeout)
    if small is None or big is None:
        print("K's time: a run failed or took over %.0f s   FAIL"
              % a.timeout)
        return 1
    growth = big / small
    # 12x for 10x the kernels; for another size ratio (the wide shape's
    # 3*10^5 against 10^5) the same slack over linear: 12/10 of it.
    n_small, n_big = kernels_of(a.small), kernels_of(a.big)
    limit = K_GROWTH_MAX
    if n_small and n_big and n_big != 10 * n_small:
        limit = K_GROWTH_MAX / 10.0 * n_big / n_small
    print("K alone, %-28s %8.3f s CPU  (min of %d)"
          % (os.path.basename(a.small), small, a.reps))
    print("K alone, %-28s %8.3f s CPU  (min of %d)"
          % (os.path.basename(a.big), big, a.reps))
    print("growth of K's time          %8.1fx   target <= %.1f   %s"
          % (growth, limit, verdict(growth <= limit)))
    if f_small and f_big:
        # not a target: how much the same random reads cost more on the
        # big file on this machine, for an algorithm that does no more
        print("one pass over the predecessor lists (pred_pass, CPU): "
              "%.4f s, %.4f s" % (f_small, f_big))
        print("growth of that pass         %8.1fx   (the memory's own; "
              "K's growth / the pass's %.2f)" % (f_big / f_small,
                                                 growth / (f_big / f_small)))
    return 0 if growth <= limit else 1


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
    b.add_argument("--timeout", type=float, default=300,
                   help="seconds after which mmm analyze is killed")
    b.add_argument("--load-bin", help="bench_load, for the phase times")
    k = sub.add_parser("k")
    k.add_argument("--load-bin", required=True)
    k.add_argument("--small", required=True)
    k.add_argument("--big", required=True)
    k.add_argument("--reps", type=int, default=1)
    k.add_argument("--timeout", type=float, default=300)
    n = sub.add_parser("n")
    n.add_argument("--mmm", required=True)
    n.add_argument("--file", required=True)
    n.add_argument("--reps", type=int, default=101)
    n.add_argument("--eval-bin")
    a = ap.parse_args()
    if a.reps < 1:
        ap.error("--reps must be >= 1")
    return {"big": cmd_big, "k": cmd_k, "n": cmd_n}[a.what](a)


if __name__ == "__main__":
    sys.exit(main())
