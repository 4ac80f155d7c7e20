#!/usr/bin/env python3
"""Generate an explicit kernel DAG in the mmm file format (docs/format.md).

Kernels k0 .. k(N-1), each with its own small block count and costs; E
distinct edges u -> v with u < v (so the graph is acyclic), v's
predecessors drawn at random among the `window` kernels before it.  With
a window much smaller than N the DAG is long and narrow-ish (like a real
program: dependencies are mostly local); with window = N it is a uniform
random DAG.  The output is deterministic for a given seed.

Three shapes are named (--shape sets the window, the block range and the
edge order; explicit options still override it):
  local    window 64, 1 to 64 blocks per kernel, random in-degrees
  wide     window 2000, 1 to 1000 blocks per kernel, random in-degrees
  uniform  window = all kernels, 1 to 64 blocks, even in-degrees, edges
           in random order
(random in-degrees: each edge picks its target at random, so in-degrees
spread and some kernels in the middle have no predecessor; even: every
kernel has E/N of them, as far as its window allows.)

    python3 bench/gen_dag.py --kernels 1000000 --edges 3000000 -o out.xml
    python3 bench/gen_dag.py --shape uniform --kernels 100000 \
        --edges 300000 -o uniform.xml
"""
import argparse
import json
import random
import sys

U = 400  # the generated program's U (cycles per word)


def random_in_degrees(n, e, window, rng):
    """In-degree of every kernel when each edge picks its target at random
    (kernel v can take at most min(v, window)): in-degrees spread like a
    Poisson law, so some kernels start chains (sources) in the middle of
    the DAG, as random pairs (u, v) with v - window <= u < v would give."""
    caps = [min(v, window) for v in range(n)]
    if e > sum(caps):
        sys.exit("gen_dag.py: %d edges do not fit in %d kernels with window %d"
                 % (e, n, window))
    deg = [0] * n
    left = e
    while left > 0:
        for _ in range(left):
            v = rng.randrange(1, n)
            if deg[v] < caps[v]:
                deg[v] += 1
                left -= 1
    return deg


def in_degrees(n, e, window):
    """In-degree of every kernel: as even as possible, kernel v has at most
    min(v, window) predecessors; the total is exactly e."""
    caps = [min(v, window) for v in range(n)]
    if e > sum(caps):
        sys.exit("gen_dag.py: %d edges do not fit in %d kernels with window %d"
                 % (e, n, window))
    base = e // n if n else 0
    deg = [min(c, base) for c in caps]
    left = e - sum(deg)
    while left > 0:  # hand out the rest one by one from the last kernel
        for v in range(n - 1, -1, -1):
            if deg[v] < caps[v]:
                deg[v] += 1
                left -= 1
                if left == 0:
                    break
    return deg


SHAPES = {  # window (None: all kernels), largest block count, shuffle,
    # in-degrees (random targets, or as even as possible)
    "local": (64, 64, False, "random"),
    "wide": (2000, 1000, False, "random"),
    "uniform": (None, 64, True, "even"),
}


def write_kernels(out, n, rng, exp, blocks_max):
    """Write the kernels; return their spans (for the span DP) and add N, W,
    O, C to exp."""
    spans = [0] * n
    buf = []
    for v in range(n):
        blocks = rng.randint(1, blocks_max)
        span = rng.randint(1, 32)
        threads = 32 * rng.randint(1, 8)
        reads, writes = rng.randint(1, 4), rng.randint(0, 2)
        buf.append('  <kernel id="k%d" blocks="%d" work="%d" span="%d" '
                   'reads="%d" writes="%d"/>\n'
                   % (v, blocks, span * threads, span, reads, writes))
        spans[v] = span
        exp["N"] += blocks
        exp["W"] += blocks * span * threads
        exp["O"] += blocks * (reads + writes) * U
        exp["C"] = max(exp["C"], span + (reads + writes) * U)
        if len(buf) >= 65536:
            out.write("".join(buf))
            buf.clear()
    out.write("".join(buf))
    return spans


def write_edges(out, deg, window, rng, spans, exp, shuffle):
    """Write the edges (in a random order when shuffle); compute S (heaviest span path) and L (most kernels
    on a path, every kernel having at least one block) by dynamic
    programming in index order, which is a topological order."""
    path_s = list(spans)
    path_l = [1] * len(spans)
    buf = []
    for v, d in enumerate(deg):
        if d == 0:
            continue
        lo = max(0, v - window)
        preds = rng.sample(range(lo, v), d)
        for u in preds:
            buf.append('  <edge from="k%d" to="k%d"/>\n' % (u, v))
        path_s[v] += max(path_s[u] for u in preds)
        path_l[v] += max(path_l[u] for u in preds)
        if len(buf) >= 65536 and not shuffle:
            out.write("".join(buf))
            buf.clear()
    if shuffle:
        rng.shuffle(buf)
    out.write("".join(buf))
    exp["S"] = max(path_s)
    exp["L"] = max(path_l)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernels", type=int, default=1000000)
    ap.add_argument("--edges", type=int, default=3000000)
    ap.add_argument("--shape", choices=sorted(SHAPES),
                    help="a named shape (see above)")
    ap.add_argument("--window", type=int,
                    help="predecessors are among the WINDOW kernels before"
                    " (default 1000, or the shape's)")
    ap.add_argument("--blocks-max", type=int,
                    help="blocks per kernel drawn in 1..BLOCKS_MAX"
                    " (default 64, or the shape's)")
    ap.add_argument("--shuffle-edges", action="store_true",
                    help="write the edges in a random order")
    ap.add_argument("--in-degrees", choices=("even", "random"),
                    help="as even as possible (default) or each edge's"
                    " target drawn at random (the shape's)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--expect", metavar="FILE.json",
                    help="also write the expected W, S, O, N, L, C there")
    a = ap.parse_args()
    window, blocks_max, shuffle, degrees = SHAPES.get(
        a.shape, (1000, 64, False, "even"))
    if a.in_degrees:
        degrees = a.in_degrees
    if a.window is None:
        a.window = window if window is not None else a.kernels
    if a.blocks_max is None:
        a.blocks_max = blocks_max
    shuffle = shuffle or a.shuffle_edges
    if a.blocks_max < 1:
        sys.exit("gen_dag.py: need blocks-max >= 1")
    if a.kernels < 1 or a.edges < 0 or a.window < 1:
        sys.exit("gen_dag.py: need kernels >= 1, edges >= 0, window >= 1")
    rng = random.Random(a.seed)
    deg = (random_in_degrees(a.kernels, a.edges, a.window, rng)
           if degrees == "random" and a.kernels > 1
           else in_degrees(a.kernels, a.edges, a.window))
    with open(a.output, "w", encoding="ascii") as out:
        # (no command line in a comment: XML comments cannot hold "--")
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<program name="generated">\n'
                  '  <description>bench/gen_dag.py: random DAG, %d kernels,'
                  ' %d edges, window %d, 1 to %d blocks, %s in-degrees,'
                  ' edges %s, seed %d</description>\n'
                  '  <param name="U" value="400"/>\n'
                  '  <param name="p" value="14"/>\n'
                  % (a.kernels, a.edges, a.window, a.blocks_max, degrees,
                     "shuffled" if shuffle else "by target", a.seed))
        exp = {"kernels": a.kernels, "edges": a.edges,
               "N": 0, "W": 0, "O": 0, "C": 0, "S": 0, "L": 0}
        spans = write_kernels(out, a.kernels, rng, exp, a.blocks_max)
        write_edges(out, deg, a.window, rng, spans, exp, shuffle)
        out.write("</program>\n")
    if a.expect:
        with open(a.expect, "w", encoding="ascii") as f:
            json.dump(exp, f)
            f.write("\n")


if __name__ == "__main__":
    main()
