#!/usr/bin/env python3
"""synopsis_check.py MMM README.md [mmm.1.in]: the README's synopsis of
each command, and the man page, against what `mmm CMD --help` says.

Every option that a command's --help lists must be in that command's lines
of the README's "## Commands" block, or in the README's table of options
shared by all commands; every set of choices --help gives (`text|json|csv`,
`svg|png|pdf`, `overhead|bound|...`) must be in the synopsis too, choice by
choice.  In the man page, the same in the command's SYNOPSIS lines and its
section under COMMANDS, or under COMMON OPTIONS.  Prints what is missing
and exits 1; 0 when nothing is."""
import re
import subprocess
import sys

mmm, readme_path = sys.argv[1], sys.argv[2]
readme = open(readme_path, encoding="utf-8").read()

block = re.search(r"## Commands\n\n```\n(.*?)```", readme, re.S)
if not block:
    sys.exit("README: no synopsis block after '## Commands'")
synopsis, cmd = {}, None
for line in block.group(1).splitlines():
    m = re.match(r"mmm (\w+)", line)
    if m:
        cmd = m.group(1)
        synopsis[cmd] = ""
    if cmd:
        synopsis[cmd] += line.split("#")[0] + "\n"

shared = re.search(r"Options shared by all commands.*?\n\n(\|.*?)\n\n", readme, re.S)
if not shared:
    sys.exit("README: no table of shared options")
shared_opts = set(re.findall(r"`(--?[A-Za-z][\w-]*)", shared.group(1)))
docs = [("README", synopsis, shared_opts, shared.group(1))]

if len(sys.argv) > 3:
    def plain(troff):
        """The words of troff source: macros and escapes dropped."""
        t = re.sub(r"^\.(?:[A-Z]{1,2})\b ?", "", troff, flags=re.M)
        t = t.replace("\\-", "-").replace("\\(en", "-").replace('"', "")
        return re.sub(r"\\f[BIRP]", "", t)
    man = open(sys.argv[3], encoding="utf-8").read()
    sections = re.split(r"^(\.S[HS] .*)$", man, flags=re.M)
    by_head = {sections[i]: sections[i + 1] for i in range(1, len(sections) - 1, 2)}
    man_syn = {}
    for part in re.split(r"^\.br$", by_head.get(".SH SYNOPSIS", ""), flags=re.M):
        m = re.search(r"^\.B mmm (\w+)", part, re.M)
        if m:
            man_syn[m.group(1)] = plain(part)
    man_cmds = {c: man_syn.get(c, "") + plain(by_head.get(".SS " + c, ""))
                for c in synopsis}
    common = plain(by_head.get(".SH COMMON OPTIONS", ""))
    man_shared = set(re.findall(r"(--?[A-Za-z][\w-]*)", common))
    docs.append(("man page", man_cmds, man_shared, common))

missing = []
for (doc, synopsis, shared_opts, shared_text), (cmd, text) in (
        (d, item) for d in docs for item in d[1].items()):
    help_text = subprocess.run([mmm, cmd, "--help"], capture_output=True,
                               text=True).stdout
    if not help_text:
        missing.append(f"{cmd}: --help printed nothing")
        continue
    opts = set(re.findall(r"(?:^|[\s\[(,])(--[a-z][\w-]*|-[A-Za-z])(?=[\s\]=,|)])",
                          help_text, re.M))
    opts -= {"--help", "-h"}
    # a short option and its long form count once (-o, --output)
    for short, long_ in re.findall(r"^\s+(-[A-Za-z]), (--[\w-]+)", help_text, re.M):
        if long_ in opts and short in text:
            opts.discard(long_)
    for o in sorted(opts):
        if not re.search(re.escape(o) + r"(?![\w-])", text) and o not in shared_opts:
            missing.append(f"{cmd}: option {o} is in --help, not in the {doc}")
    usage = help_text.split("\n\n")[0]
    for opt, choices in re.findall(r"(?:(--[\w-]+) )?\b([\w.]+(?:\|[\w.]+)+)", usage):
        # the choices of a shared option (--format) may be said there
        where = text + (shared_text if opt in shared_opts else "")
        for c in choices.split("|"):
            c = c.removeprefix("OUT.")
            if c in ("P", "LIST", "A..B", "V") or c.isupper():
                continue
            if not re.search(r"(?<![\w-])" + re.escape(c) + r"(?![\w-])", where):
                missing.append(f"{cmd}: '{c}' (of {choices}) is in --help, not in the {doc}")

for m in missing:
    print(m)
sys.exit(1 if missing else 0)
