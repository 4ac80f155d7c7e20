#!/usr/bin/env python3
"""roofline_check.py MMM ROOT: `mmm roofline --format json` (and csv) against
a calculation of its own, from the machine file's parameters and the
program's kernel attributes, read here with ElementTree:

  compute roof  issue_per_cycle * warp_size * p * clock_hz
  DRAM roof     bandwidth_bytes_per_cycle * clock_hz
  L2 roof       l2_bytes_per_cycle * clock_hz (a parameter of the program)
  work          blocks * work (the work attribute is a block's, W(B))
  DRAM bytes    blocks * threads * (reads + writes) * word_bytes (coalesced
                words, no L2 modelled for the kernel)
  intensity     work / DRAM bytes
  roof          min(compute, intensity * DRAM, intensity * L2), its bound
  fraction      ops_per_s / roof, and ops_per_s * exec_seconds = work

The time model's execution time itself is not recomputed here (docs/time.md
and test_time check it); only what the roofline adds to it.  Exits 1 with
the differences, 0 when every number agrees (relative 1e-12)."""
import csv
import io
import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def params(root):
    return {p.get("name"): p.get("value") for p in root.iter("param")}


def num(text):
    if not re.fullmatch(r"[0-9.eE+*/() -]+", text):
        raise ValueError("not a constant expression: " + text)
    return float(eval(text, {"__builtins__": {}}))  # digits and operators only


def main():
    mmm, root = sys.argv[1], sys.argv[2]
    machine_file = root + "/dags/machines/h100-fitted.xml"
    program_file = root + "/tests/data/roofline/stream.xml"
    m = params(ET.parse(machine_file).getroot())
    prog = ET.parse(program_file).getroot()
    pp = params(prog)
    clock = float(m["clock_hz"])
    peak = float(m["issue_per_cycle"]) * float(m["warp_size"]) * float(m["p"]) * clock
    dram = float(m["bandwidth_bytes_per_cycle"]) * clock
    l2 = float(pp["l2_bytes_per_cycle"]) * clock
    word = float(m["word_bytes"])
    errors = []

    def close(what, got, want):
        if got is None or not math.isclose(got, want, rel_tol=1e-12, abs_tol=0):
            errors.append("%s: mmm says %r, expected %r" % (what, got, want))

    out = subprocess.run([mmm, "roofline", program_file, "--machine", machine_file,
                          "--format", "json"], check=True, capture_output=True,
                         text=True).stdout
    j = json.loads(out)
    r = j["roofs"]
    close("compute_ops_per_s", r["compute_ops_per_s"], peak)
    close("dram_bytes_per_s", r["dram_bytes_per_s"], dram)
    close("l2_bytes_per_s", r["l2_bytes_per_s"], l2)
    close("ridge", r["ridge"], peak / dram)
    close("l2_ridge", r["l2_ridge"], peak / l2)
    kernels = prog.findall("kernel")
    if [k["id"] for k in j["kernels"]] != [k.get("id") for k in kernels]:
        errors.append("kernels %r, expected %r" % ([k["id"] for k in j["kernels"]],
                                                    [k.get("id") for k in kernels]))
    for k, x in zip(j["kernels"], kernels):
        blocks, threads = num(x.get("blocks")), num(x.get("threads"))
        work = blocks * num(x.get("work"))
        nbytes = blocks * threads * (num(x.get("reads")) + num(x.get("writes"))) * word
        inten = work / nbytes
        roofs = [(peak, "compute"), (inten * dram, "dram"), (inten * l2, "l2")]
        roof, bound = min(roofs, key=lambda t: t[0])
        i = k["id"]
        close(i + " work", k["work"], work)
        close(i + " dram_bytes", k["dram_bytes"], nbytes)
        close(i + " l2_bytes", k["l2_bytes"], nbytes)
        close(i + " intensity", k["intensity"], inten)
        close(i + " l2_intensity", k["l2_intensity"], inten)
        close(i + " ops_per_s * exec_seconds", k["ops_per_s"] * k["exec_seconds"], work)
        close(i + " roof_ops_per_s", k["roof_ops_per_s"], roof)
        close(i + " fraction_of_roof", k["fraction_of_roof"], k["ops_per_s"] / roof)
        if k["bound"] != bound:
            errors.append("%s bound: mmm says %s, expected %s" % (i, k["bound"], bound))
        if not 0 < k["fraction_of_roof"] <= 1 + 1e-12:
            errors.append("%s runs above its roof: %r" % (i, k["fraction_of_roof"]))
    if j["skipped"] != 0:
        errors.append("skipped %r, expected 0" % j["skipped"])

    # The CSV gives the same numbers, one row per kernel.
    out = subprocess.run([mmm, "roofline", program_file, "--machine", machine_file,
                          "--format", "csv"], check=True, capture_output=True,
                         text=True).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    for row, k in zip(rows, j["kernels"]):
        for key in ("work", "dram_bytes", "intensity", "ops_per_s", "roof_ops_per_s",
                    "fraction_of_roof"):
            close("csv %s %s" % (row["id"], key), float(row[key]), k[key])
        if (row["bound"], row["dominant"]) != (k["bound"], k["dominant"]):
            errors.append("csv %s: bound, dominant differ from JSON" % row["id"])
    if len(rows) != len(j["kernels"]):
        errors.append("csv: %d rows, JSON %d kernels" % (len(rows), len(j["kernels"])))

    # A machine without the roofline's constants: one FILE:LINE-style line, exit 1.
    bad = subprocess.run([mmm, "roofline", root + "/dags/diamond.xml"],
                         capture_output=True, text=True)
    if bad.returncode != 1 or "error:" not in bad.stderr or bad.stdout:
        errors.append("diamond.xml without a machine: exit %d, stderr %r, stdout %r"
                      % (bad.returncode, bad.stderr, bad.stdout))
    for e in errors:
        print("roofline_check: " + e, file=sys.stderr)
    if not errors:
        print("roofline_check: %d kernels agree" % len(j["kernels"]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
