#!/usr/bin/env bash
# tests/golden/check.sh MMM_BINARY: run tests/golden/run.sh with MMM_BINARY
# into a temporary directory and compare every output with
# tests/golden/expected/ (diff -r).  Exit 0 when all are the same; else
# print the differences (the first 200 lines of diff -ru) and exit 1.
# ctest runs it as the test 'golden'; tests/golden/README.md says how to
# regenerate the expected outputs after an intended change.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 MMM_BINARY" >&2
    exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
expected=$here/expected
[ -d "$expected" ] || { echo "golden: $expected is missing" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmm-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
actual=$tmp/actual

if ! bash "$here/run.sh" "$1" "$actual"; then
    echo "golden: tests/golden/run.sh failed" >&2
    exit 1
fi

if diff -ru "$expected" "$actual" >"$tmp/diff"; then
    echo "golden: $(find "$actual" -name '*.err' | wc -l) cases, every output as expected"
    exit 0
fi
# Name the two sides by their role, not by the temporary path.
esc() { printf '%s' "$1" | sed 's/[][\.*^$|/]/\\&/g'; }
sed -i -e "s|$(esc "$actual")|actual|g" -e "s|$(esc "$expected")|expected|g" "$tmp/diff"
echo "golden: outputs differ from tests/golden/expected in $(grep -cE '^(diff|Only in) ' "$tmp/diff") files;" \
     "the first 200 lines of diff -ru expected actual:"
head -n 200 "$tmp/diff"
echo "golden: if the change is intended, regenerate the expected outputs" \
     "(tests/golden/README.md) and explain the diff in the commit message"
exit 1
