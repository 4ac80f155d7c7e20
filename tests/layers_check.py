#!/usr/bin/env python3
"""layers_check.py SOURCE_DIR LAYERS_FILE [BUILD_DIR]: the architecture, checked.

LAYERS_FILE is the layer table CMakeLists.txt writes into the build tree
(one row a layer, bottom up: name, folder, the layers it uses, the public
headers it owns).  Every #include "..." of every .c, .h, .cu and .cuh file
of a layer's folder, and of every public header, must name a header of:
  - its own layer, or
  - a layer it uses, directly or through the layers those use.
Relative includes ("../x/y.h", "name.h") are resolved as the compiler
resolves them: first beside the including file, then under src/ and
include/.  The layer graph itself must have no cycle, and each foreign
library's headers may appear in the one layer that wraps it (FOREIGN).
A layer of PUBLIC_ONLY (the command-line tool, which links the public
library) includes only public headers (include/mmm/), its own, and the
few named there.

With BUILD_DIR (a build tree, built), the calls too: between the .c files
of one folder, the graph of "file A uses a symbol file B defines" (read
with `nm` from the object files under BUILD_DIR/CMakeFiles/*.dir/) must
have no cycle, so that the files of a folder can be read (and tested)
bottom up.  Two files that need each other call through a table of
handlers that the upper one passes in, or share a helper moved into a
lower file (src/io/parse_int.h, struct mmm__parse_handlers, is one).

Exit 0 when everything holds; else one line per violation and exit 1.
"""
import collections
import os
import re
import subprocess
import sys

# Foreign libraries: the header pattern, and the layers (and files) that
# may include it.  Each library stays inside the one module that wraps it.
FOREIGN = [
    (r"libxml/", {"io": r"parse"}),
    (r"jansson\.h", {"io": r"import_wfcommons\.c$"}),
    (r"(graphviz/)?(gvc|cgraph|cdt)\.h", {"viz": None, "dot": None, "plugin": None}),
    (r"plplot", {"viz": None}),
    (r"cuda(_runtime)?\.h|cuda_runtime_api\.h", {"cuda": None}),
]

# Layers that include only public headers and their own (and the headers
# named, as written in the #include): the command-line tool links the
# public library, whose internal names a shared libmmm does not export.
# calibrate_cuda.h is the entry of the GPU module (cuda/), which is linked
# into the binary alone, never into the library.
PUBLIC_ONLY = {"cli": {"calibrate_cuda.h"}}

# Folders whose files call each other in a circle, known and left as they
# are for now: folder -> (the files of the cycle, why).  A cycle that is
# not exactly one of these fails, and so does one of these that is gone
# (so that this list only shrinks and never lies).
KNOWN_CALL_CYCLES = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def load_table(path):
    layers = []
    for line in open(path, encoding="utf-8"):
        f = line.split()
        if not f:
            continue
        name, folder, uses = f[0], f[1], f[2]
        headers = f[3] if len(f) > 3 else "-"
        layers.append({
            "name": name,
            "folder": folder.rstrip("/"),
            "uses": [] if uses == "-" else uses.split(","),
            "headers": [] if headers == "-" else headers.split(","),
        })
    return layers


def closure(layers):
    by = {l["name"]: l for l in layers}
    errors = []
    for l in layers:
        for u in l["uses"]:
            if u not in by:
                errors.append(f"layer '{l['name']}' uses '{u}', which is no layer")
    reach = {}

    def visit(name, stack):
        if name in reach:
            return reach[name]
        if name in stack:
            errors.append("the layers form a cycle: " + " -> ".join(stack + [name]))
            return set()
        seen = set()
        for u in by[name]["uses"]:
            if u in by:
                seen |= {u} | visit(u, stack + [name])
        reach[name] = seen
        return seen

    for l in layers:
        visit(l["name"], [])
    return reach, errors


def object_files(root, build):
    """{source path relative to root: its newest object file} for the
    objects CMake keeps under build/CMakeFiles/<target>.dir/<source>.o."""
    objs = {}
    cm = os.path.join(build, "CMakeFiles")
    if not os.path.isdir(cm):
        return objs
    for d in sorted(os.listdir(cm)):
        top = os.path.join(cm, d)
        if not d.endswith(".dir") or not os.path.isdir(top):
            continue
        for dirpath, _, files in os.walk(top):
            for f in files:
                if not f.endswith(".o"):
                    continue
                obj = os.path.join(dirpath, f)
                src = os.path.relpath(obj, top)[:-2].replace(os.sep, "/")
                if not os.path.isfile(os.path.join(root, src)):
                    continue  # generated, or a source file since removed
                # A stale object of a target since renamed may lie beside
                # the current one: the newest wins.
                if src not in objs or os.path.getmtime(obj) > os.path.getmtime(objs[src]):
                    objs[src] = obj
    return objs


def symbols(obj):
    """(defined global symbols, undefined symbols) of an object file."""
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == "U":
            undefined.add(f[0])
        elif f[1].isupper():
            defined.add(f[0])
    return defined, undefined


def strongly_connected(nodes, edges):
    """The strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comps


def call_cycles(root, build, layers):
    """(errors, notes, number of object files read): a cycle in the calls
    between the files of one layer's folder is an error."""
    errors, notes = [], []
    objs = object_files(root, build)
    if not objs:
        return [f"{build}: no object files under CMakeFiles/ (build first)"], notes, 0
    folders = {l["folder"] for l in layers}
    by_folder = collections.defaultdict(list)
    for src in objs:
        folder = os.path.dirname(src)
        if folder in folders:
            by_folder[folder].append(src)
    seen_known = set()
    for folder in sorted(by_folder):
        files = by_folder[folder]
        syms = {f: symbols(objs[f]) for f in files}
        owner = {}
        for f in files:
            for s in syms[f][0]:
                owner[s] = f
        edges = collections.defaultdict(lambda: collections.defaultdict(set))
        for f in files:
            for s in syms[f][1]:
                g = owner.get(s)
                if g is not None and g != f:
                    edges[f][g].add(s)
        for comp in strongly_connected(files, edges):
            names = {os.path.basename(f) for f in comp}
            known = KNOWN_CALL_CYCLES.get(folder)
            if known and names == known[0]:
                seen_known.add(folder)
                notes.append(f"{folder}: known cycle between {', '.join(sorted(names))} "
                             f"({known[1]})")
                continue
            lines = [f"{folder}: the calls between its files form a cycle "
                     f"({', '.join(sorted(names))}); pass the upper file's "
                     "functions down as handlers, or move what both use into "
                     "a lower file:"]
            for a in comp:
                for b in sorted(edges[a]):
                    if b in comp:
                        used = sorted(edges[a][b])
                        more = f", ... ({len(used)})" if len(used) > 4 else ""
                        lines.append(f"    {os.path.basename(a)} -> "
                                     f"{os.path.basename(b)}: "
                                     f"{', '.join(used[:4])}{more}")
            errors.append("\n".join(lines))
    for folder in sorted(set(KNOWN_CALL_CYCLES) - seen_known):
        if folder in by_folder:
            errors.append(f"{folder}: its known cycle is gone: remove it from "
                          "KNOWN_CALL_CYCLES in tests/layers_check.py")
    return errors, notes, len(objs)


def main():
    root, table = sys.argv[1], sys.argv[2]
    build = sys.argv[3] if len(sys.argv) > 3 else None
    layers = load_table(table)
    reach, errors = closure(layers)
    folder_of = {}      # folder -> layer
    header_owner = {}   # "mmm/x.h" -> layer
    for l in layers:
        folder_of[l["folder"]] = l["name"]
        for h in l["headers"]:
            header_owner["mmm/" + h] = l["name"]
    public = os.path.join(root, "include", "mmm")
    for h in sorted(os.listdir(public)):
        if h.endswith(".h") and "mmm/" + h not in header_owner:
            errors.append(f"include/mmm/{h}: owned by no layer (add it to the "
                          "layer table in CMakeLists.txt)")
    # version.h is generated into the build tree.
    header_owner.setdefault("mmm/version.h", "base")

    def layer_of_path(rel):
        """The layer whose folder holds rel (a path relative to root)."""
        best = None
        for folder, name in folder_of.items():
            if rel == folder or rel.startswith(folder + "/"):
                if best is None or len(folder) > len(best[0]):
                    best = (folder, name)
        return best[1] if best else None

    def resolve(incl, including):
        """(layer, shown name) of an include, or (None, why)."""
        if incl in header_owner:
            return header_owner[incl], incl
        here = os.path.dirname(including)
        for base in (here, os.path.join(root, "src"), os.path.join(root, "include")):
            p = os.path.normpath(os.path.join(base, incl))
            if os.path.exists(p):
                rel = os.path.relpath(p, root)
                return layer_of_path(rel), rel
        return None, incl

    def check_file(path, layer):
        rel = os.path.relpath(path, root)
        allowed = {layer} | reach.get(layer, set())
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            kind, incl = m.groups()
            for pat, owners in FOREIGN:
                if re.match(pat, incl):
                    ok = layer in owners and (owners[layer] is None or
                                              re.search(owners[layer], rel))
                    if not ok:
                        errors.append(f"{rel}:{n}: <{incl}> belongs to the layer "
                                      f"that wraps it ({', '.join(owners)}), not "
                                      f"to '{layer}'")
            if kind == "<":
                continue
            owner, shown = resolve(incl, path)
            if (layer in PUBLIC_ONLY and owner != layer and
                    not (owner is not None and shown.startswith("mmm/")) and
                    incl not in PUBLIC_ONLY[layer]):
                errors.append(f"{rel}:{n}: layer '{layer}' includes \"{incl}\", "
                              f"which is no public header (include/mmm/) "
                              f"and not its own: '{layer}' uses public "
                              f"headers only")
                continue
            if owner is None:
                # A header outside every layer (a test helper, a build file).
                if not shown.startswith("mmm/"):
                    continue
                errors.append(f"{rel}:{n}: \"{incl}\" is owned by no layer")
                continue
            if owner not in allowed:
                why = ("a higher layer" if layer in reach.get(owner, set())
                       else "a layer it does not use")
                errors.append(f"{rel}:{n}: layer '{layer}' includes \"{incl}\" "
                              f"of {why} ('{owner}'); '{layer}' uses "
                              f"{', '.join(sorted(allowed - {layer})) or 'nothing'}")

    nfiles = 0
    for l in layers:
        d = os.path.join(root, l["folder"])
        if not os.path.isdir(d):
            errors.append(f"layer '{l['name']}': no folder {l['folder']}")
            continue
        for dirpath, dirnames, files in os.walk(d):
            rel = os.path.relpath(dirpath, root)
            # A sub-folder that is a layer of its own is checked as that.
            dirnames[:] = [x for x in dirnames
                           if os.path.join(rel, x).replace(os.sep, "/") not in folder_of
                           and x not in ("examples", "data")]
            for f in sorted(files):
                if f.endswith((".c", ".h", ".cu", ".cuh")):
                    check_file(os.path.join(dirpath, f), l["name"])
                    nfiles += 1
    for h in sorted(os.listdir(public)):
        owner = header_owner.get("mmm/" + h)
        if owner:
            check_file(os.path.join(public, h), owner)
            nfiles += 1
    # Every C file of src/ lies in a layer's folder.
    for dirpath, _, files in os.walk(os.path.join(root, "src")):
        for f in files:
            if f.endswith((".c", ".h")):
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                if layer_of_path(rel) is None:
                    errors.append(f"{rel}: in no layer's folder")
    notes, nobjs = [], 0
    if build:
        call_errors, notes, nobjs = call_cycles(root, build, layers)
        errors += call_errors
    for n in notes:
        print("note: " + n)
    for e in errors:
        print(e)
    if errors:
        print(f"layers: {len(errors)} violation(s) in {nfiles} files"
              + (f", {nobjs} object files" if build else ""))
        return 1
    print(f"layers: {len(layers)} layers, {nfiles} files, every include points down"
          + (f"; {nobjs} object files, no cycle in the calls between the files "
             "of a folder" if build else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
