#!/usr/bin/env python3
"""doc_commands_check.py MMM ROOT: every `mmm` command that README.md and
docs/*.md show in a code block runs as printed (exit 0).

A command is a line of a fenced code block that starts with `mmm ` or
`build/mmm ` (after an optional `$ ` prompt), joined with the lines its
trailing backslashes continue; pipes and redirections are kept (it runs
under bash with pipefail).  Not commands: a synopsis (a line with
`[--option]` brackets or the placeholder FILE, IN or A.xml).  A command
whose next line in the block is an error message (`FILE: error: ...`)
shows a refusal: it must exit 1.  The commands
run from a scratch directory that sees the source tree's dags/, tests/,
bench/ and docs/ (so that the files they write land there), with `mmm` and
`build/mmm` the binary under test.  SKIP lists, with the reason, the
commands that cannot run here: those that need a GPU or Nsight Compute,
and those that read what such a command writes.  Prints each failure (the
file, the command, its output) and exits 1; 0 when every command ran."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# (text the command contains, why it is not run)
SKIP = [
    ("mmm calibrate", "needs a GPU (CUDA)"),
    ("my-gpu.xml", "reads the machine file `mmm calibrate` writes on a GPU"),
    ("mmm profile run", "needs a GPU and Nsight Compute (ncu)"),
    ("caps/POINTS.csv", "reads the captures `mmm profile run` keeps"),
    ("analyze reduce.xml", "reads the program `mmm profile run` writes"),
    ("mmm analyze (whole command, CPU)", "a benchmark's output, not a command"),
]
SYNOPSIS = re.compile(r"\[-|\bFILE\b|\bIN\b|\bA\.xml\b")
FENCE = re.compile(r"^(\s*)```")
COMMAND = re.compile(r"^\s*(?:\$ )?((?:build/)?mmm )")


ERROR = re.compile(r"^\s*\S+: error: ")


def commands(path):
    """(line number, command, expected exit status) of each command in the
    code blocks of path."""
    out, in_block, pending, start = [], False, None, 0
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if out and out[-1][0] == -n:  # the line after a command
            out[-1] = (out[-1][1], out[-1][2], 1 if ERROR.match(line) else 0)
        if FENCE.match(line):
            in_block, pending = not in_block, None
            continue
        if not in_block:
            continue
        if pending is not None:
            pending += " " + line.strip()
        else:
            m = COMMAND.match(line)
            if not m:
                continue
            pending, start = line[m.start(1):].strip(), n
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        out.append((-(n + 1), start, pending))  # its status: from the next line
        pending = None
    return [c if c[0] >= 0 else (c[1], c[2], 0) for c in out]


def skipped(cmd):
    for text, why in SKIP:
        if text in cmd:
            return why
    if SYNOPSIS.search(cmd):
        return "a synopsis"
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: doc_commands_check.py MMM ROOT")
    mmm, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    pages = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md"))
    work = tempfile.mkdtemp(prefix="mmm_doc_commands_")
    try:
        for d in ("dags", "tests", "bench", "docs"):
            os.symlink(os.path.join(root, d), os.path.join(work, d))
        os.makedirs(os.path.join(work, "build"))
        os.makedirs(os.path.join(work, "bin"))
        os.symlink(mmm, os.path.join(work, "build", "mmm"))
        os.symlink(mmm, os.path.join(work, "bin", "mmm"))
        env = dict(os.environ, PATH=os.path.join(work, "bin") + ":" + os.environ["PATH"],
                   LC_ALL="C")
        ran = failed = skips = 0
        for page in pages:
            rel = os.path.relpath(page, root)
            for n, cmd, want in commands(page):
                why = skipped(cmd)
                if why:
                    skips += 1
                    continue
                ran += 1
                r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=work, env=env,
                                   capture_output=True, text=True, timeout=300)
                if r.returncode != want:
                    failed += 1
                    print("%s:%d: exit %d, not %d: %s\n%s%s" % (rel, n, r.returncode, want,
                                                               cmd, r.stdout[-2000:],
                                                               r.stderr[-2000:]))
        print("%d commands of the docs ran, %d failed, %d skipped (GPU, ncu, synopses)"
              % (ran, failed, skips))
        return 1 if failed or ran == 0 else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
