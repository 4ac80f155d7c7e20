# %% [markdown]
# # CUMODP's polynomial multiplication from Python
#
# The cells of examples/cumodp.ipynb as a script (CI runs it: ctest
# `python_example`).  Load the DAG of CUMODP's plain multiplication, sweep
# its two tuning parameters s (coefficients per thread) and l (threads per
# block) on the calibrated H100 and H200 machine files, and compare the
# time model's predictions with the times measured on the H100
# (dags/cumodp/runs_stream.csv).  Run from the source tree:
#     PYTHONPATH=python python3 examples/cumodp.py

# %%
import csv
import os

import mmm

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
here = lambda *p: os.path.join(ROOT, *p)
H100 = here("dags/machines/h100-calibrated.xml")
H200 = here("dags/machines/h200-calibrated.xml")

# %% The sweep of s and l on both GPUs, by the time model
tables = {}
for gpu, machine in (("H100", H100), ("H200", H200)):
    prog = mmm.load(here("dags/cumodp/mul.xml"), machine=machine, n=2**14, m=2**14)
    t = prog.sweep(s=[1, 2, 4, 8, 16, 32], l=[64, 128, 256, 512, 1024], objective="time")
    tables[gpu] = t
    rows = t.to_dict("records") if hasattr(t, "to_dict") else t
    best = min((r for r in rows if r["feasible"]), key=lambda r: r["seconds"])
    print(gpu, "best (s, l) =", (best["s"], best["l"]), "of", len(rows), "points")

# %% Predicted against measured (H100, stream launches)
measured = []
with open(here("dags/cumodp/runs_stream.csv")) as f:
    for r in csv.DictReader(f):
        if r["program"] == "mul":
            measured.append(r)
prog = mmm.load(here("dags/cumodp/mul.xml"), machine=H100)
points = {}
for r in measured:
    key = (int(r["n"]), int(r["m"]), int(r["s"]), int(r["l"]))
    points.setdefault(key, []).append(float(r["time_ms"]))
pred, meas = [], []
for (n, m, s, l), times in sorted(points.items()):
    pred.append(prog.time(n=n, m=m, s=s, l=l)["seconds"] * 1e3)
    meas.append(sorted(times)[len(times) // 2])
errors = sorted(abs(p - q) / q for p, q in zip(pred, meas))
print("%d configurations, median relative error %.1f %%"
      % (len(pred), 100 * errors[len(errors) // 2]))

# %% The plot (when matplotlib is there)
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    print("matplotlib not installed: no plot")
if plt is not None:
    fig, ax = plt.subplots(figsize=(5, 5))
    ax.loglog(meas, pred, "o", ms=3)
    lo, hi = min(meas + pred), max(meas + pred)
    ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.set_xlabel("measured (ms), H100")
    ax.set_ylabel("predicted (ms), h100-calibrated.xml")
    ax.set_title("CUMODP plain multiplication")
    out = os.environ.get("MMM_EXAMPLE_PLOT", "cumodp_predicted_vs_measured.png")
    fig.savefig(out, dpi=100)
    print("wrote", out)
