#!/usr/bin/env python3
"""fidelity.py: measured against predicted times of the CUMODP runs, the
parameter each model picks, and a leave-one-size-out cross-validation;
writes the Markdown of docs/fidelity.md on standard output, or with
--write replaces docs/fidelity.md itself (atomically; a shell redirection
onto the page would empty it before its hand-written sections 5 and on
are read).

    python3 bench/fidelity.py [--write] [DATA_DIR [MMM_BINARY]]

DATA_DIR (default dags/cumodp) holds runs_stream.csv and runs_graph.csv
(program, n, m, s, B, l, time_ms; dags/cumodp/README.md).  Every number comes from the mmm binary: `mmm fit` (all runs,
then once per left-out size) and `mmm optimize` (the MMM's picks)."""
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

WRITE = "--write" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--write"]
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


def main():
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
    # Sections 5 and 6 are written by hand: keep them from the page.
    w(kept_sections())
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
    return text[at + 1:].rstrip("\n") + "\n"


main()
