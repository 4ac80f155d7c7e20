#!/usr/bin/env python3
"""tests/vocab_names_check.py ROOT: no block attribute of the table
(include/mmm/attr.h, MMM_ATTR_TABLE) is spelled in more than two files of
the library's code: the table itself and the formula that uses it
(src/time/timemodel.c).  ctest `vocab_names`.

The code is every .c and .h file under src/, include/ and the C layer
folders outside src/ (schedulers/, viz/; not the GPU benchmarks of cuda/,
whose loops count their own "rounds").  A file spells a name
when the name is one of its code tokens (an identifier, or a string
literal of exactly that text: `v->registers`, `"registers"`), comments
left out.  A name with an underscore is no English word, so for it the
comments and the prose of string literals count too ("global_wavefronts"
in a comment is the attribute).  For the others (registers, barriers,
rounds...) the English word in prose is not the attribute.

Everything a file needs to know of an attribute goes through its index
(MMM_ATTR_REGISTERS) and the accessors (mmm_attr_name...), so a new row of
the table is one row plus its use in a formula."""
import os
import re
import sys

ALLOWED = 2
CODE_DIRS = ("src", "include", "schedulers", "viz")
TOKEN = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"'
                   r"|'(?:\\.|[^'\\\n])*'|[A-Za-z_][A-Za-z0-9_]*", re.S)


def table_names(root):
    text = open(os.path.join(root, "include/mmm/attr.h"), encoding="utf-8").read()
    start = text.index("#define MMM_ATTR_TABLE(X)")
    end = text.index("\n\n", start)
    names = re.findall(r'X\(\s*[A-Z0-9_]+\s*,\s*"([a-z0-9_]+)"', text[start:end])
    if not names:
        sys.exit("no rows found in MMM_ATTR_TABLE of include/mmm/attr.h")
    return names


def code_tokens(text):
    for m in TOKEN.finditer(text):
        t = m.group(0)
        if t.startswith(("/*", "//", "'")):
            continue
        yield t[1:-1] if t.startswith('"') else t


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: vocab_names_check.py ROOT")
    root = sys.argv[1]
    names = table_names(root)
    files = {}
    for d in CODE_DIRS:
        for dirpath, _, filenames in os.walk(os.path.join(root, d)):
            for f in filenames:
                if f.endswith((".c", ".h")):
                    path = os.path.join(dirpath, f)
                    text = open(path, encoding="utf-8").read()
                    files[os.path.relpath(path, root)] = (text, set(code_tokens(text)))
    failed = 0
    for name in names:
        word = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
        where = sorted(p for p, (text, toks) in files.items()
                       if name in toks or ("_" in name and word.search(text)))
        if len(where) > ALLOWED:
            failed = 1
            print("attribute '%s' is spelled in %d files (at most %d: the table "
                  "and its formula): %s" % (name, len(where), ALLOWED, ", ".join(where)))
    print("%d attributes of include/mmm/attr.h checked in %d files" % (len(names), len(files)))
    return failed


if __name__ == "__main__":
    sys.exit(main())
