#!/usr/bin/env python3
"""render_condense_check.py: the condensed pictures of real task graphs
checked against an independent computation.

For each WfCommons and Pegasus DAX file of tests/data/import/real/ the
tasks, their types (a WfCommons task's category, else the program its
execution ran; a DAX job's name) and edges are read here with the Python
standard library alone; every task's level (longest path from a source) is
computed by a Kahn pass; the groups (type, level) and their counts, the
chains folded (a group whose only successor group has the same type and
count and no other predecessor group), and the edges between groups with
how many task edges each stands for.  Then:

- `mmm render FILE --condense always --format dot` must list the same
  groups (kind=group nodes: type, count, level_lo, level_hi) and the same
  group edges (count);
- `mmm render FILE -o OUT.png` and `-o OUT.svg` (the defaults) must say on
  stderr "condensed N tasks into G nodes over L levels" for a file above
  200 tasks (or with a level wider than 40), and the picture must be at
  most 8000 pixels on a side with an aspect ratio of at most 8:1 (PNG: its
  IHDR; SVG: width and height in pt at 96/72 CSS pixels a point);
- every task type's name appears in the SVG (the legend of the colours).

usage: render_condense_check.py MMM_BINARY DIR OUTDIR
"""
import json
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict


def read_wfcommons(text):
    doc = json.loads(text)
    wf = doc["workflow"]
    execs = {}
    if "specification" in wf:
        tasks = wf["specification"]["tasks"]
        for t in wf.get("execution", {}).get("tasks", []):
            execs[t.get("id") or t.get("name")] = t
    else:
        tasks = wf.get("tasks", wf.get("jobs"))
    ident = lambda t: t.get("id") or t["name"]
    by_name = {t["name"]: ident(t) for t in tasks if "name" in t}
    ids = {ident(t) for t in tasks}
    ref = lambda r: r if r in ids else by_name[r]
    types, edges = {}, set()
    for t in tasks:
        e = execs.get(ident(t), {})
        ty = t.get("category") or e.get("category") or \
            (e.get("command") or {}).get("program")
        types[ident(t)] = ty
        for p in t.get("parents") or []:
            edges.add((ref(p), ident(t)))
        for c in t.get("children") or []:
            edges.add((ident(t), ref(c)))
    return types, edges


def read_dax(text):
    root = ET.fromstring(text)
    local = lambda e: e.tag.rsplit("}", 1)[-1]
    types, edges = {}, set()
    for e in root:
        if local(e) in ("job", "dag", "dax"):
            types[e.get("id")] = e.get("name")
        elif local(e) == "child":
            for p in e:
                if local(p) == "parent":
                    edges.add((p.get("ref"), e.get("ref")))
    return types, edges


def stem(task):
    """The kind mmm gives a task without a type: its id without the
    trailing digits and the separators before them."""
    s = re.sub(r"[0-9]+$", "", task)
    s = re.sub(r"[-_.#:/ ]+$", "", s)
    return s or "task"


def condense(types, edges):
    """(groups: {gid: (type, level_lo, level_hi, count)},
        gedges: {(gid, gid): count}, levels)"""
    succ = defaultdict(list)
    indeg = {t: 0 for t in types}
    for a, b in edges:
        succ[a].append(b)
        indeg[b] += 1
    level = {t: 0 for t in types}
    ready = [t for t in types if indeg[t] == 0]
    while ready:
        u = ready.pop()
        for v in succ[u]:
            level[v] = max(level[v], level[u] + 1)
            indeg[v] -= 1
            if indeg[v] == 0:
                ready.append(v)
    kind = {t: types[t] or stem(t) for t in types}
    group = {t: (kind[t], level[t]) for t in types}
    count = defaultdict(int)
    for t in types:
        count[group[t]] += 1
    between = defaultdict(int)
    for a, b in edges:
        between[(group[a], group[b])] += 1
    outs, ins = defaultdict(set), defaultdict(set)
    for g, h in between:
        outs[g].add(h)
        ins[h].add(g)
    # fold chains: g into its only successor h when h has no other
    # predecessor and both have the same kind and count
    root = {g: g for g in count}
    for g in sorted(count, key=lambda g: g[1]):
        if len(outs[g]) == 1:
            h = next(iter(outs[g]))
            if len(ins[h]) == 1 and h[0] == g[0] and count[h] == count[g]:
                root[h] = root[g]
    members = defaultdict(list)
    for g in count:
        members[root[g]].append(g)
    groups = {}
    for r, gs in members.items():
        groups[r] = (r[0], min(g[1] for g in gs), max(g[1] for g in gs),
                     sum(count[g] for g in gs))
    gedges = defaultdict(int)
    for (g, h), n in between.items():
        if root[g] != root[h]:
            gedges[(root[g], root[h])] += n
    return groups, gedges, max(level.values()) + 1, level


def parse_dot(text):
    """Nodes {name: {attr: value}} and edges [(a, b, {attr: value})] of
    mmm's DOT (agwrite: one attribute a line)."""
    nodes, edges = {}, []
    cur = None
    name = r'("(?:[^"\\]|\\.)*"|[^\s\[]+)'
    for line in text.splitlines():
        m = re.match(r'^\t' + name + r'\s+->\s+' + name + r'\s*\[(.*)$', line) or \
            re.match(r'^\t' + name + r'\s*\[(.*)$', line)
        if m and not line.startswith("\t\t"):
            g = m.groups()
            if len(g) == 3:
                cur = {}
                edges.append((g[0].strip('"'), g[1].strip('"'), cur))
            else:
                cur = {}
                nodes[g[0].strip('"')] = cur
            rest = g[-1]
        elif cur is not None and line.startswith("\t\t"):
            rest = line.strip()
        else:
            cur = None
            continue
        a = re.match(r'^(\w+)=("(?:[^"\\]|\\.)*"|[^,\]]*)', rest)
        if a:
            cur[a.group(1)] = a.group(2).strip('"')
        if rest.endswith("];"):
            cur = None
    return nodes, edges


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:4] == b"\x89PNG", path
    return struct.unpack(">II", head[16:24])


def svg_size(path):
    with open(path, encoding="utf-8") as f:
        text = f.read(4000)
    m = re.search(r'<svg width="([0-9.]+)pt" height="([0-9.]+)pt"', text)
    assert m, path
    return float(m.group(1)) * 96 / 72, float(m.group(2)) * 96 / 72


def check_shape(w, h, what):
    assert w <= 8000 + 1 and h <= 8000 + 1, "%s: %s x %s" % (what, w, h)
    assert max(w, h) <= 8 * min(w, h) + 2, "%s: aspect %s x %s" % (what, w, h)


def main():
    mmm, d, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    checked = 0
    for f in sorted(os.listdir(d)):
        path = os.path.join(d, f)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if f.endswith(".json"):
            types, edges = read_wfcommons(text)
        elif f.endswith(".xml") and "<adag" in text:
            types, edges = read_dax(text)
        else:
            continue
        groups, gedges, nlevels, level = condense(types, edges)
        dot = subprocess.run([mmm, "render", path, "--condense", "always", "--format",
                              "dot", "-o", "-"], capture_output=True, text=True, check=True)
        nodes, dedges = parse_dot(dot.stdout)
        got = {}
        by_node = {}
        for n, a in nodes.items():
            if a.get("kind") == "group":
                key = (a["type"], int(a["level_lo"]))
                got[key] = (a["type"], int(a["level_lo"]), int(a["level_hi"]), int(a["count"]))
                by_node[n] = key
        assert got == groups, "%s: groups\n mmm:  %s\n here: %s" % (f, sorted(got.values()),
                                                                   sorted(groups.values()))
        gotedges = {(by_node[a], by_node[b]): int(x["count"]) for a, b, x in dedges}
        assert gotedges == dict(gedges), "%s: group edges %s != %s" % (f, gotedges, dict(gedges))
        note = "condensed {:,} tasks into {:,} nodes over {:,} levels".format(
            len(types), len(groups), nlevels)
        widest = max(sum(1 for t in types if level[t] == lv) for lv in range(nlevels))
        auto = len(types) > 200 or widest > 40
        base = os.path.join(out, os.path.splitext(f)[0])
        for ext in ("png", "svg"):
            r = subprocess.run([mmm, "render", path, "-o", base + "." + ext],
                               capture_output=True, text=True, check=True)
            assert (note in r.stderr) == (auto and len(groups) < len(types)), \
                "%s: stderr %r, expected %r" % (f, r.stderr, note)
            w, h = png_size(base + ".png") if ext == "png" else svg_size(base + ".svg")
            check_shape(w, h, f + "." + ext)
        with open(base + ".svg", encoding="utf-8") as fh:
            svg = fh.read()
        for ty in set(t for t in types.values() if t):
            assert ty in svg, "%s: type %s not in the picture" % (f, ty)
        print("%s: %d tasks, %d groups over %d levels, %d group edges; %s" %
              (f, len(types), len(groups), nlevels, len(gedges),
               "condensed by default" if auto else "drawn task by task"))
        checked += 1
    assert checked >= 2, "no task graph checked"


if __name__ == "__main__":
    main()
