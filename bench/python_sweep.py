#!/usr/bin/env python3
"""A sweep of 10^5 points into a pandas DataFrame (mmm.Program.sweep)
against `mmm optimize --format json` for the same sweep (its output to
a temporary file).  Prints both times (best of --repeat runs) and their ratio
(the target is at most 2).  Run from the source tree after a build:
    PYTHONPATH=python python3 bench/python_sweep.py [--points N] [--repeat K]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import mmm  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--points", type=int, default=100000)
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--mmm", default=os.path.join(ROOT, "build", "mmm"))
ap.add_argument("--program", default=os.path.join(ROOT, "dags", "poly_mul.xml"))
ap.add_argument("--param", default="n")
a = ap.parse_args()

args = [a.mmm, "optimize", a.program, "--param", a.param, "--from", "1",
        "--to", str(a.points), "--format", "json"]
cli = []
for _ in range(a.repeat):
    t0 = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        subprocess.run(args, stdout=out, check=True)
    cli.append(time.perf_counter() - t0)

try:
    import pandas  # noqa: F401  (imported once, before the clock)
except ImportError:
    pass
py = []
prog = mmm.load(a.program)
for _ in range(a.repeat):
    t0 = time.perf_counter()
    table = prog.sweep(**{a.param: range(1, a.points + 1)})
    py.append(time.perf_counter() - t0)
assert len(table) == a.points

print("points            %d (%s, --param %s)" % (a.points, os.path.relpath(a.program, ROOT), a.param))
print("library           %s" % mmm.library_path)
print("into              %s" % type(table).__name__)
print("mmm optimize      %.3f s" % min(cli))
print("Program.sweep     %.3f s" % min(py))
print("ratio             %.2f (target <= 2)" % (min(py) / min(cli)))
