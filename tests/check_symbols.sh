#!/bin/sh
# tests/check_symbols.sh -I DIR [-I DIR...] LIB...: the naming and export rules of
# libmmm, checked on the built libraries (ctest `symbols`; .ci/run runs it
# on a shared build too).
#
#   - every global symbol a library defines is either public, mmm_* with
#     default visibility and declared with MMM_API in DIR/mmm/*.h,
#     or internal, mmm__* with hidden visibility: no other names (no bare
#     gd_*, sim_*, no trailing underscore, no sanitizer hooks such as
#     __lsan_default_suppressions in the library);
#   - a shared library (.so) exports, by `nm -D --defined-only`, only mmm_
#     names, none of them mmm__;
#   - every function prototype in the public headers carries MMM_API.
# Exit status 0 when all hold; otherwise each violation is printed.
set -eu
incs=""
while [ "${1:-}" = "-I" ]; do
    incs="$incs $2/mmm/*.h"
    shift 2
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# Public names: declared with MMM_API (functions and objects).
# shellcheck disable=SC2086
cat $incs | tr '\n' ' ' | tr ';' '\n' | grep 'MMM_API' |
    grep -o 'mmm_[a-z0-9_]*[ ]*\((\|\[\|$\)' | sed 's/[ (\[]*$//' | sort -u > "$tmp/declared"
[ -s "$tmp/declared" ] || { echo "no MMM_API declarations in$incs"; exit 1; }

# Prototypes without MMM_API (a function at column 0 of a public header).
# shellcheck disable=SC2086
if grep -n '^[a-z_][a-z0-9_ ]*[ *]mmm_[a-z0-9_]*(' $incs |
        grep -v 'MMM_API\|typedef\|#define' > "$tmp/bare"; then
    echo "public prototypes without MMM_API:"
    cat "$tmp/bare"
    fail=1
fi

for lib in "$@"; do
    case $lib in
    *.so | *.so.*)
        nm -D --defined-only "$lib" | awk '{print $NF}' |
            grep -v '^__\(odr_asan\|asan\|ubsan\|sancov\)' | sort -u > "$tmp/dyn" || true
        if grep -v '^mmm_' "$tmp/dyn" | grep . ||
                grep '^mmm__' "$tmp/dyn"; then
            echo "$lib exports names other than mmm_* (above)"
            fail=1
        fi
        if [ ! -s "$tmp/dyn" ]; then
            echo "$lib exports nothing"
            fail=1
        fi
        ;;
    *.a)
        # readelf: Num Value Size Type Bind Vis Ndx Name
        # Symbols the compiler adds for sanitizers (__odr_asan.*, ...) are
        # not names of ours; __lsan_* hooks are (they must not be there).
        readelf -sW "$lib" | awk '
            NF >= 8 && ($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" &&
            $8 !~ /^__(odr_asan|asan|ubsan|sancov)/ {
                print $6, $8
            }' | sort -u > "$tmp/syms"
        awk '$1 == "DEFAULT" && $2 !~ /^mmm_[a-z0-9]/' "$tmp/syms" > "$tmp/bad1"
        awk '$1 != "DEFAULT" && $2 !~ /^mmm__/' "$tmp/syms" > "$tmp/bad2"
        if [ -s "$tmp/bad1" ]; then
            echo "$lib: exported names that are not public mmm_* names:"
            cat "$tmp/bad1"
            fail=1
        fi
        if [ -s "$tmp/bad2" ]; then
            echo "$lib: hidden names that are not mmm__* (make them static or mmm__):"
            cat "$tmp/bad2"
            fail=1
        fi
        awk '$1 == "DEFAULT" {print $2}' "$tmp/syms" | sort -u > "$tmp/exported"
        if ! [ -s "$tmp/exported" ]; then
            echo "$lib: exports nothing"
            fail=1
        fi
        comm -23 "$tmp/exported" "$tmp/declared" > "$tmp/undeclared"
        if [ -s "$tmp/undeclared" ]; then
            echo "$lib: exported but declared in no public header with MMM_API:"
            cat "$tmp/undeclared"
            fail=1
        fi
        ;;
    *)
        echo "check_symbols.sh: what is $lib?"
        fail=1
        ;;
    esac
done
[ $fail -eq 0 ] && echo "symbols: $* follow the rules ($(wc -l < "$tmp/declared") public names declared)"
exit $fail
