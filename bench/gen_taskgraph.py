#!/usr/bin/env python3
"""gen_taskgraph.py: a random layered task graph of N tasks written as a
WfCommons 1.5 instance or a DOT task graph (bench/bench_import.sh).

usage: gen_taskgraph.py wfcommons|dot N OUT [SEED]

Tasks are in layers of about sqrt(N); each task past the first layer has
1 to 3 parents in the layer before it.  Runtimes are seconds with three
decimals (WfCommons), sizes integers (DOT)."""
import json
import random
import sys


def graph(n, seed):
    rnd = random.Random(seed)
    width = max(1, int(n ** 0.5))
    parents = []
    for i in range(n):
        layer = i // width
        if layer == 0:
            parents.append([])
            continue
        lo, hi = (layer - 1) * width, layer * width - 1
        k = rnd.randint(1, 3)
        parents.append(sorted({rnd.randint(lo, hi) for _ in range(k)}))
    costs = [rnd.randint(1, 100000) for _ in range(n)]
    return parents, costs


def main():
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    parents, costs = graph(n, seed)
    name = lambda i: "task_%08d" % i
    if kind == "wfcommons":
        children = [[] for _ in range(n)]
        for i, ps in enumerate(parents):
            for p in ps:
                children[p].append(i)
        doc = {
            "name": "bench-%d" % n,
            "schemaVersion": "1.5",
            "workflow": {
                "specification": {
                    "tasks": [{"name": name(i), "id": name(i),
                               "parents": [name(p) for p in parents[i]],
                               "children": [name(c) for c in children[i]],
                               "inputFiles": [], "outputFiles": []}
                              for i in range(n)],
                    "files": []},
                "execution": {
                    "makespanInSeconds": 0,
                    "tasks": [{"id": name(i),
                               "runtimeInSeconds": costs[i] / 1000.0,
                               "command": {"program": "bench", "arguments": []},
                               "avgCPU": 100.0}
                              for i in range(n)]}}}
        with open(out, "w") as f:
            json.dump(doc, f, indent=2)
    elif kind == "dot":
        with open(out, "w") as f:
            f.write("digraph bench {\n")
            for i in range(n):
                f.write('  %s [size="%d"];\n' % (name(i), costs[i]))
            for i, ps in enumerate(parents):
                for p in ps:
                    f.write("  %s -> %s;\n" % (name(p), name(i)))
            f.write("}\n")
    else:
        sys.exit("usage: gen_taskgraph.py wfcommons|dot N OUT [SEED]")


if __name__ == "__main__":
    main()
