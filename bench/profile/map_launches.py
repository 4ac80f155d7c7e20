#!/usr/bin/env python3
"""map_launches.py: tie every launch of an ncu capture of a profiling driver
(bench/profile/prof_*.cu, RUNS=0) to the configuration it belongs to.

    python3 bench/profile/map_launches.py CAPTURE.raw.csv CAPTURE.out [--filtered] > CAPTURE.map.csv

CAPTURE.raw.csv may also be what ncu --csv --log-file wrote (lines before
the "ID" header are skipped).  CAPTURE.out is the driver's stdout: the program's CSV rows in the order the
configurations ran (time 0).  Each configuration runs its launch sequence
once, then the program's own check launches; the launches per configuration
are fixed per benchmark (LAUNCHES below).  --filtered: the capture was taken
with --filter-mode per-launch-config --launch-count 1 (one launch per
configuration: the first of its chain).  The script checks that the template
arguments of each kernel name agree with the row's tpb/k or tile/r and exits 1
where they do not.

Output columns: ID, kernel, grid, block, bench, dag (dags/gpu/<bench>.xml),
row (0-based index of the configuration among the driver's rows), config
(the row's non-empty columns but time_ms, as name=value;...), pos (1-based
position of this launch in the configuration's launches), role ('timed': part
of the launch sequence that the timing programs time; 'check': the program's
own check launch, not timed), timed_repeat (how many identical launches of
this kernel the timed sequence holds in a chain: 10 for pagerank and stencil).
"""
import csv
import re
import sys

# bench -> list of (kernel base name, role, timed_repeat) per configuration, in launch order.
LAUNCHES = {
    "reduce": [("reduce_partial", "timed", 1), ("reduce_final", "timed", 1)],
    "matmul": [("mm_tiled", "timed", 1)],
    "pagerank": [("pr_sweep", "timed", 10)] * 10 + [("pr_sweep", "check", 1)],
    "transpose": [("transpose", "timed", 1)],
    "stencil": [("stencil", "timed", 10)] * 10 + [("stencil", "check", 1)],
    "gemv": [("gemv", "timed", 1)],
    "scan": [("scan_blocks", "timed", 1), ("scan_sums", "timed", 1), ("scan_add", "timed", 1)],
    "spmv": [("spmv", "timed", 1)],
    "relax": [("relax", "timed", 1)],
    "shfl_reduce": [("shfl_reduce", "timed", 1), ("shfl_reduce", "check", 1)],
    "regmm": [("regmm", "timed", 1)],
    "seq_reduce": [("seq_partial", "timed", 1), ("reduce_final", "timed", 1)],
    "mm2d": [("mm2d", "timed", 1)],
    "bfs_step": [("bfs_step", "timed", 1)],
    "vec_spmv": [("vec_spmv", "timed", 1)],
    "pr_push": [("pr_push", "timed", 1)],
    "histogram": [("histogram", "timed", 1)],
    "cc_hook": [("cc_hook", "timed", 1)],
    "tiled_conv": [("tiled_conv", "timed", 1)],
    "col_sum": [("col_sum", "timed", 1)],
    "block_hist": [("block_hist", "timed", 1)],
    "batched_mm": [("batched_mm", "timed", 1)],
    "tri_count": [("tri_count", "timed", 1)],
}


def base_name(k):
    k = re.sub(r"^void ", "", k)
    return re.split(r"[<(]", k, maxsplit=1)[0]


def template_args(k):
    m = re.match(r"^(?:void )?[A-Za-z_0-9]+<([^>]*)>", k)
    return [a.strip() for a in m.group(1).split(",")] if m else []


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    filtered = "--filtered" in sys.argv
    lines = open(args[0], newline="").read().split("\n")
    # ncu --csv --log-file puts its own messages (==PROF== ...) before the header
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    raw = [r for r in csv.reader(lines[start:]) if r]
    head = raw[0]
    ki, gi, bi, ii = (head.index(c) for c in ("Kernel Name", "Grid Size", "Block Size", "ID"))
    launches = raw[2:]
    # the driver's stdout, possibly with its stderr mixed in: the CSV lines only
    out = [l for l in open(args[1]).read().split("\n")
           if l.startswith("program,") or l.split(",", 1)[0] in LAUNCHES]
    rows = list(csv.DictReader(out))
    plan = []  # (row index, bench, pos, kernel, role, repeat)
    for r, row in enumerate(rows):
        seq = LAUNCHES[row["program"]]
        if filtered:
            seq = seq[:1]
        for p, (k, role, rep) in enumerate(seq):
            plan.append((r, row["program"], p + 1, k, role, rep))
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["ID", "kernel", "grid", "block", "bench", "dag", "row", "config", "pos", "role", "timed_repeat"])
    bad = 0
    if len(plan) < len(launches):
        print(f"map_launches: {len(launches)} launches, {len(plan)} planned", file=sys.stderr)
        bad += 1
    for L, (r, bench, pos, k, role, rep) in zip(launches, plan):
        row = rows[r]
        if base_name(L[ki]) != k:
            print(f"map_launches: ID {L[ii]}: {L[ki]} where {k} was expected", file=sys.stderr)
            bad += 1
        ta = template_args(L[ki])
        want = [row.get("tpb") or row.get("tile"), row.get("k") or row.get("r")]
        if ta and len(ta) == 2 and want[0] and want[1] and ta != want:
            print(f"map_launches: ID {L[ii]}: {L[ki]} against {want}", file=sys.stderr)
            bad += 1
        conf = ";".join(f"{c}={v}" for c, v in row.items() if v not in ("", None) and c != "time_ms")
        w.writerow([L[ii], L[ki], L[gi], L[bi], bench, f"dags/gpu/{bench}.xml", r, conf, pos, role, rep])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
