#!/usr/bin/env python3
"""gpu_picks_check.py MMM SOURCE_DIR: the time model's picks on the kernels
timed on an H100 (bench/gpu/data, dags/gpu) stay as docs/fidelity.md
(section 7) says, and `mmm optimize --objective time` over the measured grid
picks what bench/validate.py's argmin of the predicted times picks (two
paths through the tool: `mmm fit --fit none` per run, and the optimizer's
sweep).  The measured times are real GPU runs, not the tool's output."""
import json
import os
import subprocess
import sys

mmm, src = sys.argv[1], sys.argv[2]
os.chdir(src)
MACHINES = {"fitted": "dags/machines/h100-fitted.xml",
            "calibrated": "dags/machines/h100-calibrated.xml"}
# data set -> {machine: sizes within 10 % of the best}; docs/fidelity.md
EXPECT = {
    "bench/gpu/data/runs_h100.csv": {"fitted": 7, "calibrated": 7},
    "bench/gpu/data/holdout_h100.csv": {"fitted": 4, "calibrated": 4},
    "bench/gpu/data/holdout2_h100.csv": {"fitted": 3, "calibrated": 3},
    "bench/gpu/data/holdout3_h100.csv": {"fitted": 8, "calibrated": 8},
    "bench/gpu/data/holdout4_h100.csv": {"fitted": 6, "calibrated": 6},
    "bench/gpu/data/holdout5_h100.csv": {"fitted": 8, "calibrated": 8},
    "bench/gpu/data/holdout6_h100.csv": {"fitted": 7, "calibrated": 7},
}
fails = 0
for data, want in EXPECT.items():
    cmd = [sys.executable, "bench/validate.py", "--mmm", mmm, "--json", data]
    for m in MACHINES.values():
        cmd += ["--machine", m]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("gpu_picks_check: %s\n%s" % (" ".join(cmd), out.stderr))
    res = json.loads(out.stdout)
    for name, m in MACHINES.items():
        groups = res[m]
        within = sum(g["ratio"] <= 1.10 for g in groups)
        if within != want[name]:
            print("FAIL %s, %s: %d sizes within 10 %% of the best, docs say %d"
                  % (data, name, within, want[name]))
            fails += 1
        # the optimizer over the same grid picks the same configuration
        for g in groups:
            conf = [k for k in ("tpb", "k", "tile", "r")
                    if k in g["pick"] and k not in g["size"]]
            # the grid of the measured runs of this program and size
            with open(data) as f:
                head = f.readline().strip().split(",")
                rows = [dict(zip(head, l.strip().split(","))) for l in f if l.strip()]
            grid = {k: sorted({int(r[k]) for r in rows
                               if r["program"] == g["program"]
                               and all(str(v) == r.get(kk, "")
                                       for kk, v in g["size"].items())})
                    for k in conf}
            cmd = [mmm, "optimize", os.path.join("dags/gpu", g["program"] + ".xml"),
                   "--objective", "time", "--machine", m, "--format", "json"]
            for k, v in g["size"].items():
                cmd += ["-D", "%s=%s" % (k, v)]
            for k in conf:
                cmd += ["--param", k, "--values", ",".join(map(str, grid[k]))]
            o = subprocess.run(cmd, capture_output=True, text=True)
            if o.returncode != 0:
                print("FAIL %s: %s" % (" ".join(cmd), o.stderr.strip()))
                fails += 1
                continue
            best = json.loads(o.stdout)["best"]["params"]
            if any(best[k] != g["pick"][k] for k in conf):
                print("FAIL %s %s with %s: optimize picks %s, the runs' argmin %s"
                      % (g["program"], g["size"], name, best, g["pick"]))
                fails += 1
print("%d passed, %d failed" % (0 if fails else 1, fails))
sys.exit(1 if fails else 0)
