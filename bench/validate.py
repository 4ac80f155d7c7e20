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

# The parameters that choose a launch configuration, in the order
# `mmm optimize --param` is given them (it breaks ties towards smaller values
# of the first); every other parameter of a row names the size.
CONFIG_ORDER = ["tpb", "k", "tile", "r"]
CONFIG = set(CONFIG_ORDER)
RTOL = 1e-12  # predicted times this close are a tie, as in mmm optimize


def pick_of(rows, idx):
    """The configuration `mmm optimize --objective time` picks among the
    runs idx: the smallest predicted time, ties to the smaller values."""
    low = min(rows[i]["predicted_s"] for i in idx)
    tied = [i for i in idx if rows[i]["predicted_s"] <= low * (1 + RTOL)]
    return min(tied, key=lambda i: [rows[i]["params"][k] for k in CONFIG_ORDER
                                    if k in rows[i]["params"]])


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


def groups_of(rows):
    """Indices of the runs by (program, size), in the order they come; the
    size is every parameter that is not a launch configuration."""
    groups = {}
    for i, row in enumerate(rows):
        size = {k: v for k, v in row["params"].items() if k not in CONFIG}
        groups.setdefault((row["program"], json.dumps(size, sort_keys=True)),
                          []).append(i)
    return groups


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--machine", action="append", required=True)
    ap.add_argument("--mmm", default="build/mmm")
    ap.add_argument("--dags", default="dags/gpu")
    ap.add_argument("--json", action="store_true",
                    help="print the groups and picks as JSON instead")
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

    if a.json:
        print(json.dumps(summary(a, results)))
        return
    print("| program | size | measured best | best (ms) | "
          + " | ".join("pick, %s | pick/best" % os.path.basename(m)
                       for m in a.machine) + " |")
    print("|---|---|---|---|" + "---|---|" * len(a.machine))
    worst = {m: 1.0 for m in a.machine}
    within = {m: 0 for m in a.machine}
    ngroups = 0
    ref = results[a.machine[0]]["rows"]
    for (prog, size), idx in groups_of(ref).items():
        best = min(idx, key=lambda i: ref[i]["measured_s"])
        cells = []
        for m in a.machine:
            rows = results[m]["rows"]
            pick = pick_of(rows, idx)
            ratio = rows[pick]["measured_s"] / rows[best]["measured_s"]
            worst[m] = max(worst[m], ratio)
            within[m] += ratio <= 1.10
            cells.append("%s | %.3f" % (fmt_params(rows[pick]["params"], CONFIG), ratio))
        ngroups += 1
        print("| %s | %s | %s | %.4g | %s |" % (
            prog, fmt_params(json.loads(size), set(json.loads(size))),
            fmt_params(ref[best]["params"], CONFIG),
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


def summary(a, results):
    """Per machine file: every group's program, size, measured best, pick
    and pick/best."""
    out = {}
    for m in a.machine:
        rows = results[m]["rows"]
        res = []
        for (prog, size), idx in groups_of(rows).items():
            best = min(idx, key=lambda i: rows[i]["measured_s"])
            pick = pick_of(rows, idx)
            res.append({"program": prog, "size": json.loads(size),
                        "best": rows[best]["params"],
                        "pick": rows[pick]["params"],
                        "ratio": rows[pick]["measured_s"] / rows[best]["measured_s"]})
        out[m] = res
    return out


if __name__ == "__main__":
    main()
