#!/usr/bin/env python3
"""tests/vocab_check.py VOCAB_DUMP MMM ROOT: the texts that list a
vocabulary of the library list what its table holds (ctest `vocab`).

The tables, as tests/vocab_dump.c prints them from the library:
  - the block attributes beyond the MMM's (include/mmm/attr.h);
  - the time model's machine constants (src/time/time_inputs.h);
  - the models' machine parameters (mmm_model_machine_param).
The texts:
  - dags/mmm.xsd: <kernel> and <blocks> end with the attributes of the
    table, in its order, and name none of them elsewhere;
  - docs/format.md: the table of <kernel> has a row for each attribute of
    the schema's <kernel>, the table's last in its order, each saying it is
    the time model's; the paragraph on the models' machine parameters names
    them;
  - docs/time.md: section 1 has a row for each machine constant, in the
    table's order, with its unit and default; section 2 has, after the
    MMM's own attributes, a row for each block attribute in the table's
    order, with its unit and default;
  - `mmm fit --help` names the constants fit may free, the optional ones
    after "optional".
Each mismatch is printed; the exit status is 1 when there is one."""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

XS = "{http://www.w3.org/2001/XMLSchema}"
problems = []


def fail(msg):
    problems.append(msg)


def read_dump(path):
    attrs, machine, model = [], [], []
    out = subprocess.run([path], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "attr":
            attrs.append({"name": f[1], "unit": f[2], "default": f[3]})
        elif f[0] == "machine":
            machine.append({"name": f[1], "unit": f[2], "default": f[3],
                            "fit": int(f[4]), "calibrated": int(f[5])})
        elif f[0] == "model":
            model.append(f[1])
    if not attrs or not machine or not model:
        sys.exit("%s printed no table" % path)
    return attrs, machine, model


def check_xsd(root, attrs):
    names = [a["name"] for a in attrs]
    tree = ET.parse(root + "/dags/mmm.xsd")
    types = {t.get("name"): t for t in tree.iter(XS + "complexType") if t.get("name")}
    kernel = []
    for elem in ("kernel", "blocks"):
        listed = [a.get("name") for a in types[elem].findall(XS + "attribute")]
        tail = listed[len(listed) - len(names):]
        if tail != names:
            fail("dags/mmm.xsd: <%s> ends with %s, the table has %s"
                 % (elem, tail, names))
        extra = [n for n in listed[:len(listed) - len(names)] if n in names]
        if extra:
            fail("dags/mmm.xsd: <%s> names %s before the table's attributes"
                 % (elem, extra))
        if elem == "kernel":
            kernel = listed
    return kernel


def md_rows(text, start, end):
    """The rows of the first table between the headings start and end:
    lists of cells, the first one with its backquotes."""
    a = text.index(start)
    b = text.index(end, a)
    rows = []
    for line in text[a:b].splitlines():
        if line.startswith("| `"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def names_of(cell):
    return re.findall(r"`([^`]+)`", cell)


def check_format(root, attrs, kernel, model):
    text = open(root + "/docs/format.md", encoding="utf-8").read()
    rows = md_rows(text, "### `<kernel …>`", "**Two forms.**")
    listed = [names_of(r[0])[0] for r in rows]
    if sorted(listed) != sorted(kernel):
        fail("docs/format.md: the <kernel> table lists %s, dags/mmm.xsd %s"
             % (listed, kernel))
    names = [a["name"] for a in attrs]
    if listed[len(listed) - len(names):] != names:
        fail("docs/format.md: the <kernel> table ends with %s, the table of "
             "include/mmm/attr.h has %s" % (listed[len(listed) - len(names):], names))
    for r in rows:
        n = names_of(r[0])[0]
        if n in names and "time model" not in r[-1]:
            fail("docs/format.md: the row of '%s' does not say it is the time "
                 "model's" % n)
    m = re.search(r"The models' machine parameters, (.*?)\n\(the MMM's", text, re.S)
    if not m or names_of(m.group(1)) != model:
        fail("docs/format.md: the paragraph \"The models' machine parameters, "
             "...\" does not list %s" % model)


def check_time(root, attrs, machine):
    text = open(root + "/docs/time.md", encoding="utf-8").read()
    rows = md_rows(text, "## 1. Machine parameters", "## 2.")
    doc = [(names_of(r[0])[0], r[1], r[3]) for r in rows]
    want = [(m["name"], m["unit"], m["default"]) for m in machine]
    if [d[0] for d in doc] != [w[0] for w in want]:
        fail("docs/time.md, section 1: the rows are %s, the table's %s"
             % ([d[0] for d in doc], [w[0] for w in want]))
    for d, w in zip(doc, want):
        if d[0] == w[0] and (d[1], d[2]) != (w[1], w[2]):
            fail("docs/time.md, section 1, %s: unit '%s', default '%s'; the "
                 "table: '%s', '%s'" % (d[0], d[1], d[2], w[1], w[2]))
    rows = md_rows(text, "## 2. Kernel attributes", "## 3.")
    doc = []
    for r in rows:
        for n in names_of(r[0]):
            doc.append((n, r[1], r[3]))
    names = [a["name"] for a in attrs]
    tail = doc[len(doc) - len(names):]
    if [d[0] for d in tail] != names or any(d[0] in names for d in doc[:len(doc) - len(names)]):
        fail("docs/time.md, section 2: the rows end with %s, the table of "
             "include/mmm/attr.h has %s" % ([d[0] for d in tail], names))
    for d, a in zip(tail, attrs):
        if d[0] == a["name"] and (d[1], d[2]) != (a["unit"], a["default"]):
            fail("docs/time.md, section 2, %s: unit '%s', default '%s'; the "
                 "table: '%s', '%s'" % (d[0], d[1], d[2], a["unit"], a["default"]))


def check_fit_help(mmm, machine):
    out = subprocess.run([mmm, "fit", "--help"], capture_output=True, text=True).stdout
    m = re.search(r"^constants: (.*)", out, re.S | re.M)
    if not m:
        fail("mmm fit --help: no paragraph 'constants: ...'")
        return
    required, _, optional = m.group(1).partition("optional")
    words = lambda s: re.findall(r"[a-z_]+_[a-z_]+|[a-z]+_s\b", s)
    want_req = [c["name"] for c in machine if c["fit"] == 1]
    want_opt = [c["name"] for c in machine if c["fit"] == 2]
    if sorted(words(required)) != sorted(want_req):
        fail("mmm fit --help lists %s as the constants, the table %s"
             % (words(required), want_req))
    if sorted(words(optional)) != sorted(want_opt):
        fail("mmm fit --help lists %s as optional, the table %s"
             % (words(optional), want_opt))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: vocab_check.py VOCAB_DUMP MMM ROOT")
    dump, mmm, root = sys.argv[1:]
    attrs, machine, model = read_dump(dump)
    kernel = check_xsd(root, attrs)
    check_format(root, attrs, kernel, model)
    check_time(root, attrs, machine)
    check_fit_help(mmm, machine)
    for p in problems:
        print(p)
    print("%d block attributes, %d machine constants, %d model parameters: %s"
          % (len(attrs), len(machine), len(model),
             "%d problems" % len(problems) if problems else "the texts agree"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
