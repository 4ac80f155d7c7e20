#!/usr/bin/env python3
"""fidelity.py: measured against predicted times of the CUMODP runs, the
parameter each model picks, and a leave-one-size-out cross-validation;
writes the Markdown of docs/fidelity.md on standard output, or with
--write replaces docs/fidelity.md itself (atomically; a shell redirection
onto the page would empty it before its hand-written sections 5 to 7
are read).  Section 8 is generated too: bench/gpu's kernels on the H100
and the H200, each predicted from its calibrated machine file (nothing
fitted), beside two baselines that need no model.

    python3 bench/fidelity.py [--write | --check] [DATA_DIR [MMM_BINARY]]

--check computes section 8 alone and exits 1 when docs/fidelity.md's
differs (ctest `fidelity_two_gpus`).

DATA_DIR (default dags/cumodp) holds runs_stream.csv and runs_graph.csv
(program, n, m, s, B, l, time_ms; dags/cumodp/README.md).  Every number comes from the mmm binary: `mmm fit` (all runs,
then once per left-out size) and `mmm optimize` (the MMM's picks)."""
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import validate  # noqa: E402  (bench/validate.py: picks by the time model)

WRITE = "--write" in sys.argv[1:]
CHECK = "--check" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a not in ("--write", "--check")]
DATA = ARGS[0] if len(ARGS) > 0 else "dags/cumodp"
MMM = ARGS[1] if len(ARGS) > 1 else "build/mmm"
DAGS = ["dags/cumodp/div_opt.xml", "dags/cumodp/div_naive.xml",
        "dags/cumodp/mul.xml"]
BASE = "dags/machines/h100.xml"
FIX = ["--fix", "mem_latency_cycles,op_cycles,block_cycles,latency_exposed,"
       "sync_cycles,sync_cycles_per_warp,atomic_cycles,issue_per_cycle"]
DOC = "docs/fidelity.md"
PARAMS = ["n", "m", "s", "B", "l"]


def run(args):
    r = subprocess.run([MMM] + args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("mmm %s: %s" % (" ".join(args), r.stderr))
    return r.stdout


def read_rows():
    rows = []
    for name, launch in (("runs_stream.csv", "stream"),
                         ("runs_graph.csv", "graph")):
        with open(os.path.join(DATA, name)) as f:
            for i, r in enumerate(csv.DictReader(f)):
                r["launch"] = launch
                r["line"] = i + 2
                r["file"] = name
                rows.append(r)
    return rows


def family(r):
    return "div" if r["program"].startswith("div") else "mul"


def size_key(r):
    return (family(r), int(r["n"]), int(r["m"]))


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program"] + PARAMS + ["launch", "time_ms"])
        for r in rows:
            w.writerow([r["program"]] + [r[p] for p in PARAMS] +
                       [r["launch"], r["time_ms"]])


def fit(rows, tmp, tag, machine_out=None):
    path = os.path.join(tmp, tag + ".csv")
    write_csv(path, rows)
    args = ["fit", "--data", path] + DAGS + ["--machine", BASE] + FIX + [
        "--format", "json"]
    if machine_out:
        args += ["-o", machine_out]
    return json.loads(run(args))


def predict(rows, tmp, tag, machine):
    path = os.path.join(tmp, tag + ".csv")
    write_csv(path, rows)
    return json.loads(run(["fit", "--data", path] + DAGS + [
        "--machine", machine, "--fit", "none", "--format", "json"]))


def config(r):
    return tuple((p, r[p]) for p in PARAMS[2:] if r[p])


def cfg_text(c):
    return " ".join("%s=%s" % kv for kv in c)


def pct(x):
    return "%+.1f %%" % (100 * x)


def ms(x):
    return "%.4g" % (1e3 * x)


def s_count(pk, fails):
    """The line that counts, among the sizes of at least 0.3 ms, those whose
    parameter is s (the optimized division and the multiplication; the naive
    division's is B) and the picks within 5 % there."""
    ks = [k for k, v in pk.items() if v[0][v[2]] >= 3e-4 and k[0] != "div_naive"]
    bad = sum(1 for k, _ in fails if k[0] != "div_naive")
    return ("Of those, the sizes whose parameter is s (div_opt and mul; "
            "div_naive's is B, the coefficients per thread): %d, the pick "
            "within 5 %% of the best at %d.\n" % (len(ks), len(ks) - bad))


def stats(errs):
    a = [abs(e) for e in errs]
    return statistics.median(a), max(a)


def picks(rows, pred):
    """Per (program, n, m, launch): measured time per configuration (the
    median of its runs), predicted time, the time model's pick and the
    measured best."""
    groups = {}
    for r, p in zip(rows, pred):
        k = (r["program"], int(r["n"]), int(r["m"]), r["launch"])
        g = groups.setdefault(k, {})
        c = config(r)
        e = g.setdefault(c, [[], p])
        e[0].append(float(r["time_ms"]) * 1e-3)
    out = {}
    for k, g in groups.items():
        meas = {c: statistics.median(v[0]) for c, v in g.items()}
        pr = {c: v[1] for c, v in g.items()}
        best = min(meas, key=lambda c: meas[c])
        pick = min(pr, key=lambda c: pr[c])
        out[k] = (meas, pr, best, pick)
    return out


def mmm_pick(program, n, m, objective, launch):
    dag = "dags/cumodp/%s.xml" % program
    if program == "div_naive":
        args = ["--param", "B", "--values", "1,8"]
    elif program == "div_opt":
        args = ["--param", "s", "--values", "32,64,128,256,512,1024"]
    else:
        args = ["--param", "s", "--values", "1,2,4,8,16,32", "-D", "l=256"]
    out = json.loads(run(["optimize", dag, "--machine", BASE, "--objective",
                          objective, "-D", "n=%d" % n, "-D", "m=%d" % m,
                          "--format", "json"] + args))
    return out["best"]["params"]


def check():
    """Section 8 of docs/fidelity.md is what the data and mmm give now."""
    with open(DOC) as f:
        text = f.read()
    at = text.find("\n## 8. ")
    have = text[at + 1:] if at >= 0 else ""
    want = two_gpus() + "\n"
    if have != want:
        sys.exit("%s: section 8 differs from what bench/fidelity.py computes now "
                 "(run python3 bench/fidelity.py --write):\n%s" % (DOC, want))


def main():
    if CHECK:
        return check()
    rows = read_rows()
    tmp = tempfile.mkdtemp(prefix="mmm_fidelity_")
    fitted = os.path.join(tmp, "fitted.xml")
    full = fit(rows, tmp, "all", fitted)
    pred = [r["predicted_s"] for r in full["rows"]]
    meas = [float(r["time_ms"]) * 1e-3 for r in rows]
    err = [(p - t) / t for p, t in zip(pred, meas)]

    # leave one size out
    sizes = sorted({size_key(r) for r in rows})
    loso = [None] * len(rows)
    loso_consts = {}
    for sz in sizes:
        train = [r for r in rows if size_key(r) != sz]
        test_idx = [i for i, r in enumerate(rows) if size_key(r) == sz]
        tag = "%s_%d_%d" % sz
        mfile = os.path.join(tmp, tag + ".xml")
        f = fit(train, tmp, "train_" + tag, mfile)
        loso_consts[sz] = f["constants"]
        p = predict([rows[i] for i in test_idx], tmp, "test_" + tag, mfile)
        for i, pr in zip(test_idx, p["rows"]):
            loso[i] = pr["predicted_s"]
    lerr = [(p - t) / t for p, t in zip(loso, meas)]

    o = []
    w = o.append
    w("# Fidelity of the time model on the CUMODP H100 runs\n")
    w("This page is generated by `python3 bench/fidelity.py --write` "
      "from the runs of CUMODP's division and "
      "multiplication kernels timed on an NVIDIA H100 (SXM5): "
      "`dags/cumodp/runs_stream.csv` (stream launches) and "
      "`dags/cumodp/runs_graph.csv` (the same launch sequences replayed as "
      "CUDA graphs; how they were taken: dags/cumodp/README.md); the programs are "
      "`dags/cumodp/div_opt.xml`, `div_naive.xml` and `mul.xml`, the base "
      "machine `dags/machines/h100.xml` (hardware limits, and the measured "
      "memory latency, the operation latency, the issue rate, the barrier, the block start and the exposed latency, all kept); the model and its constants are described in "
      "docs/time.md.  Every figure below is computed by `mmm fit` and "
      "`mmm optimize`.  Predicted times are doubles.\n")
    w("## 1. The fit on all %d runs\n" % len(rows))
    w("`mmm fit --data dags/cumodp/runs_stream.csv --launch graph --data "
      "dags/cumodp/runs_graph.csv dags/cumodp/*.xml --machine "
      "dags/machines/h100.xml %s -o dags/machines/h100-fitted.xml`\n"
      % " ".join(FIX))
    w("The uncertainty is the standard deviation of the constant's "
      "logarithm from the fit's covariance (docs/time.md, section 5); "
      "\"kept\": measured, not fitted.\n")
    w("| constant | value | uncertainty | unit |")
    w("|---|---|---|---|")
    unc = full.get("uncertainty", {})
    for k, v in full["constants"].items():
        u = ("kept" if k not in unc else "—" if unc[k] is None
             else "±%.1f %%" % (100 * unc[k]))
        w("| `%s` | %.4g | %s | %s |" % (k, v, u, full["units"][k]))
    w("")
    big = [i for i, t in enumerate(meas) if t >= 3e-4]
    md, mx = stats(err)
    bmd, bmx = stats([err[i] for i in big])
    w("Relative error |predicted − measured| / measured: median %.1f %%, "
      "largest %.1f %% over all %d runs; on the %d runs of at least 0.3 ms "
      "(the targets' rows): median %.1f %%, largest %.1f %% (targets: 15 %% "
      "and 35 %%).\n" % (100 * md, 100 * mx, len(rows), len(big), 100 * bmd,
                         100 * bmx))
    w("| program | launch | runs | median error | largest error | runs ≥ 0.3 ms: median | largest |")
    w("|---|---|---|---|---|---|---|")
    for prog in ("div_opt", "div_naive", "mul"):
        for launch in ("stream", "graph"):
            idx = [i for i, r in enumerate(rows)
                   if r["program"] == prog and r["launch"] == launch]
            if not idx:
                continue
            a, b = stats([err[i] for i in idx])
            bi = [i for i in idx if meas[i] >= 3e-4]
            c, d = stats([err[i] for i in bi]) if bi else (float("nan"),) * 2
            w("| %s | %s | %d | %.1f %% | %.1f %% | %.1f %% | %.1f %% |" %
              (prog, launch, len(idx), 100 * a, 100 * b, 100 * c, 100 * d))
    w("")

    # picks
    w("## 2. The parameter each model picks\n")
    w("Per size and launch mode: the value the MMM picks (`mmm optimize "
      "--objective overhead`, and `--objective bound`, the Graham–Brent "
      "bound, with `h100.xml`; for the multiplication over s with l = 256), "
      "the configuration the time model picks among the measured ones "
      "(smallest predicted time; `mmm optimize --objective time` over the "
      "same values picks the same), and the measured best.  \"pick/best\" is "
      "the measured time of the time model's pick over the best measured "
      "time.\n")
    w("| program | n | m | launch | MMM (overhead) | MMM (Graham–Brent) | time model | measured best | best (ms) | pick/best |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    pk = picks(rows, pred)
    fails = []
    for k in sorted(pk, key=lambda k: (k[0], k[1], k[2], k[3])):
        meas_c, pr, best, pick = pk[k]
        prog, n, m, launch = k
        if launch == "stream" or prog != "mul":
            ov = mmm_pick(prog, n, m, "overhead", launch)
            gb = mmm_pick(prog, n, m, "bound", launch)
        ovt = " ".join("%s=%s" % kv for kv in ov.items())
        gbt = " ".join("%s=%s" % kv for kv in gb.items())
        ratio = meas_c[pick] / meas_c[best]
        if meas_c[best] >= 3e-4 and ratio > 1.05:
            fails.append((k, ratio))
        w("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %.3f |" %
          (prog, n, m, launch, ovt, gbt, cfg_text(pick), cfg_text(best),
           ms(meas_c[best]), ratio))
    w("")
    nbig = sum(1 for k, v in pk.items() if v[0][v[2]] >= 3e-4)
    w("Sizes whose best time is at least 0.3 ms: %d; the time model's pick "
      "runs within 5 %% of the best at %d of them%s.\n" %
      (nbig, nbig - len(fails),
       "" if not fails else " (not at: " + ", ".join(
           "%s n=%d m=%d %s: %.3f" % (k[0], k[1], k[2], k[3], r)
           for k, r in fails) + ")"))
    w(s_count(pk, fails))

    # LOSO
    w("## 3. Leave one size out\n")
    w("For each size (a pair n, m: the division sizes hold both division "
      "programs and both launch modes; each multiplication size its "
      "configurations), the constants are fitted on all the other runs and "
      "the left-out runs are predicted with them (%d fits).\n" % len(sizes))
    lmd, lmx = stats(lerr)
    lbmd, lbmx = stats([lerr[i] for i in big])
    w("Relative error of the left-out predictions: median %.1f %%, largest "
      "%.1f %% over all runs; on the runs of at least 0.3 ms: median %.1f %%, "
      "largest %.1f %%.\n" % (100 * lmd, 100 * lmx, 100 * lbmd, 100 * lbmx))
    lp = picks(rows, loso)
    lfails = []
    w("| program | n | m | launch | time model (left out) | measured best | best (ms) | pick/best |")
    w("|---|---|---|---|---|---|---|---|")
    for k in sorted(lp, key=lambda k: (k[0], k[1], k[2], k[3])):
        meas_c, pr, best, pick = lp[k]
        ratio = meas_c[pick] / meas_c[best]
        if meas_c[best] >= 3e-4 and ratio > 1.05:
            lfails.append((k, ratio))
        w("| %s | %d | %d | %s | %s | %s | %s | %.3f |" %
          (k[0], k[1], k[2], k[3], cfg_text(pick), cfg_text(best),
           ms(meas_c[best]), ratio))
    w("")
    w("Left-out sizes whose best is at least 0.3 ms: %d; the pick is within "
      "5 %% of the best at %d%s.\n" %
      (nbig, nbig - len(lfails),
       "" if not lfails else " (not at: " + ", ".join(
           "%s n=%d m=%d %s: %.3f" % (k[0], k[1], k[2], k[3], r)
           for k, r in lfails) + ")"))
    w(s_count(lp, lfails))
    w("The constants of each fold (how stable they are):\n")
    names = list(full["constants"].keys())
    w("| left out | " + " | ".join("`%s`" % n for n in names) + " |")
    w("|---|" + "---|" * len(names))
    for sz in sizes:
        c = loso_consts[sz]
        w("| %s n=%d m=%d | " % sz + " | ".join("%.3g" % c[n] for n in names)
          + " |")
    w("")

    # every row
    w("## 4. Every run\n")
    w("Measured and predicted (fit on all runs; left out: the fold without "
      "the run's size), in ms.\n")
    w("| file:line | program | params | launch | measured | predicted | error | left out | error |")
    w("|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rows):
        w("| %s:%d | %s | %s | %s | %s | %s | %s | %s | %s |" %
          (r["file"], r["line"], r["program"],
           " ".join("%s=%s" % (p, r[p]) for p in PARAMS if r[p]),
           r["launch"], ms(meas[i]), ms(pred[i]), pct(err[i]), ms(loso[i]),
           pct(lerr[i])))
    w("")
    # Sections 5 to 7 are written by hand: keep them from the page.
    w(kept_sections())
    w(two_gpus())
    text = "\n".join(o) + "\n"
    if not WRITE:
        sys.stdout.write(text)
        return
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(DOC) or ".",
                               prefix=".fidelity.")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, DOC)


def kept_sections():
    """Sections 5 and on of the current docs/fidelity.md (written by hand),
    or placeholders when there is none."""
    try:
        with open(DOC) as f:
            text = f.read()
    except OSError:
        text = ""
    at = text.find("\n## 5. ")
    if at < 0:
        return ("## 5. Where the model is still wrong\n\nWHERE_WRONG\n\n"
                "## 6. Predictions from the calibrated machine file\n\n"
                "CALIBRATED\n")
    end = text.find("\n## 8. ", at)
    return text[at + 1:end if end >= 0 else len(text)].rstrip("\n") + "\n"


# Section 8: bench/gpu's 23 kernels on two GPUs.
GPUS = [("H100", "h100", "an NVIDIA H100 SXM5 (132 SMs, 3.35 TB/s HBM3, 50 MiB of L2)"),
        ("H200", "h200", "an NVIDIA H200 (the H100's SM, 132 of them, 4.8 TB/s HBM3e, "
                         "60 MiB of L2)")]
SETS = ["runs", "holdout"] + ["holdout%d" % i for i in range(2, 7)]
# Threads per block of the kernels whose configuration is a tile (their
# DAG files' threads= attribute); the others have a tpb column.
TILE_THREADS = {"matmul": "tile*tile/r", "transpose": "tile*tile/r",
                "mm2d": "(tile/r)**2", "regmm": "tile*tile/r"}


def cfg_of(params):
    return {k: v for k, v in params.items() if k in validate.CONFIG}


def block_threads(prog, p):
    return p["tpb"] if "tpb" in p else eval(TILE_THREADS[prog], {}, dict(p))


def naive_pick(prog, rows, idx):
    """256 threads per block and the least work per thread (k or r): the
    configuration taken without measuring (the closest to 256 threads
    when none has them)."""
    return min(idx, key=lambda i: (abs(math.log(block_threads(prog, rows[i]["params"]) / 256)),
                                   block_threads(prog, rows[i]["params"]),
                                   rows[i]["params"].get("k", rows[i]["params"].get("r", 1))))


def gpu_results(tag):
    """Predicted and measured runs of bench/gpu on one GPU, from its
    calibrated machine file; per size: best, the model's pick, the
    baselines."""
    runs = [os.path.join("bench/gpu/data", "%s_%s.csv" % (s, tag)) for s in SETS]
    progs = set()
    for r in runs:
        with open(r) as f:
            next(f)
            progs.update(line.split(",", 1)[0] for line in f if line.strip())
    dags = [os.path.join("dags/gpu", p + ".xml") for p in sorted(progs)]
    machine = "dags/machines/%s-calibrated.xml" % tag
    rows = validate.predict(MMM, runs, dags, machine)["rows"]
    groups = validate.groups_of(rows)
    best_cfg = {k: cfg_of(rows[min(idx, key=lambda i: rows[i]["measured_s"])]["params"])
                for k, idx in groups.items()}
    sizes = {}
    for (prog, size), idx in groups.items():
        best = min(idx, key=lambda i: rows[i]["measured_s"])
        t = rows[best]["measured_s"]
        pick = validate.pick_of(rows, idx)
        other = []
        for (p2, s2), c in best_cfg.items():
            if p2 == prog and s2 != size:
                m = [i for i in idx if cfg_of(rows[i]["params"]) == c]
                other.append(rows[m[0]]["measured_s"] / t if m else float("inf"))
        sizes[(prog, size)] = {"best": t, "best_cfg": cfg_of(rows[best]["params"]),
                               "pick_cfg": cfg_of(rows[pick]["params"]),
                               "pick": rows[pick]["measured_s"] / t,
                               "naive": rows[naive_pick(prog, rows, idx)]["measured_s"] / t,
                               "other": other}
    rel = [abs(r["predicted_s"] / r["measured_s"] - 1) for r in rows]
    return {"machine": machine, "runs": len(rows), "sizes": sizes,
            "median": statistics.median(rel), "largest": max(rel)}


def two_gpus():
    res = {name: gpu_results(tag) for name, tag, _ in GPUS}
    o = []
    w = o.append
    w("## 8. Two GPUs, each from its calibrated machine file\n")
    w("This section is generated by `python3 bench/fidelity.py --write`.  The "
      "23 kernels of section 7 (`bench/gpu`, the seven sets A to G) were timed "
      "over the same launch configurations on %s and on %s "
      "(`bench/gpu/data/*_h100.csv` and `*_h200.csv`), and each GPU's runs are "
      "predicted from its own `mmm calibrate` file (`dags/machines/h100-calibrated.xml`, "
      "`h200-calibrated.xml`) with nothing fitted: the DAG files are those of "
      "`dags/gpu/`, the same for both GPUs.  \"pick/best\" is the measured "
      "time of a choice over the best measured time at that size.  Beside the "
      "model's pick (the smallest predicted time, as `mmm optimize "
      "--objective time` picks it), two choices that need no model:\n"
      % (GPUS[0][2], GPUS[1][2]))
    w("- **256 threads, least work**: 256 threads per block and the least work "
      "per thread (`k` or `r` smallest; for a tiled kernel the tile and `r` that "
      "give 256 threads), what one takes without measuring;")
    w("- **another size's best**: the configuration measured best at another "
      "size of the same program (this needs runs of the program; each other "
      "size counts once, so the 47 sizes give %d pairs).\n"
      % len([1 for v in res["H100"]["sizes"].values() for _ in v["other"]]))
    w("| GPU | machine file | runs | median error | largest | model's pick within 10 % "
      "| worst pick/best | 256 threads, least work: within 10 % | another size's best: "
      "within 10 % |")
    w("|---|---|---|---|---|---|---|---|---|")
    for name, _, _ in GPUS:
        r = res[name]
        sz = r["sizes"].values()
        pairs = [x for v in sz for x in v["other"]]
        w("| %s | `%s` | %d | %.1f %% | %.1f %% | %d of %d | %.3f | %d of %d | %d of %d |" % (
            name, r["machine"], r["runs"], 100 * r["median"], 100 * r["largest"],
            sum(v["pick"] <= 1.10 for v in sz), len(sz), max(v["pick"] for v in sz),
            sum(v["naive"] <= 1.10 for v in sz), len(sz),
            sum(x <= 1.10 for x in pairs), len(pairs)))
    w("")
    w("Per size (pick/best; **bold** past 1.10; \"another size's best\" lists "
      "the best configuration of each other size):\n")
    w("| program | size | H100: best (ms) | model | 256 threads | another size's best "
      "| H200: best (ms) | model | 256 threads | another size's best |")
    w("|---|---|---|---|---|---|---|---|---|---|")

    def cell(x):
        return ("**%.3f**" if x > 1.10 else "%.3f") % x

    for key in sorted(res["H100"]["sizes"], key=lambda k: k[0]):
        prog, size = key
        cells = []
        for name, _, _ in GPUS:
            v = res[name]["sizes"][key]
            cells += ["%.4g" % (1e3 * v["best"]), cell(v["pick"]), cell(v["naive"]),
                      ", ".join(cell(x) for x in v["other"])]
        w("| %s | %s | %s |" % (prog, validate.fmt_params(json.loads(size),
                                                           set(json.loads(size))),
                                " | ".join(cells)))
    w("")
    h1, h2 = res["H100"], res["H200"]

    def within(r, what):
        sz = r["sizes"].values()
        if what == "other":
            xs = [x for v in sz for x in v["other"]]
        else:
            xs = [v[what] for v in sz]
        return sum(x <= 1.10 for x in xs), len(xs)

    w("On the H200 the model's pick is within 10 %% of the best at %d of %d sizes "
      "with a median error of %.1f %% over %d runs (the H100: %d of %d, %.1f %%), "
      "from a machine file measured in seconds and no run of these programs; 256 "
      "threads with the least work per thread is within 10 %% at %d of %d (H100: %d of "
      "%d), and another size's best configuration at %d of %d pairs (H100: %d of %d), "
      "which needs the program run at that other size first.\n" % (
          within(h2, "pick") + (100 * h2["median"], h2["runs"]) + within(h1, "pick") +
          (100 * h1["median"],) + within(h2, "naive") + within(h1, "naive") +
          within(h2, "other") + within(h1, "other")))
    return "\n".join(o)


main()
