#!/usr/bin/env python3
"""validate.py: how well the time model ranks the launch configurations of
programs it was not fitted to.

    python3 bench/validate.py [--mmm build/mmm] RUNS.csv [RUNS.csv ...] \
        --machine dags/machines/h100-fitted.xml [--machine ...]

RUNS.csv are measured runs in the form `mmm fit --data` reads (a `program`
column, one column per parameter, `time_ms`), here those of
bench/gpu/validate.cu and bench/gpu/holdout.cu; the DAG files are
dags/gpu/<program>.xml.  For every machine file, `mmm fit --fit none`
predicts every run (nothing is fitted); the runs are grouped by program and
size (every parameter that is not a launch configuration), and for each
group the script prints the measured best configuration, the configuration
with the smallest predicted time (what `mmm optimize --objective time` over
the same values picks), and the measured time of that pick over the best.
Prints Markdown on standard output.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

# The parameters that choose a launch configuration; every other parameter
# of a row names the size.
CONFIG = {"tpb", "k", "tile", "r"}


def predict(mmm, runs, dags, machine):
    cmd = [mmm, "fit"]
    for r in runs:
        cmd += ["--data", r]
    cmd += dags + ["--machine", machine, "--fit", "none", "--format", "json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("validate.py: %s failed: %s" % (" ".join(cmd), out.stderr))
    return json.loads(out.stdout)


def fmt_params(p, keys):
    return " ".join("%s=%s" % (k, p[k]) for k in sorted(p) if k in keys)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--machine", action="append", required=True)
    ap.add_argument("--mmm", default="build/mmm")
    ap.add_argument("--dags", default="dags/gpu")
    a = ap.parse_args()
    programs = set()
    for r in a.runs:
        with open(r) as f:
            next(f)
            for line in f:
                if line.strip():
                    programs.add(line.split(",", 1)[0])
    dags = [os.path.join(a.dags, p + ".xml") for p in sorted(programs)]
    results = {m: predict(a.mmm, a.runs, dags, m) for m in a.machine}

    print("| program | size | measured best | best (ms) | "
          + " | ".join("pick, %s | pick/best" % os.path.basename(m)
                       for m in a.machine) + " |")
    print("|---|---|---|---|" + "---|---|" * len(a.machine))
    worst = {m: 1.0 for m in a.machine}
    within = {m: 0 for m in a.machine}
    ngroups = 0
    groups = {}
    order = []
    for i, row in enumerate(results[a.machine[0]]["rows"]):
        size = fmt_params(row["params"], set(row["params"]) - CONFIG)
        key = (row["program"], size)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(i)
    for key in order:
        idx = groups[key]
        ref = results[a.machine[0]]["rows"]
        best = min(idx, key=lambda i: ref[i]["measured_s"])
        cells = []
        for m in a.machine:
            rows = results[m]["rows"]
            pick = min(idx, key=lambda i: rows[i]["predicted_s"])
            ratio = rows[pick]["measured_s"] / rows[best]["measured_s"]
            worst[m] = max(worst[m], ratio)
            within[m] += ratio <= 1.10
            cells.append("%s | %.3f" % (fmt_params(rows[pick]["params"], CONFIG), ratio))
        ngroups += 1
        print("| %s | %s | %s | %.4g | %s |" % (
            key[0], key[1], fmt_params(ref[best]["params"], CONFIG),
            ref[best]["measured_s"] * 1e3, " | ".join(cells)))
    print()
    for m in a.machine:
        rows = results[m]["rows"]
        rel = [abs(r["predicted_s"] / r["measured_s"] - 1) for r in rows]
        print("- `%s`: the pick is within 10 %% of the best at %d of %d sizes "
              "(worst pick/best %.3f); predicted against measured over %d runs: "
              "median error %.1f %%, largest %.1f %%." % (
                  m, within[m], ngroups, worst[m], len(rows),
                  100 * statistics.median(rel), 100 * max(rel)))


if __name__ == "__main__":
    main()
