#!/usr/bin/env python3
"""doc_example_check.py MMM docs/format.md: the complete program that
docs/format.md gives under "## The minimal form" is what a reader copies
first; it must load and analyze as printed (exit 0, W and O in the output).
Exits 1 with mmm's message otherwise."""
import re
import subprocess
import sys
import tempfile

mmm, doc = sys.argv[1], sys.argv[2]
text = open(doc, encoding="utf-8").read()
m = re.search(r"## The minimal form\n\n```xml\n(.*?)```", text, re.S)
if not m:
    sys.exit(f"{doc}: no ```xml block after '## The minimal form'")
with tempfile.NamedTemporaryFile("w", suffix=".xml", encoding="utf-8") as f:
    f.write(m.group(1))
    f.flush()
    r = subprocess.run([mmm, "analyze", f.name], capture_output=True, text=True)
if r.returncode != 0 or " W  work" not in r.stdout or " O  parallelism overhead" not in r.stdout:
    sys.exit(f"{doc}: the minimal form does not analyze: {r.stderr.strip()}")
