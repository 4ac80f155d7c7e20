#!/usr/bin/env python3
"""Generate the inputs of bench/bench_simulate.sh (`mmm simulate`).

chain: K kernels in a chain (explicit <edge>s), each with B blocks of one
       kind; kernel k costs span 3 + k mod 7 and k mod 3 + 1 global words
       per thread.  The makespan of every greedy policy is exactly
       sum_k ceil(B/p) * (S_k + O_k), printed by --expect P.
dag:   K kernels, each with 2 or 3 kinds of block (<blocks> children, counts
       1 .. max-blocks, distinct costs), and E edges u -> v (u < v) drawn
       among the `window` kernels before v: a long, narrow-ish DAG.

The output is deterministic for a given seed.

    python3 bench/gen_sim.py chain --kernels 1000 --blocks 1000000000 -o c.xml
    python3 bench/gen_sim.py dag --kernels 100000 --edges 300000 -o d.xml
"""
import argparse
import random
import sys

U = 4  # cycles per global word in the generated programs


def chain_costs(k):
    span = 3 + k % 7
    words = k % 3 + 1
    return span, words


def gen_chain(out, kernels, blocks, p):
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w('<!-- gen_sim.py chain: %d kernels x %d blocks -->\n' % (kernels, blocks))
    w('<program name="chain_%d_%d">\n' % (kernels, blocks))
    w('  <param name="U" value="%d"/>\n  <param name="p" value="%d"/>\n' % (U, p))
    for k in range(kernels):
        span, words = chain_costs(k)
        w('  <kernel id="k%d" blocks="%d" work="%d" span="%d" reads="%d" writes="0"/>\n'
          % (k, blocks, span * 32, span, words))
    for k in range(1, kernels):
        w('  <edge from="k%d" to="k%d"/>\n' % (k - 1, k))
    w('</program>\n')


def chain_expect(kernels, blocks, p):
    total = 0
    for k in range(kernels):
        span, words = chain_costs(k)
        total += -(-blocks // p) * (span + words * U)
    return total


def gen_dag(out, kernels, edges, window, max_blocks, seed, p):
    rng = random.Random(seed)
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w('<!-- gen_sim.py dag: %d kernels, %d edges, window %d, seed %d -->\n'
      % (kernels, edges, window, seed))
    w('<program name="dag_%d_%d">\n' % (kernels, edges))
    w('  <param name="U" value="%d"/>\n  <param name="p" value="%d"/>\n' % (U, p))
    for k in range(kernels):
        w('  <kernel id="k%d">' % k)
        for _ in range(rng.choice((2, 3))):
            span = rng.randint(1, 40)
            w('<blocks count="%d" work="%d" span="%d" reads="%d" writes="%d"/>'
              % (rng.randint(1, max_blocks), span * 64, span, rng.randint(0, 4),
                 rng.randint(0, 2)))
        w('</kernel>\n')
    seen = set()
    made = 0
    attempts = 0
    while made < edges and attempts < 20 * edges:
        attempts += 1
        v = rng.randint(1, kernels - 1)
        u = rng.randint(max(0, v - window), v - 1)
        if (u, v) in seen:
            continue
        seen.add((u, v))
        w('  <edge from="k%d" to="k%d"/>\n' % (u, v))
        made += 1
    w('</program>\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=("chain", "dag"))
    ap.add_argument("--kernels", type=int, default=1000)
    ap.add_argument("--blocks", type=int, default=10**9, help="chain: blocks per kernel")
    ap.add_argument("--edges", type=int, default=300000, help="dag: edges")
    ap.add_argument("--window", type=int, default=50, help="dag: edge window")
    ap.add_argument("--max-blocks", type=int, default=100000,
                    help="dag: most blocks of one kind in a kernel")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-p", type=int, default=16, help="the program's default p")
    ap.add_argument("--expect", type=int, metavar="P",
                    help="chain: print the exact makespan on P SMs and exit")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    if a.expect is not None:
        print(chain_expect(a.kernels, a.blocks, a.expect))
        return
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    with out:
        if a.kind == "chain":
            gen_chain(out, a.kernels, a.blocks, a.p)
        else:
            gen_dag(out, a.kernels, a.edges, a.window, a.max_blocks, a.seed, a.p)


if __name__ == "__main__":
    main()
