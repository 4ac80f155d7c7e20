#!/usr/bin/env python3
"""calibrate_reproduce.py MMM MACHINE.xml MACHINE.json: the time model,
given a machine file that `mmm calibrate` wrote, predicts calibrate's own
measurements (the .json beside it) of copies, sets and the L2.

Copies: a CUDA graph of dependent cudaMemcpyAsync/cudaMemsetAsync calls of
one size replayed (as calibrate times them), seconds per call, against
`mmm analyze --model time --launch graph` of a <copy repeat="15">.
The L2: an array read once, then again over and over by one launch (P
passes), bytes per second of a pass, against a kernel that reads the array
once and one that reads it P times, the array named by their accesses.

Exit 0 when every prediction is within its bound (printed), 1 otherwise.
The bounds say what the model sees and what it does not:
  - a copy beyond the L2: within 2 % (its bytes at the measured rate);
  - a 4 KiB call: within 25 % (each kind has its own fixed time, copy_s,
    set_s, copy_host_s, copy_d2h_s; files written before hold the mean of
    two kinds in copy_s and copy_host_s);
  - a device copy or set whose bytes (source and destination) fit the L2
    the device reports (16 MiB): the model charges DRAM's rate for it, so
    its prediction is at least the measured time (an upper bound), and no
    more than twice it;
  - an array re-read: within 10 % where it fits half the L2's kept
    capacity C or is twice it and more (a pass then finds none of it, and
    DRAM reads alone at read_bytes_per_cycle); within 40 % between (a pass
    over C < S < 2C bytes finds 2C - S of them in the model, a straight
    line where the L2's hashing and replacement bend).
"""
import json
import os
import subprocess
import sys
import tempfile

mmm, machine, measured = sys.argv[1:4]
cal = json.load(open(measured))
m = cal["measured"]
l2_device = cal["device"]["l2_bytes"]
bad = 0
work = tempfile.mkdtemp(prefix="mmm-calrep-")
path = os.path.join(work, "p.xml")


def predict(xml):
    with open(path, "w") as f:
        f.write(xml)
    r = subprocess.run([mmm, "analyze", path, "--machine", machine, "--model", "time",
                        "--launch", "graph", "--format", "json"],
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("calibrate_reproduce: mmm failed: " + r.stderr)
    return {k["id"]: k for k in json.loads(r.stdout)["time"]["kernels"]}


def check(what, model, meas, lo, hi):
    global bad
    ratio = model / meas
    ok = lo <= ratio <= hi
    bad += not ok
    print("%-34s measured %12.4g  model %12.4g  ratio %.3f  [%.2f, %.2f] %s"
          % (what, meas, model, ratio, lo, hi, "ok" if ok else "FAIL"))


REP = 15
kept = m["l2"]["capacity_bytes"]
for kind, v in sorted(m["transfers"].items()):
    sizes = sorted(int(b) for b in v["us_by_bytes"])
    for b in sizes:
        us = v["us_by_bytes"][str(b)]
        src = "" if kind == "set" else ' src="A"'
        k = predict('<program name="c"><array name="A" bytes="%d"/>'
                    '<array name="B" bytes="%d"/><copy id="x" kind="%s" bytes="%d"'
                    ' repeat="%d"%s dst="B"/></program>' % (b, b, kind, b, REP, src))["x"]
        model_us = k["seconds"] / REP * 1e6
        if b == sizes[0]:
            lo, hi = 0.75, 1.25
        elif kind in ("d2d", "set") and 2 * b <= l2_device:
            lo, hi = 1.0, 2.0
        else:
            lo, hi = 0.98, 1.02
        check("%s %d B (us a call)" % (kind, b), model_us, us, lo, hi)

P = 16
blocks, threads = 2 * 132, 1024
for s, bps in sorted(m["l2"]["bytes_per_s_by_array"].items(), key=lambda x: int(x[0])):
    s = int(s)
    once = s // (4 * blocks * threads)
    k = predict('<program name="l2"><array name="A" bytes="%d"/>'
                '<kernel id="warm" blocks="%d" threads="%d" work="%d" span="%d">'
                '<access words="%d" array="A"/></kernel>'
                '<kernel id="timed" blocks="%d" threads="%d" work="%d" span="%d">'
                '<access words="%d" array="A"/></kernel>'
                '<edge from="warm" to="timed"/></program>'
                % (s, blocks, threads, threads * once, once, once,
                   blocks, threads, threads * P * once, P * once, P * once))["timed"]
    model_bps = s / (k["exec_seconds"] / P)
    if 2 * s <= kept or s >= 2 * kept:
        lo, hi = 0.9, 1.1
    else:
        lo, hi = 0.6, 1.4
    check("L2 re-read of %d B (bytes/s)" % s, model_bps, bps, lo, hi)

os.remove(path)
os.rmdir(work)
print("calibrate_reproduce: %s" % ("every prediction within its bound" if not bad
                                   else "%d outside their bounds" % bad))
sys.exit(1 if bad else 0)
