#!/bin/sh
# tests/null_err_check.sh INCLUDE_DIR TEST_SOURCE: every public function of
# INCLUDE_DIR/mmm/*.h that takes an `mmm_error *` has a Test(null_err, NAME)
# in TEST_SOURCE (tests/test_null_err.c), which calls it with err == NULL
# on an input it refuses.  Prints the functions without one; exit 1 then.
set -eu
inc=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Declarations joined into one line each (they span lines), those with
# MMM_API and an mmm_error * parameter, their names.
cat "$inc"/mmm/*.h | tr '\n' ' ' | tr ';' '\n' | grep 'MMM_API' |
    grep 'mmm_error \*' | grep -o 'mmm_[a-z0-9_]*[ ]*(' | sed 's/[ (]*$//' |
    sort -u > "$tmp/api"
[ -s "$tmp/api" ] || { echo "no functions taking mmm_error * in $inc/mmm"; exit 1; }
grep -o 'Test(null_err, *mmm_[a-z0-9_]*)' "$src" | sed 's/.*, *//; s/)//' |
    sort -u > "$tmp/tested"
missing=$(comm -23 "$tmp/api" "$tmp/tested")
stale=$(comm -13 "$tmp/api" "$tmp/tested")
echo "$(wc -l < "$tmp/api") public functions take an mmm_error *;" \
    "$(wc -l < "$tmp/tested") have a NULL-err test"
rc=0
if [ -n "$missing" ]; then
    echo "without a Test(null_err, NAME) in $src:"
    echo "$missing"
    rc=1
fi
if [ -n "$stale" ]; then
    echo "tested but not (or no longer) public with an mmm_error *:"
    echo "$stale"
    rc=1
fi
exit $rc
