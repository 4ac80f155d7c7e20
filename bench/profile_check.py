#!/usr/bin/env python3
"""profile_check.py: DAG files built by `mmm profile` from Nsight Compute
captures at the smaller sizes, side by side with the hand-written ones.

    python3 bench/profile_check.py [--mmm PATH] [--caps DIR] [--machine FILE]
                                   [--work DIR] [-o TABLES.md]

For the 23 kernels of bench/gpu (dags/gpu/*.xml) and CUMODP's three programs
(dags/cumodp/*.xml) it

1. cuts the captures of /work/profile-captures (README.txt there) into one
   capture per point (a launch configuration at a captured size: the
   launches that configuration timed, in the order its DAG issues them) and
   writes POINTS.csv;
2. writes a skeleton from the hand-written DAG: its structure (parameters,
   repeats, blocks, threads, edges, and the attributes the counters cannot
   measure: rounds, strides, gathers, scatters, gather_bytes) with every
   device-side cost left to be measured (work, span, reads, writes,
   registers, shared_bytes, barriers, wavefronts, global_wavefronts; atomics
   where the hand file has them, since ncu's atomics count every atomic
   instruction and only those on one word belong there: docs/profile.md);
   the hand file's chain is kept (no counter measures it: the user's
   knowledge, as rounds and strides), except in a program where it exceeds
   the span measured in SASS at some configuration (the time model refuses
   that: the profiled file then loses its chains, and the notes say so);
   kernel ids become the function names the captures carry;
3. runs `mmm profile build POINTS.csv --skeleton SKEL.xml -o PROG.xml`;
4. predicts every timed run (all sizes, the larger ones never profiled) with
   both DAGs and the same machine file (`mmm fit --fit none`, the model of
   `mmm analyze --model time` without fitting anything), and prints Markdown:
   per kernel the counts of both files at a reference configuration of the
   profiled size; per program and size the measured best, the picks
   (least predicted time) of both DAGs and of two baselines (a fixed 256
   threads per block with the least work per thread; the configuration
   measured best at another size), each with its measured time over the
   best; the median and largest error of the predicted times over runs of
   0.3 ms or more.

Captures: call3/ (57 metrics) at the smaller size of each program (reduce at
three sizes), pagerank from run-style/, and call4/ (the same list at other
sizes, bench/profile/call4_device.sh) where it is there (CALL4 below).

Where a hand-written gathers or scatters is more than the measured reads or
writes at a profiled point, `mmm profile build` writes min(hand, measured)
(CLAMPED in the kernel's comment; the notes list them); --cap writes
min(hand, measured) for every such pair, as the first run of this script
did.

Workarounds, each counted in the output (see the notes it prints):
- stencil and pagerank chains were sampled once per configuration: the
  sampled launch stands for the 10 of its chain (what `mmm profile run`
  does with --filter-mode per-launch-config);
- CUMODP: the ncu list of launches becomes the skeleton's order (the DAGs
  give each kernel of a loop as one chain: the same launches); one driver
  process ran every configuration, and ncu groups launch configurations by
  the function's name without its namespace, so some launches of one
  (s, l) were not sampled because another (s, l) had the same grid: they
  take the costs of the same kernel (same s, l) at another grid of the same
  point (or another point), totals scaled by the grids; the naive
  division's launch list (12,296 launches) did not finish within its cap,
  so its list is the driver's own (prof_cumodp plan), every launch taking
  the sampled launch of its configuration.
Nothing here runs a GPU; it reads files and runs mmm.
"""
import argparse
import csv
import glob
import io
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

COSTS = ["work", "span", "reads", "writes", "registers", "shared_bytes",
         "barriers", "wavefronts", "global_wavefronts"]
SHOWN = COSTS + ["atomics"]
CONFIG_KEYS = ["tpb", "k", "tile", "r", "s", "B", "l"]

# --------------------------------------------------------------------------
# programs: DAG, captures (file, map), timing file, small sizes


def gpu_programs(caps):
    c3 = os.path.join(caps, "call3")
    rs = os.path.join(caps, "run-style")
    t = os.path.join(caps, "timing")
    P = []

    def add(name, capset, timing, raw=None):
        P.append({"name": name, "dag": os.path.join(ROOT, "dags/gpu/%s.xml" % name),
                  "kind": "gpu", "timing": os.path.join(t, timing),
                  "caps": capset})
    # the numbers from the plain export (base units where one was written,
    # else ncu's default units, exact to 6 decimals); the barriers (BAR per
    # opcode) from the export with --print-metric-instances details, whose
    # cells with instances ncu scaled number by number with two decimals
    # ('256 (0: 256)' is 256 bytes under Kbyte/block, '4.10 (0: 4.10)' is
    # 4,096 rounded: mmm reads them right, but rounded)
    def inst(x):
        base = os.path.join(c3, x + ".raw-base.csv")
        if not os.path.exists(base):
            base = os.path.join(c3, x + ".raw.csv")
        return (base, os.path.join(c3, x + ".raw-instances.csv"), os.path.join(c3, x + ".map.csv"))
    # reduce: the three sizes of call3 (n = 2^18, 2^19, 2^20), all smaller
    # than the timed larger sizes 2^24, 2^28
    add("reduce", [inst("validate_reduce_sizes")], "validate_h200.csv")
    add("matmul", [inst("validate")], "validate_h200.csv")
    # pagerank: call3 did not take it; run-style has mmm profile's own two
    # passes (every launch listed, one sample per configuration)
    P.append({"name": "pagerank", "dag": os.path.join(ROOT, "dags/gpu/pagerank.xml"),
              "kind": "gpu", "timing": os.path.join(t, "validate_h200.csv"),
              "caps": [], "runstyle": (os.path.join(rs, "validate_reduce_pagerank-launches.csv"),
                                       os.path.join(rs, "validate_reduce_pagerank-sample.csv"),
                                       os.path.join(rs, "validate_reduce_pagerank-launches.map.csv"))})
    add("transpose", [inst("holdout_transpose")], "holdout_h200.csv")
    add("stencil", [inst("holdout_stencil")], "holdout_h200.csv")
    for n in ("gemv", "scan"):
        add(n, [inst("holdout2")], "holdout2_h200.csv")
    for n in ("spmv", "relax", "shfl_reduce", "regmm"):
        add(n, [inst("holdout3")], "holdout3_h200.csv")
    for n in ("seq_reduce", "mm2d", "bfs_step", "vec_spmv"):
        add(n, [inst("holdout4")], "holdout4_h200.csv")
    for n in ("pr_push", "histogram", "cc_hook", "tiled_conv"):
        add(n, [inst("holdout5")], "holdout5_h200.csv")
    for n in ("col_sum", "block_hist", "batched_mm", "tri_count"):
        add(n, [inst("holdout6")], "holdout6_h200.csv")
    # call4 (bench/profile/call4_device.sh), where it is there: the same
    # programs at other sizes, so that the fit sees the size
    c4 = os.path.join(caps, "call4")
    for prog in P:
        for x, filtered in CALL4.get(prog["name"], []):
            raw = os.path.join(c4, x + ".raw-base.csv")
            if not os.path.exists(raw):
                raw = os.path.join(c4, x + ".raw.csv")
            if os.path.exists(raw):
                prog["caps"].append((raw, os.path.join(c4, x + ".raw-instances.csv"),
                                     ("map", os.path.join(c4, x + ".raw.csv"),
                                      os.path.join(c4, x + ".out"), filtered)))
    return P


# points the skeleton's constraints refuse (call4 captured vec_spmv at
# d = 16 where dags/gpu/vec_spmv.xml asks d >= 32: one warp per row)
ALLOWED = {"vec_spmv": lambda p: int(p["d"]) >= 32}

# program -> (capture of call4, taken with the per-launch-config filter)
CALL4 = {"matmul": [("validate4", False)],
         "pagerank": [("validate4_pr_d4", True), ("validate4_pr_d8", True)],
         "mm2d": [("holdout4_4", False)], "vec_spmv": [("holdout4_4", False)],
         "regmm": [("holdout3_4", False)], "spmv": [("holdout3_4", False)],
         "relax": [("holdout3_4", False)], "cc_hook": [("holdout5_4", False)],
         "gemv": [("holdout2_4", False)]}


def map_rows(mp):
    """The rows of a map.csv of map_launches.py; ('map', RAW, OUT, FILTERED):
    made now from the capture and the driver's output."""
    if isinstance(mp, str):
        return list(csv.DictReader(open(mp)))
    _, raw, outp, filtered = mp
    p = subprocess.run([sys.executable, os.path.join(HERE, "profile", "map_launches.py"), raw, outp]
                       + (["--filtered"] if filtered else []), capture_output=True, text=True)
    if p.returncode:
        sys.exit("profile_check: map_launches.py %s: %s" % (raw, p.stderr.strip()))
    return list(csv.DictReader(io.StringIO(p.stdout)))


def cumodp_programs(caps):
    d = os.path.join(caps, "cumodp")
    t = os.path.join(d, "timing")
    n = os.path.join(d, "ncu")
    return [
        {"name": "div_opt", "dag": os.path.join(ROOT, "dags/cumodp/div_opt.xml"), "kind": "cumodp",
         "timing": os.path.join(t, "div_opt_h200.csv"),
         "points": [("div_opt_4096_2048", 4096, 2048)]},
        {"name": "div_naive", "dag": os.path.join(ROOT, "dags/cumodp/div_naive.xml"), "kind": "cumodp",
         "timing": os.path.join(t, "div_naive_h200.csv"),
         "points": [("div_naive_4096_2048", 4096, 2048)]},
        {"name": "mul", "dag": os.path.join(ROOT, "dags/cumodp/mul.xml"), "kind": "cumodp",
         "timing": os.path.join(t, "mul_h200.csv"),
         "points": [("mul_1024_1024", 1024, 1024), ("mul_2048_256", 2048, 256),
                    ("mul_4096_4096", 4096, 4096)]},
    ]


# --------------------------------------------------------------------------
# ncu raw CSV


class Capture:
    """An ncu --csv --page raw table: header, units, rows (lists of cells)."""

    def __init__(self, path):
        self.path = path
        with open(path, newline="") as f:
            lines = f.read().splitlines()
        i = next((k for k, l in enumerate(lines) if l.startswith('"ID"')), None)
        if i is None:
            self.header, self.units, self.rows = [], [], []
            return
        r = list(csv.reader(lines[i:]))
        self.header, self.units, self.rows = r[0], r[1], [x for x in r[2:] if x]
        self.col = {h: k for k, h in enumerate(self.header)}

    def get(self, row, name):
        return row[self.col[name]]

    def write(self, path, rows):
        out = io.StringIO()
        w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
        w.writerow(self.header)
        w.writerow(self.units)
        for r in rows:
            w.writerow(r)
        with open(path, "w") as f:
            f.write(out.getvalue())


def fname(kernel):
    """Function name of an ncu kernel name: no return type, template
    arguments, parameters or namespace."""
    k = kernel.split("(")[0]
    k = re.sub(r"<.*>", "", k).strip()
    if k.startswith("void "):
        k = k[5:]
    return k.split("::")[-1].strip()


def fullname(kernel):
    return kernel.split("(")[0].strip()


def num(cell):
    return float(cell.split("(")[0].replace(",", "").strip() or "nan")


def scale_cell(cell, f):
    """Scales a count cell (and its instance values) by f, for a launch whose
    costs are borrowed from another grid: totals go with the blocks."""
    if f == 1:
        return cell

    def sc(m):
        v = float(m.group(0).replace(",", ""))
        return "%.6f" % (v * f)
    head, _, inst = cell.partition("(")
    head = re.sub(r"[0-9][0-9,]*\.?[0-9]*", sc, head, count=1)
    if inst:
        inst = re.sub(r"(?<=: )[0-9][0-9,]*\.?[0-9]*", sc, inst)
        return head + "(" + inst
    return head


# --------------------------------------------------------------------------
# expressions of the DAG files, evaluated in Python (for the count tables
# and the baselines' threads per block)


def py_expr(e):
    e = " ".join(e.split())
    e = e.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    e = e.replace("&&", " and ").replace("||", " or ").replace("^", "**")
    e = re.sub(r"!(?!=)", " not ", e)
    return e


ENV0 = {"ceil": math.ceil, "floor": math.floor, "log2": math.log2, "sqrt": math.sqrt,
        "min": min, "max": max}


def parse_dag(path):
    """Parameters (name -> expression text) in order, kernels (id, attrs),
    edges, of a DAG file, by regular expressions over its text."""
    text = open(path).read()
    text_nc = re.sub(r"<!--.*?-->", lambda m: " " * len(m.group(0)), text, flags=re.S)
    params = [(m.group(1), m.group(2)) for m in
              re.finditer(r'<param\s+name="([^"]+)"\s+value="([^"]*)"', text_nc)]
    kernels = []
    for m in re.finditer(r"<kernel\b(.*?)/?>", text_nc, flags=re.S):
        attrs = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', m.group(1)))
        kernels.append(attrs)
    return text, params, kernels


def env_of(params, over):
    env = dict(ENV0)
    for name, expr in params:
        if name in over:
            env[name] = over[name]
        else:
            try:
                env[name] = eval(py_expr(expr), {"__builtins__": {}}, env)
            except Exception:
                env[name] = float("nan")
    for k, v in over.items():
        env[k] = v
    return env


def eval_attr(expr, env):
    try:
        v = eval(py_expr(expr), {"__builtins__": {}}, env)
        return float(v)
    except Exception as e:
        return float("nan")


# --------------------------------------------------------------------------
# skeletons


def skeleton(dag_path, idmap, out_path, atomics_measured):
    """The hand-written DAG with its device-side costs as '?' and its kernel
    ids renamed (idmap: hand id -> function name, '#suffix' allowed)."""
    text = open(dag_path).read()

    def kernel_tag(m):
        tag = m.group(0)
        kid = re.search(r'\bid="([^"]+)"', tag).group(1)
        want = list(COSTS) + (["atomics"] if "atomics" in tag or atomics_measured else [])
        for a in want:
            if re.search(r'\b%s="' % a, tag):
                tag = re.sub(r'(\b%s=)"[^"]*"' % a, r'\1"?"', tag)
            else:
                tag = re.sub(r"\s*(/?>)$", r' %s="?"\1' % a, tag)
        tag = tag.replace('id="%s"' % kid, 'id="%s"' % idmap[kid], 1)
        return tag
    # kernel start tags outside comments
    parts = re.split(r"(<!--.*?-->)", text, flags=re.S)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"<kernel\b.*?/?>", kernel_tag, parts[i], flags=re.S)
        parts[i] = re.sub(r'(<edge\s+from=")([^"]+)("\s+to=")([^"]+)(")',
                          lambda m: m.group(1) + idmap.get(m.group(2), m.group(2)) + m.group(3)
                          + idmap.get(m.group(4), m.group(4)) + m.group(5), parts[i])
    with open(out_path, "w") as f:
        f.write("".join(parts))


# --------------------------------------------------------------------------
# points of the bench/gpu programs


def config_params(cfg):
    """'program=reduce;n=1048576;tpb=64;k=1' -> ('reduce', {'n': '1048576', ...})."""
    d = dict(x.split("=", 1) for x in cfg.split(";"))
    return d.pop("program"), d


def gpu_points(prog, work, notes):
    """Per-point captures and POINTS.csv of one bench/gpu program."""
    pts = {}  # config text -> list of rows (with the capture they come from)
    caps = []
    out = {}
    if "runstyle" in prog:
        lpath, spath, mpath = prog["runstyle"]
        L, S = Capture(lpath), Capture(spath)
        caps = [L, S]
        rows = list(csv.DictReader(open(mpath)))
        for m, r in zip(rows, L.rows):
            if m["bench"] != prog["name"] or m["role"] != "timed":
                continue
            pts.setdefault(m["config"], {"L": [], "S": []})["L"].append(r)
        # the sample: every sampled launch of this program's kernels (the
        # build takes, for each launch of the list, those of its configuration)
        key = lambda C, r: (C.get(r, "Kernel Name"), C.get(r, "Grid Size"), C.get(r, "Block Size"))
        for cfg, c in pts.items():
            keys = set(key(L, r) for r in c["L"])
            out[cfg] = [(L, c["L"]), (S, [r for r in S.rows if key(S, r) in keys])]
        pts = {}
    where = {}  # config text -> the capture its rows are in
    for raw, instp, mp in prog["caps"]:
        C = Capture(raw)
        I = Capture(instp)
        op = "sass__inst_executed_per_opcode"
        ids = {r[I.col["ID"]]: r[I.col[op]] for r in I.rows}
        for r in C.rows:
            r[C.col[op]] = ids[r[C.col["ID"]]]
        maps = map_rows(mp)
        if len(maps) != len(C.rows):
            sys.exit("profile_check: %s has %d rows, its map %d" % (raw, len(C.rows), len(maps)))
        for m, r in zip(maps, C.rows):
            if m["bench"] != prog["name"] or m["role"] != "timed":
                continue
            rep = int(m["timed_repeat"] or 1)
            if m["config"] in out or where.setdefault(m["config"], C) is not C:
                sys.exit("profile_check: %s: the configuration %s is in two captures" % (raw, m["config"]))
            lst = pts.setdefault(m["config"], [])
            # a chain sampled once (per-launch-config): its first launch
            # stands for the others
            for j in range(rep):
                lst.append(r)
            if rep > 1:
                notes["chain"] = notes.get("chain", 0) + 1
            caps.append(C)
    out.update({cfg: [(where[cfg], rows)] for cfg, rows in pts.items()})
    return out


def write_points(prog, pts, work):
    """POINTS.csv and one capture file per point (per capture)."""
    d = os.path.join(work, prog["name"])
    os.makedirs(d, exist_ok=True)
    keys = None
    lines = []
    for k, (cfg, caps) in enumerate(pts.items()):
        name, params = config_params(cfg)
        if not ALLOWED.get(prog["name"], lambda p: True)(params):
            continue  # outside the hand-written file's own constraints
        if keys is None:
            keys = sorted(params)
        for j, (C, rows) in enumerate(caps):
            fn = "p%03d-%d.csv" % (k, j)
            C.write(os.path.join(d, fn), rows)
            lines.append([fn] + [params[x] for x in keys])
    with open(os.path.join(d, "POINTS.csv"), "w") as f:
        f.write(",".join(["ncu"] + keys) + "\n")
        for l in lines:
            f.write(",".join(l) + "\n")
    return os.path.join(d, "POINTS.csv")


# --------------------------------------------------------------------------
# points of CUMODP


SUMCOL = re.compile(r"\.sum$")


def cumodp_points(prog, caps, work, notes):
    """Per-point captures of CUMODP: every launch of the list with its own
    costs (from the sample of its configuration), ordered as the DAG issues
    them."""
    d = os.path.join(caps, "cumodp", "ncu")
    name = prog["name"]
    out = {}
    for tag, n, m in prog["points"]:
        # the samples: one file per point (X-sample.csv), or one per
        # configuration (X-sample-CFG.csv, cumodp_device.sh PHASES=samples)
        sfiles = sorted(glob.glob(os.path.join(d, tag + "-sample*.csv")))
        lfiles = sorted(glob.glob(os.path.join(d, tag + "-last*.csv")))
        caps_s = [Capture(f) for f in sfiles]
        caps_s = [C for C in caps_s if C.rows and "smsp__inst_executed.sum" in C.col]
        if not caps_s:
            raise Blocked("%s: no sample of %s has the cost metrics (%s): the captures hold "
                          "launch statistics only" % (name, tag, ", ".join(os.path.basename(f) for f in sfiles)))
        H = caps_s[0]
        S = H
        samples = [remap(H, C, r) for C in caps_s for r in C.rows]
        extra = [remap(H, C, r) for f in lfiles for C in [Capture(f)]
                 if C.rows and "smsp__inst_executed.sum" in C.col for r in C.rows]
        if name == "div_opt" and not extra:
            raise Blocked("div_opt: no capture of the last divGPU with the cost metrics")
        col = H.col
        lpath = os.path.join(d, tag + "-launches.csv")
        L = Capture(lpath)
        if not L.rows:
            L = None
        if L is None:
            # the launch list did not finish: the driver's own list
            plan = subprocess.run([os.path.join(ROOT, "build-profile/prof_cumodp"), "plan", name,
                                   "%d:%d" % (n, m)], capture_output=True, text=True)
            if plan.returncode:
                sys.exit("profile_check: prof_cumodp plan failed (build it: "
                         "bench/profile/cumodp/README.md): " + plan.stderr)
            launches = plan_launches(plan.stderr, name)
            notes["cumodp_list_from_plan"] = notes.get("cumodp_list_from_plan", 0) + len(launches)
        else:
            launches = []
            for r in L.rows:
                launches.append({"kernel": L.get(r, "Kernel Name"),
                                 "grid": int(num(L.get(r, "launch__grid_size"))),
                                 "block": int(num(L.get(r, "launch__block_size")))})
        # namespace of each launch (the configuration) and position
        groups = {}
        for x in launches:
            ns = fullname(x["kernel"]).split("::")[0]
            groups.setdefault(ns, []).append(x)
        for ns, lst in groups.items():
            cfg = ns_config(name, ns)
            rows = []
            nlast = 0
            for pos, x in enumerate(lst):
                is_last = (name == "div_opt" and fname(x["kernel"]) == "divGPU" and
                           all(fname(y["kernel"]) != "divGPU" for y in lst[pos + 1:]))
                src = extra if is_last else samples
                r, how = find_costs(H, src, samples, x, ns, prog, caps, tag)
                notes.setdefault("cumodp_costs_" + how, 0)
                notes["cumodp_costs_" + how] += 1
                rows.append((order_key(name, x, pos, lst, is_last), pos, r))
            rows.sort(key=lambda t: (t[0], t[1]))
            for i, (_, _, r) in enumerate(rows):
                r[col["ID"]] = str(i)
            key = "program=%s;n=%d;m=%d;%s" % (name, n, m, ";".join("%s=%s" % kv for kv in cfg))
            out[key] = [(H, [r for _, _, r in rows])]
    return out


# CUMODP's programs profiled by `mmm profile run` itself (its launch tracer
# and a sample with mangled names; bench/profile/call6_device.sh): the
# folder under the captures, and the parameters the runs held fixed
# (bench/profile/call7_device.sh: the multiplication at n = m = 8192 and
# 16384, where every block is full, and every (s, l) the driver has, in
# run7/; the division's launches interleave statusUpdate and divGPU where
# its DAG has two chains, so it keeps the path of cumodp_points)
RUN6 = {"mul": ("run7/mul", {"m": "=n"})}


def demangled_copy(src, dst):
    """A copy of an ncu capture with its mangled kernel names demangled
    (c++filt), for this script's own readers of the names."""
    lines = open(src, newline="").read().splitlines(True)
    names = sorted({r[4] for r in csv.reader([l for l in lines if l.startswith('"')])
                    if len(r) > 4 and r[4].startswith("_Z")})
    dem = dict(zip(names, subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                                         text=True).stdout.splitlines())) if names else {}
    with open(dst, "w") as f:
        for l in lines:
            if l.startswith('"'):
                r = next(csv.reader([l]))
                if len(r) > 4 and r[4] in dem:
                    r[4] = dem[r[4]]
                    b = io.StringIO()
                    csv.writer(b, quoting=csv.QUOTE_ALL, lineterminator="\n").writerow(r)
                    l = b.getvalue()
            f.write(l)


def run6_points(prog, caps, work):
    """POINTS.csv of a program profiled by `mmm profile run` (RUN6), with the
    fixed parameters added as columns, and the points as this script keeps
    them (each the demangled sample)."""
    sub, fixed = RUN6[prog["name"]]
    keep = os.path.join(caps, sub, "keep")
    d = os.path.join(work, prog["name"])
    os.makedirs(d, exist_ok=True)
    rows = list(csv.reader(open(os.path.join(keep, "POINTS.csv"))))
    head = rows[0] + sorted(fixed)
    pts, lines = {}, []
    for r in rows[1:]:
        shutil.copy(os.path.join(keep, r[0]), os.path.join(d, r[0]))
        p = dict(zip(rows[0][1:], r[1:]))
        for k, v in fixed.items():
            p[k] = p[v[1:]] if v.startswith("=") else v
        lines.append([r[0]] + [p[k] for k in head[1:]])
        if r[0].endswith("-sample.csv"):
            dm = os.path.join(d, "demangled-" + r[0])
            demangled_copy(os.path.join(keep, r[0]), dm)
            C = Capture(dm)
            cfg = "program=%s;" % prog["name"] + ";".join("%s=%s" % kv for kv in sorted(p.items()))
            pts[cfg] = [(C, C.rows)]
    path = os.path.join(d, "POINTS.csv")
    with open(path, "w") as f:
        for l in [head] + lines:
            f.write(",".join(l) + "\n")
    return pts, path


class Blocked(Exception):
    pass


def remap(H, C, r):
    """Row r of capture C in the columns of capture H."""
    if C is H:
        return list(r)
    return [r[C.col[h]] if h in C.col else "" for h in H.header]


def ns_config(name, ns):
    if name == "div_naive":
        return [("B", ns.replace("naive_B", ""))]
    if name == "div_opt":
        return [("s", ns.replace("div_s", ""))]
    if name == "mul":
        s, l = re.match(r"mul_s(\d+)_l(\d+)", ns).groups()
        return [("l", l), ("s", s)]
    return []


def order_key(name, x, pos, lst, is_last):
    f = fname(x["kernel"])
    if name == "div_opt":
        if f == "zero":
            return 0 if pos == 0 else 1
        return {"reduceM": 2, "statusUpdate": 3, "divGPU": 5 if is_last else 4, "copyRem": 6}[f]
    if name == "div_naive":
        return {"initDiv": 0, "stateCompute": 1, "divGPU": 2, "nReduceM": 3}[f]
    return 0  # mul: the launch order is the DAG's


def plan_launches(text, name):
    """The launches prof_cumodp plan prints (div_naive: the first step only,
    then the count): the whole list."""
    out = []
    blocks = re.split(r"^div_naive n=\d+ m=\d+ B=(\d+)$", text, flags=re.M)
    for i in range(1, len(blocks), 2):
        B = blocks[i]
        ls = re.findall(r"launch (\w+) <<<(\d+), (\d+)>>>", blocks[i + 1])
        total = int(re.search(r"(\d+) launches", blocks[i + 1]).group(1))
        init, loop = ls[0], ls[1:4]
        out.append({"kernel": "naive::%s(plan B=%s)" % (init[0], B), "grid": int(init[1]),
                    "block": int(init[2]), "B": B})
        for _ in range((total - 1) // 3):
            for k in loop:
                out.append({"kernel": "naive::%s(plan B=%s)" % (k[0], B), "grid": int(k[1]),
                            "block": int(k[2]), "B": B})
    # one namespace for both B: key the configuration by B instead
    for x in out:
        x["kernel"] = x["kernel"].replace("naive::", "naive_B%s::" % x["B"])
    return out


_other_points = {}


def find_costs(H, src, samples, x, ns, prog, caps, tag):
    """The sample row giving launch x its costs: the same kernel (namespace
    included) and grid; else the same kernel at another grid of this point,
    then of another point (totals scaled by the grids); else the same
    function of another namespace.  Returns (row, how)."""
    col = H.col
    def norm(k):
        # the naive division's kernels: one namespace for both B (the
        # driver's list keys them naive_B1::, naive_B8::), which ncu's
        # demangled names leave out
        k = fullname(k)
        return k.split("::", 1)[1] if k.startswith("naive") and "::" in k else k
    fx = norm(x["kernel"])

    def match(rows, same_grid, same_ns=True):
        best = None
        for r in rows:
            fr = norm(r[col["Kernel Name"]])
            if same_ns and fr != fx:
                continue
            if not same_ns and fname(fr) != fname(fx):
                continue
            if int(num(r[col["launch__block_size"]])) != x["block"]:
                continue
            g = int(num(r[col["launch__grid_size"]]))
            if same_grid and g != x["grid"]:
                continue
            if best is None or abs(math.log(g / x["grid"])) < abs(math.log(best[1] / x["grid"])):
                best = (r, g)
        return best
    b = match(src, True)
    if b:
        return list(b[0]), "sampled"
    b = match(samples, True)
    if b:
        return list(b[0]), "sampled"
    hows = [(samples, False, True, "other_grid_same_point")]
    if prog["name"] == "mul":
        for t2, n2, m2 in prog["points"]:
            if t2 != tag:
                if t2 not in _other_points:
                    _other_points[t2] = [remap(H, C, r) for f in sorted(glob.glob(os.path.join(
                        caps, "cumodp", "ncu", t2 + "-sample*.csv"))) for C in [Capture(f)]
                        if C.rows and "smsp__inst_executed.sum" in C.col for r in C.rows]
                hows.append((_other_points[t2], True, True, "same_grid_other_point"))
        for t2, n2, m2 in prog["points"]:
            if t2 != tag:
                hows.append((_other_points[t2], False, True, "other_grid_other_point"))
    hows.append((samples, True, False, "other_namespace"))
    hows.append((samples, False, False, "other_namespace"))
    for rows, sg, sn, how in hows:
        b = match(rows, sg, sn)
        if b:
            r, g = list(b[0]), b[1]
            f = x["grid"] / g
            for h, i in col.items():
                if SUMCOL.search(h) or h == "sass__inst_executed_per_opcode":
                    r[i] = scale_cell(r[i], f)
            for h in ("launch__grid_size",):
                r[col[h]] = str(x["grid"])
            r[col["Grid Size"]] = "(%d, 1, 1)" % x["grid"]
            r[col["Kernel Name"]] = x["kernel"] if "plan" not in x["kernel"] else r[col["Kernel Name"]]
            return r, how
    sys.exit("profile_check: no sample for %s <<<%d, %d>>> in %s" % (x["kernel"], x["grid"], x["block"], tag))


def cap_scatters(path, name):
    """gathers <= reads and scatters <= writes, as the format requires: the
    hand-written gathers and scatters (not measured) become min(hand,
    profiled reads or writes) where the profiled words fall short (a store
    or atomic that some threads skip).  The built file is kept as
    NAME.built.xml."""
    text = open(path).read()
    os.replace(path, path.replace(".xml", ".built.xml"))
    capped = []

    def fix(m):
        tag = m.group(0)
        a = dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', tag))
        for sub, tot in (("gathers", "reads"), ("scatters", "writes")):
            if sub in a and tot in a and a[sub] not in ("0",):
                tag = tag.replace('%s="%s"' % (sub, a[sub]),
                                  '%s="min(%s, %s)"' % (sub, a[sub], a[tot]), 1)
                capped.append("%s.%s.%s" % (name, a["id"], sub))
        return tag
    parts = re.split(r"(<!--.*?-->)", text, flags=re.S)
    for i in range(0, len(parts), 2):
        parts[i] = re.sub(r"<kernel\b.*?/?>", fix, parts[i], flags=re.S)
    with open(path, "w") as f:
        f.write("".join(parts))
    return capped


# --------------------------------------------------------------------------
# mmm


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return p


def predict(mmm, runs_csv, dags, machine):
    cmd = [mmm, "fit", "--data", runs_csv] + dags + ["--machine", machine, "--fit", "none",
                                                     "--format", "json"]
    p = run(cmd)
    if p.returncode:
        return None, p.stderr.strip()
    return json.loads(p.stdout)["rows"], None


def timing_rows(path, name):
    """Rows of one program from a timing file, as dicts of its non-blank
    parameters (and time_ms)."""
    out = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["program"] != name or (r.get("check") not in (None, "", "ok")):
                continue
            p = {k: v for k, v in r.items() if k not in ("program", "time_ms", "check") and v != ""}
            out.append({"params": p, "ms": float(r["time_ms"])})
    return out


def write_runs(rows, name, path):
    keys = sorted({k for r in rows for k in r["params"]})
    with open(path, "w") as f:
        f.write(",".join(["program"] + keys + ["time_ms"]) + "\n")
        for r in rows:
            f.write(",".join([name] + [r["params"].get(k, "") for k in keys] + [repr(r["ms"])]) + "\n")


def size_of(p):
    return tuple(sorted((k, v) for k, v in p.items() if k not in CONFIG_KEYS))


def cfg_of(p):
    return tuple(sorted((k, v) for k, v in p.items() if k in CONFIG_KEYS))


def cfg_text(c):
    return " ".join("%s=%s" % kv for kv in sorted(c, key=lambda kv: CONFIG_KEYS.index(kv[0])))


def size_text(s):
    def f(v):
        x = int(v)
        return "2^%d" % int(math.log2(x)) if x > 64 and x & (x - 1) == 0 else v
    return " ".join("%s=%s" % (k, f(v)) for k, v in s)


def pick(rows, idx, key):
    low = min(rows[i][key] for i in idx)
    tied = [i for i in idx if rows[i][key] <= low * (1 + 1e-12)]
    return min(tied, key=lambda i: [float(rows[i]["params"].get(k, 0)) for k in CONFIG_KEYS])


# --------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mmm", default=os.path.join(ROOT, "build/mmm"))
    ap.add_argument("--caps", default="/work/profile-captures")
    ap.add_argument("--machine", default=os.path.join(ROOT, "dags/machines/h200-calibrated.xml"))
    ap.add_argument("--work", default=os.path.join(ROOT, "bench/out/profile_check"))
    ap.add_argument("--only", default="", help="comma list of programs")
    ap.add_argument("--cap", action="store_true",
                    help="write every hand gathers/scatters as min(hand, profiled) (the build "
                         "clamps only where the hand's is more at a profiled point)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    progs = gpu_programs(a.caps) + cumodp_programs(a.caps)
    if a.only:
        progs = [p for p in progs if p["name"] in a.only.split(",")]
    out = io.StringIO()
    P = lambda *x: print(*x, file=out)
    notes = {}
    results = []
    for prog in progs:
        name = prog["name"]
        sys.stderr.write("%s ...\n" % name)
        d = os.path.join(a.work, name)
        os.makedirs(d, exist_ok=True)
        points = None
        if prog["kind"] == "gpu":
            pts = gpu_points(prog, a.work, notes)
        elif name in RUN6 and os.path.exists(os.path.join(a.caps, RUN6[name][0], "keep")):
            pts, points = run6_points(prog, a.caps, a.work)
            notes["run6"] = notes.get("run6", []) + [name]
        else:
            try:
                pts = cumodp_points(prog, a.caps, a.work, notes)
            except Blocked as e:
                sys.stderr.write("  blocked: %s\n" % e)
                res = {"prog": prog, "built": False, "build_err": "blocked: %s" % e}
                results.append(res)
                hand_only(prog, res, a)
                continue
        if points is None:
            points = write_points(prog, pts, a.work)
        # kernel ids -> function names, from the first point's launches in order
        text, params, kernels = parse_dag(prog["dag"])
        first = next(iter(pts.values()))
        C, rows = first[0]
        seq = []
        for r in rows:
            f = fname(C.get(r, "Kernel Name"))
            if not seq or seq[-1] != f:
                seq.append(f)
        idmap = {}
        if name == "div_opt":
            idmap = {"zeroQ": "zero#Q", "zeroR": "zero#R", "reduceM": "reduceM",
                     "statusUpdate": "statusUpdate", "divGPU": "divGPU",
                     "divGPU_last": "divGPU#last", "copyRem": "copyRem"}
        elif name == "mul":
            idmap = {"copyA": "copyA", "zeroM": "zeroC#M", "mul": "mul", "zeroC": "zeroC#C",
                     "add": "add", "addFinal": "addFinal"}
        else:
            ids = [k["id"] for k in kernels]
            if len(ids) != len(seq):
                sys.exit("profile_check: %s: %d kernels in the DAG, launches %s" % (name, len(ids), seq))
            idmap = dict(zip(ids, seq))
        skel = os.path.join(d, "skeleton.xml")
        skeleton(prog["dag"], idmap, skel, False)
        outxml = os.path.join(d, name + ".xml")
        b = run([a.mmm, "profile", "build", points, "--skeleton", skel, "--name", name, "-o", outxml])
        with open(os.path.join(d, "build.log"), "w") as f:
            f.write(b.stdout + b.stderr)
        if b.returncode == 0:
            # the build writes min(hand, measured) where a hand-written
            # gathers or scatters is more than the measured reads or writes
            # at a point (CLAMPED in the kernel's comment); --cap does it
            # here for every such pair, as the first run did
            notes["clamped"] = notes.get("clamped", []) + [
                "%s.%s.%s" % ((name,) + m) for m in re.findall(r"kernel '([^']+)': the skeleton's (\w+)",
                                                          b.stderr)]
            if a.cap:
                notes["capped"] = notes.get("capped", []) + cap_scatters(outxml, name)
        res = {"prog": prog, "built": b.returncode == 0, "build_err": b.stderr.strip(),
               "xml": outxml, "idmap": idmap, "pts": pts}
        results.append(res)
        res["small"] = sorted({size_of(config_params(c)[1]) for c in pts})
        if b.returncode:
            sys.stderr.write("  build failed: %s\n" % b.stderr.strip()[:2000])
            predict_all(prog, res, a, None)
            continue
        predict_all(prog, res, a, outxml)
        if res.get("chain_dropped"):
            notes["chain_dropped"] = notes.get("chain_dropped", []) + [name]
    report(P, results, notes, a)
    text = out.getvalue()
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


def hand_only(prog, res, a):
    res["small"] = sorted({(("m", str(m)), ("n", str(n))) for _, n, m in prog["points"]})
    predict_all(prog, res, a, None)


def predict_all(prog, res, a, outxml):
    """Predicted times of every timed run with the profiled DAG (when built)
    and the hand-written one."""
    name = prog["name"]
    d = os.path.join(a.work, name)
    trows = timing_rows(prog["timing"], name)
    runs = os.path.join(d, "runs.csv")
    write_runs(trows, name, runs)
    res["trows"] = trows
    for which, dag in (("profiled", outxml), ("hand", prog["dag"])):
        if dag is None:
            continue
        pr, err = predict(a.mmm, runs, [dag], a.machine)
        if err and which == "profiled" and "is more than its span" in err:
            # the hand chain (kept from the skeleton) exceeds the span
            # measured in SASS somewhere: the latency term takes the
            # measured span for this program
            text = open(dag).read()
            open(dag, "w").write(re.sub(r'\s*\bchain="[^"]*"', "", text))
            res["chain_dropped"] = err.split("\n")[0][:200]
            pr, err = predict(a.mmm, runs, [dag], a.machine)
        if err:
            res[which + "_err"] = err
            sys.stderr.write("  predict %s failed: %s\n" % (which, err[:500]))
            continue
        by_line = {r["line"]: r for r in pr}
        res[which] = [by_line[i + 2]["predicted_s"] * 1e3 for i in range(len(trows))]


# --------------------------------------------------------------------------
# the report

WORK_KEYS = ["k", "r", "B", "s"]


def threads_of(res, params):
    text, dparams, kernels = parse_dag(res["prog"]["dag"])
    env = env_of(dparams, {k: float(v) for k, v in params.items()})
    t = kernels[0].get("threads", "nan")
    return eval_attr(t, env)


def fixed256(res, idx):
    """A fixed 256 threads per block (the first kernel's threads), the least
    work per thread (k, r, B, s smallest); else the nearest threads."""
    rows = res["trows"]
    th = {i: threads_of(res, rows[i]["params"]) for i in idx}
    best = min(abs(math.log2(max(th[i], 1) / 256)) for i in idx)
    cand = [i for i in idx if abs(math.log2(max(th[i], 1) / 256)) == best]
    return min(cand, key=lambda i: [float(rows[i]["params"].get(k, 0)) for k in WORK_KEYS + CONFIG_KEYS])


def groups(res):
    g = {}
    for i, r in enumerate(res["trows"]):
        g.setdefault(size_of(r["params"]), []).append(i)
    return g


def sizekey(sz):
    v = 1.0
    for k, x in sz:
        try:
            v *= float(x)
        except ValueError:
            pass
    return v


def analyse(res):
    """Per size: best, picks and ratios; errors."""
    rows = res["trows"]
    G = groups(res)
    small = set(res["small"])
    sizes = sorted(G, key=sizekey)
    best = {sz: min(G[sz], key=lambda i: rows[i]["ms"]) for sz in sizes}
    ref_small = min([sz for sz in sizes if sz in small] or sizes, key=sizekey)
    out = []
    for sz in sizes:
        idx = G[sz]
        b = best[sz]
        e = {"size": sz, "profiled_size": sz in small, "best": b, "best_ms": rows[b]["ms"], "picks": {}}
        for which in ("profiled", "hand"):
            if which in res:
                pr = res[which]
                low = min(pr[i] for i in idx)
                tied = [i for i in idx if pr[i] <= low * (1 + 1e-12)]
                pk = min(tied, key=lambda i: [float(rows[i]["params"].get(k, 0)) for k in CONFIG_KEYS])
                e["picks"][which] = pk
        e["picks"]["fixed256"] = fixed256(res, idx)
        other = ref_small if sz != ref_small else min([x for x in sizes if x != sz] or [sz], key=sizekey)
        oc = cfg_of(rows[best[other]]["params"])
        same = [i for i in idx if cfg_of(rows[i]["params"]) == oc]
        if same:
            e["picks"]["other_size"] = same[0]
        e["other"] = other
        out.append(e)
    return out


def errors(res, which, larger_only):
    rows = res["trows"]
    small = set(res["small"])
    out = []
    if which not in res:
        return out
    for i, r in enumerate(rows):
        if r["ms"] < 0.3:
            continue
        if larger_only and size_of(r["params"]) in small:
            continue
        out.append(abs(res[which][i] / r["ms"] - 1))
    return out


def counts_table(P, res):
    """Per kernel: the hand-written and profiled counts at the reference
    point (the fixed-256 configuration at the profiled size), and the largest
    relative difference over every profiled point."""
    prog = res["prog"]
    _, hp, hk = parse_dag(prog["dag"])
    _, pp, pk = parse_dag(res["xml"])
    pk = {k["id"]: k for k in pk}
    pts = [config_params(c)[1] for c in res["pts"]]
    # the reference point: 256 threads, least work per thread
    def th(p):
        env = env_of(hp, {k: float(v) for k, v in p.items()})
        return eval_attr(hk[0].get("threads", "nan"), env)
    ths = [th(p) for p in pts]
    bestd = min(abs(math.log2(max(t, 1) / 256)) for t in ths)
    cand = [p for p, t in zip(pts, ths) if abs(math.log2(max(t, 1) / 256)) == bestd]
    ref = min(cand, key=lambda p: [float(p.get(k, 0)) for k in WORK_KEYS + CONFIG_KEYS])
    refcfg = [c for c in res["pts"] if config_params(c)[1] == ref][0]
    rows = []
    for k in hk:
        kid = k["id"]
        fid = res["idmap"][kid]
        meas = None
        for C, crow in res["pts"][refcfg]:
            sel = [r for r in crow if fname(C.get(r, "Kernel Name")) == fid.split("#")[0]]
            if res["prog"]["name"] == "div_opt" and fid.startswith("divGPU"):
                sel = sel[-1:] if fid.endswith("#last") else sel[:-1]
            if res["prog"]["name"] == "div_opt" and fid.startswith("zero"):
                sel = sel[:1] if fid.endswith("#Q") else sel[1:2]
            if res["prog"]["name"] == "mul" and fid.startswith("zeroC"):
                sel = sel[:1] if fid.endswith("#M") else sel[1:2]
            if res["prog"]["name"] == "mul" and fid == "add":
                sel = sel[:1]
            m = measured(C, sel) if sel else None
            if m:
                meas = m
                break
        q = pk.get(fid)
        if q is None:
            continue
        for attr in SHOWN:
            if attr not in q and attr not in k:
                continue
            def val(dag_params, kern, p):
                if attr not in kern:
                    return None
                env = env_of(dag_params, {x: float(v) for x, v in p.items()})
                env.setdefault("i", 1)
                if "index" in kern:
                    env[kern["index"]] = 1
                return eval_attr(kern.get(attr, "0"), env)
            hv, pv = val(hp, k, ref), val(pp, q, ref)
            worst = 0.0
            for p in pts:
                h2, p2 = val(hp, k, p) or 0.0, val(pp, q, p) or 0.0
                if h2 == p2:
                    continue
                den = max(abs(h2), abs(p2), 1e-300)
                worst = max(worst, abs(h2 - p2) / den)
            mv = meas.get(attr) if meas else None
            rows.append((kid, res["idmap"][kid], attr, hv, pv, worst, mv))
    P("**%s** (reference point %s: hand = the hand-written file's expression, measured = the "
      "capture's launches there as docs/profile.md defines each attribute, profiled DAG = the built "
      "file's expression; the last column: the largest |hand - profiled| / max(hand, profiled) over "
      "the %d profiled points, ** above 10 %%)" % (
        prog["name"], " ".join("%s=%s" % kv for kv in sorted(ref.items())), len(pts)))
    P()
    P("| kernel | attribute | hand | measured | profiled DAG | profiled/hand | worst over points |")
    P("|---|---|---:|---:|---:|---:|---:|")
    for kid, fid, attr, hv, pv, worst, mv in rows:
        hs = "(none)" if hv is None else g(hv)
        hv = hv or 0.0
        pv = pv or 0.0
        ratio = pv / hv if hv else (float("inf") if pv else 1.0)
        flag = " **" if worst > 0.10 else ""
        P("| %s | %s | %s | %s | %s | %s | %s%s |" % (kid, attr, hs, "-" if mv is None else g(mv), g(pv),
                                              "-" if not hv and not pv else ("%.3g" % ratio),
                                              "%.0f %%" % (100 * worst), flag))
    P()


UNIT = {"": 1, "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12}


def measured(C, rows):
    """The attributes of the launches rows of capture C, as docs/profile.md
    defines them (mean over the launches), or None where a metric is
    missing."""
    def v(r, name):
        if name not in C.col:
            return None
        cell = r[C.col[name]]
        u = C.units[C.col[name]].split("/")[0]
        try:
            return num(cell) * UNIT.get(u, 1)
        except ValueError:
            return None

    def bar(r):
        cell = r[C.col["sass__inst_executed_per_opcode"]] if "sass__inst_executed_per_opcode" in C.col else ""
        m = re.search(r"\bBAR: ([0-9,.]+)", cell)
        return float(m.group(1).replace(",", "")) if m else 0.0
    out = []
    for r in rows:
        b, t = v(r, "launch__grid_size"), v(r, "launch__block_size")
        w = v(r, "smsp__warps_launched.sum")
        if None in (b, t, w) or v(r, "smsp__inst_executed.sum") is None:
            continue
        st = sum(v(r, x) or 0 for x in ("smsp__sass_data_bytes_mem_global_op_st.sum",
                                        "smsp__sass_data_bytes_mem_global_op_atom.sum",
                                        "smsp__sass_data_bytes_mem_global_op_red.sum"))
        out.append({
            "work": v(r, "smsp__thread_inst_executed.sum") / b,
            "span": v(r, "smsp__inst_executed.sum") / w,
            "reads": (v(r, "smsp__sass_data_bytes_mem_global_op_ld.sum") or 0) / (4 * b * t),
            "writes": st / (4 * b * t),
            "registers": v(r, "launch__registers_per_thread"),
            "shared_bytes": (v(r, "launch__shared_mem_per_block_static") or 0)
            + (v(r, "launch__shared_mem_per_block_dynamic") or 0),
            "barriers": bar(r) / w,
            "wavefronts": (v(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum") or 0) / w,
            "global_wavefronts": (v(r, "l1tex__t_output_wavefronts_pipe_lsu_mem_global.sum") or 0) / w,
            "atomics": ((v(r, "smsp__sass_inst_executed_op_global_atom.sum") or 0)
                        + (v(r, "smsp__sass_inst_executed_op_global_red.sum") or 0)) / b,
        })
    if not out:
        return None
    return {k: sum(o[k] for o in out) / len(out) for k in out[0]}


def g(x):
    if x != x:
        return "n/a"
    if x == int(x) and abs(x) < 1e12:
        return "%d" % x
    return "%.4g" % x


def report(P, results, notes, a):
    P("## Checked on real code: profiled DAGs against hand-written ones (H200)")
    P()
    P("Generated by `python3 bench/profile_check.py` (mmm `%s`, machine file `%s`, captures `%s`)." % (
        a.mmm, a.machine, a.caps))
    P()
    # per program summary
    tot = {}
    P("### Picks and errors per program")
    P()
    P("Sizes: `P` profiled (the captures), `L` never profiled (larger than every profiled size, "
      "except CUMODP's multiplication, profiled at n = m = 2^13 and 2^14, whose other sizes are "
      "smaller and larger).  Pick columns: "
      "the measured time of the configuration each method picks over the measured best, at each size. "
      "Errors: |predicted/measured - 1| over runs of 0.3 ms or more at the sizes never profiled.")
    P()
    P("| program | size | measured best (ms) | profiled DAG | hand DAG | 256 threads | best at other size |")
    P("|---|---|---|---|---|---|---|")
    for res in results:
        name = res["prog"]["name"]
        if "trows" not in res:
            P("| %s | (no timing) | | | | | |" % name)
            continue
        rows = res["trows"]
        for e in analyse(res):
            cells = []
            for which in ("profiled", "hand", "fixed256", "other_size"):
                pk = e["picks"].get(which)
                if pk is None:
                    cells.append("-")
                    continue
                ratio = rows[pk]["ms"] / e["best_ms"]
                for grp in (res["prog"]["kind"], "all"):
                    key = (grp, which, "P" if e["profiled_size"] else "L")
                    t = tot.setdefault(key, [0, 0])
                    t[0] += ratio <= 1.10
                    t[1] += 1
                cells.append("%s %.2f%s" % (cfg_text(cfg_of(rows[pk]["params"])), ratio,
                                            "" if ratio <= 1.10 else " ✗"))
            P("| %s | %s %s | %s %.4g | %s |" % (name, "P" if e["profiled_size"] else "L",
                                               size_text(e["size"]),
                                               cfg_text(cfg_of(rows[e["best"]]["params"])),
                                               e["best_ms"], " | ".join(cells)))
    P()
    P("### Totals")
    P()
    P("Picks within 10 % of the measured best (n of sizes); errors |predicted/measured - 1| on runs of "
      "0.3 ms or more (median, largest, runs).  bench/gpu: the 23 kernels of dags/gpu; CUMODP: "
      "div_opt, div_naive, mul.")
    P()
    P("| set | what | profiled DAG | hand DAG | 256 threads | best at other size |")
    P("|---|---|---|---|---|---|")
    for grp, glabel in (("gpu", "bench/gpu"), ("cumodp", "CUMODP"), ("all", "all")):
        for sz, label in (("L", "picks, sizes never profiled"), ("P", "picks, profiled sizes")):
            P("| %s | %s | %s |" % (glabel, label, " | ".join(
                "%d of %d" % tuple(tot.get((grp, w, sz), [0, 0]))
                for w in ("profiled", "hand", "fixed256", "other_size"))))
        for lo, label in ((True, "error, sizes never profiled"), (False, "error, all sizes")):
            cells = []
            for which in ("profiled", "hand"):
                e = [x for res in results for x in errors(res, which, lo)
                     if grp == "all" or res["prog"]["kind"] == grp]
                cells.append("%.1f %% / %.0f %% (%d)" % (
                    100 * statistics.median(e), 100 * max(e), len(e)) if e else "-")
            P("| %s | %s | %s | | |" % (glabel, label, " | ".join(cells)))
    P()
    P("Per program, errors on runs >= 0.3 ms at the sizes never profiled (median / largest):")
    P()
    P("| program | runs | profiled DAG | hand DAG | note |")
    P("|---|---|---|---|---|")
    for res in results:
        name = res["prog"]["name"]
        cells = []
        n = 0
        for which in ("profiled", "hand"):
            e = errors(res, which, True)
            n = max(n, len(e))
            cells.append("%.0f %% / %.0f %%" % (100 * statistics.median(e), 100 * max(e)) if e else "-")
        note = ""
        if not res.get("built"):
            note = "profiled DAG not built: " + res.get("build_err", "")[:300].replace("|", "/").replace("\n", " ")
        elif "profiled_err" in res:
            note = "profiled DAG: " + res["profiled_err"][:300].replace("|", "/").replace("\n", " ")
        P("| %s | %d | %s | %s | %s |" % (name, n, cells[0], cells[1], note))
    P()
    P("### Counts per kernel")
    P()
    for res in results:
        if res.get("built"):
            counts_table(P, res)
    P("### Notes")
    P()
    for k, v in sorted(notes.items()):
        if k == "capped":
            P("- gathers/scatters written as min(hand, profiled reads/writes) in %d kernels: %s" % (
                len(v), ", ".join(v)))
        elif k == "clamped":
            P("- gathers/scatters the build wrote min(hand, measured) (more than the measured reads or "
              "writes at a profiled point: CLAMPED in the kernel's comment) in %d kernels: %s" % (
                len(v), ", ".join(v) or "none"))
        elif k == "chain":
            P("- %d configurations of a chain (stencil: 10 sweeps) captured with the per-launch-config "
              "filter: the first launch stands for the 10 of its chain" % v)
        elif k == "chain_dropped":
            P("- the hand file's `chain` (kept in the skeleton: no counter measures it) exceeds the "
              "span measured in SASS at some configuration, so the profiled file takes the "
              "measured span instead, in %d programs: %s" % (len(v), ", ".join(v)))
        elif k == "cumodp_list_from_plan":
            P("- %d CUMODP launches listed from `prof_cumodp plan` (ncu's launch list did not finish)" % v)
        elif k.startswith("cumodp_costs_"):
            P("- CUMODP launches whose costs are %s: %d" % ({
                "sampled": "their configuration's own sample",
                "other_grid_same_point": "borrowed from the same kernel at another grid of the same point "
                                         "(totals scaled by the grids)",
                "same_grid_other_point": "borrowed from the same kernel and grid at another size",
                "other_grid_other_point": "borrowed from the same kernel at another grid and size (scaled)",
                "other_namespace": "borrowed from the same function of another configuration"}.get(
                    k[13:], k[13:]), v))
        else:
            P("- %s: %s" % (k, v))
    P()
    P("Approximate attributes (`mmm profile build` found no exact expression):")
    P()
    for res in results:
        d = os.path.join(a.work, res["prog"]["name"], "build.log")
        if os.path.exists(d):
            for l in open(d):
                if "approximate" in l and "wrote" not in l:
                    P("- " + l.strip().replace("mmm profile: ", ""))


if __name__ == "__main__":
    main()
