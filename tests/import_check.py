#!/usr/bin/env python3
"""import_check.py: the real task graphs of tests/data/import/real/ checked
against an independent computation.

Each file is parsed here with the Python standard library alone (its own
STG and DOT tokenizers, json, xml.etree), and W, S, N, L, C and K are
computed by other algorithms than mmm's: S and L by a longest-path pass over
a depth-first topological order, K by Dilworth's theorem (the number of
tasks minus a maximum matching of the comparability graph, by augmenting
paths on the transitive closure), where mmm uses series-parallel
composition or a minimum flow.  Then `mmm analyze --format json` must give
the same integers.  Where a file states a measure itself (the STG files'
"CP Length"), that is checked too.

usage: import_check.py MMM_BINARY DIR
"""
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET


def us(seconds):
    """Seconds to the nearest integer microsecond, halves away from zero."""
    return math.floor(seconds * 1e6 + 0.5)


# ---------------------------------------------------------------- parsers
# Each returns (costs: {task: int}, edges: set of (from, to)).

def read_stg(text):
    text = re.sub(r"#[^\n]*", "", text)
    lines = [ln.split() for ln in text.splitlines() if ln.split()]
    count = int(lines[0][0])
    records = lines[1:]
    assert len(records) in (count, count + 2), "record count"
    costs, edges = {}, set()
    for rec in records:
        tid, cost, npred = rec[0], int(rec[1]), int(rec[2])
        assert len(rec) == 3 + npred
        costs[tid] = cost
        for p in rec[3:]:
            edges.add((str(int(p)), str(int(tid))))
    return costs, edges


def read_wfcommons(text):
    doc = json.loads(text)
    wf = doc["workflow"]
    runtimes = {}
    if "specification" in wf:
        tasks = wf["specification"]["tasks"]
        for t in wf.get("execution", {}).get("tasks", []):
            runtimes[t.get("id") or t.get("name")] = t
    else:
        tasks = wf.get("tasks", wf.get("jobs"))
    ident = lambda t: t.get("id") or t["name"]
    by_name = {t["name"]: ident(t) for t in tasks if "name" in t}
    ids = {ident(t) for t in tasks}
    ref = lambda r: r if r in ids else by_name[r]
    costs, edges = {}, set()
    for t in tasks:
        src = runtimes.get(ident(t), t)
        rt = src.get("runtimeInSeconds", src.get("runtime", 0))
        costs[ident(t)] = us(rt)
        for p in t.get("parents") or []:
            edges.add((ref(p), ident(t)))
        for c in t.get("children") or []:
            edges.add((ident(t), ref(c)))
    return costs, edges


def read_dax(text):
    root = ET.fromstring(text)
    local = lambda e: e.tag.rsplit("}", 1)[-1]
    costs, edges = {}, set()
    for e in root:
        if local(e) in ("job", "dag", "dax"):
            rt = e.get("runtime")
            if rt is None:
                for p in e:
                    if local(p) == "profile" and p.get("key") == "runtime":
                        rt = p.text
            costs[e.get("id")] = us(float(rt or 0))
        elif local(e) == "child":
            for p in e:
                if local(p) == "parent":
                    edges.add((p.get("ref"), e.get("ref")))
    return costs, edges


DOT_TOKEN = re.compile(r'\s+|//[^\n]*|/\*.*?\*/|#[^\n]*|"((?:[^"\\]|\\.)*)"'
                       r'|(->|--|[{}\[\];=,])|([A-Za-z_0-9.]+)', re.S)


def read_dot(text, attr="size"):
    """A DOT subset: node and edge statements with attribute lists (what
    task-graph generators write)."""
    toks = []
    for m in DOT_TOKEN.finditer(text):
        if m.group(1) is not None:
            toks.append(("id", m.group(1)))
        elif m.group(2):
            toks.append((m.group(2), m.group(2)))
        elif m.group(3):
            toks.append(("id", m.group(3)))
    i = 0
    while toks[i][1].lower() in ("strict", "digraph") or toks[i][0] == "id" and toks[i + 1][0] == "{":
        i += 1
    assert toks[i][0] == "{"
    i += 1
    nodes, edges = {}, set()
    while toks[i][0] != "}":
        chain = []
        while True:
            assert toks[i][0] == "id"
            chain.append(toks[i][1])
            i += 1
            if toks[i][0] != "->":
                break
            i += 1
        attrs = {}
        if toks[i][0] == "[":
            i += 1
            while toks[i][0] != "]":
                k = toks[i][1]
                v = toks[i + 2][1]
                attrs[k] = v
                i += 3
                if toks[i][0] == ",":
                    i += 1
            i += 1
        if toks[i][0] == ";":
            i += 1
        for n in chain:
            nodes.setdefault(n, None)
        if len(chain) == 1 and chain[0] not in ("graph", "node", "edge"):
            if attr in attrs:
                nodes[chain[0]] = attrs[attr]
        for a, b in zip(chain, chain[1:]):
            edges.add((a, b))
    costs = {n: (math.floor(float(v) + 0.5) if v is not None else 0)
             for n, v in nodes.items()}
    return costs, edges


# ---------------------------------------------------------------- measures

def measures(costs, edges):
    succ = {t: [] for t in costs}
    for a, b in edges:
        succ[a].append(b)
    order, seen = [], set()

    def visit(u):  # iterative depth-first post-order
        stack = [(u, iter(succ[u]))]
        seen.add(u)
        while stack:
            v, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                order.append(v)
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(succ[nxt])))

    for t in sorted(costs):
        if t not in seen:
            visit(t)
    order.reverse()  # a topological order
    best_s = {t: costs[t] for t in costs}
    best_l = {t: 1 for t in costs}
    for u in order:
        for v in succ[u]:
            best_s[v] = max(best_s[v], best_s[u] + costs[v])
            best_l[v] = max(best_l[v], best_l[u] + 1)
    # Dilworth: K = n - maximum matching in the comparability bipartite graph
    reach = {}
    for u in reversed(order):
        r = set()
        for v in succ[u]:
            r.add(v)
            r |= reach[v]
        reach[u] = r
    match_right = {}

    def augment(u, visited):
        for v in reach[u]:
            if v in visited:
                continue
            visited.add(v)
            if v not in match_right or augment(match_right[v], visited):
                match_right[v] = u
                return True
        return False

    sys.setrecursionlimit(100000)
    matching = sum(1 for u in costs if augment(u, set()))
    return {"W": sum(costs.values()), "S": max(best_s.values()),
            "N": len(costs), "L": max(best_l.values()),
            "C": max(costs.values()), "K": len(costs) - matching}


READERS = {".stg": read_stg, ".json": read_wfcommons, ".xml": read_dax,
           ".dax": read_dax, ".dot": read_dot}


def main():
    mmm, folder = sys.argv[1], sys.argv[2]
    failures = 0
    checked = 0
    for name in sorted(os.listdir(folder)):
        ext = os.path.splitext(name)[1]
        if ext not in READERS:
            continue
        path = os.path.join(folder, name)
        text = open(path, encoding="utf-8").read()
        want = measures(*READERS[ext](text))
        cp = re.search(r"# CP Length\s*:\s*(\d+)", text)
        if cp and int(cp.group(1)) != want["S"]:
            print(f"{name}: the file says CP length {cp.group(1)}, "
                  f"computed here {want['S']}")
            failures += 1
        out = subprocess.run([mmm, "analyze", path, "--format", "json"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{name}: mmm failed: {out.stderr}")
            failures += 1
            continue
        got = json.loads(out.stdout)["metrics"]
        for k, v in want.items():
            if got[k] != v:
                print(f"{name}: {k} = {got[k]} by mmm, {v} here")
                failures += 1
        checked += 1
        print(f"{name}: " + ", ".join(f"{k} = {v}" for k, v in want.items()))
    if checked == 0:
        print("no file checked")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
