#!/bin/sh
# tests/abi_check.sh [--write] SOVERSION LIST LIB [BASE_LIB]: the ABI rule
# of docs/library.md ("ABI"), checked (ctest `abi`, `abi_draw`).
#
# The public symbols LIB exports (mmm_* but not mmm__*: from a static
# archive, `nm -g --defined-only`; from a shared object, `nm -D
# --defined-only`), less those BASE_LIB exports (a shared libmmm-draw
# carries copies of the core functions it calls), each with its kind
# (function or object), must be the committed LIST, whose first line names
# the SOVERSION it was written for.  A difference fails and says what to
# do: a symbol removed, renamed or of another kind breaks the ABI, so the
# SONAME changes (CMakeLists.txt: SOVERSION is major.minor; in 0.x raise
# the minor version, from 1.0 on the major), then the list is written
# anew with --write.  Added symbols only need the list written anew.
#
# Exit status 0 when LIST holds, 1 otherwise.
set -eu
write=0
if [ "${1:-}" = "--write" ]; then
    write=1
    shift
fi
if [ $# -lt 3 ]; then
    echo "usage: $0 [--write] SOVERSION LIST LIB [BASE_LIB]" >&2
    exit 2
fi
soversion=$1 list=$2 lib=$3 base=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name kind, one a line, sorted: the public symbols a library defines.
public_symbols() {
    case $1 in
    *.so | *.so.*) nm -D --defined-only "$1" ;;
    *.a) nm -g --defined-only "$1" ;;
    *) echo "abi_check.sh: what is $1?" >&2; return 1 ;;
    esac | awk 'NF == 3 && $3 ~ /^mmm_[a-z0-9]/ {
                    k = ($2 == "T" || $2 == "W" || $2 == "i") ? "function" : "object"
                    print $3, k
                }' | sort -u
}

public_symbols "$lib" > "$tmp/all"
if [ -n "$base" ]; then
    public_symbols "$base" | awk '{print $1}' > "$tmp/base"
    awk 'NR == FNR {b[$1] = 1; next} !($1 in b)' "$tmp/base" "$tmp/all" > "$tmp/now"
else
    cp "$tmp/all" "$tmp/now"
fi
if ! [ -s "$tmp/now" ]; then
    echo "abi: $lib exports no public symbol"
    exit 1
fi
name=$(basename "$lib" | sed 's/\.\(a\|so.*\)$//')
header="# $name SOVERSION $soversion: the public symbols it exports (tests/abi_check.sh; docs/library.md, \"ABI\")"

if [ $write -eq 1 ]; then
    { echo "$header"; cat "$tmp/now"; } > "$list"
    echo "abi: wrote $list ($(wc -l < "$tmp/now") symbols of $name, SOVERSION $soversion)"
    exit 0
fi

again="sh $0 --write $soversion $list $lib${base:+ $base}"
if ! [ -f "$list" ]; then
    echo "abi: no list $list: write it with"
    echo "    $again"
    exit 1
fi
was=$(sed -n '1s/.* SOVERSION \([^:]*\):.*/\1/p' "$list")
grep -v '^#' "$list" | sort -u > "$tmp/listed"
fail=0
if ! diff "$tmp/listed" "$tmp/now" > /dev/null; then
    echo "abi: $name exports other public symbols than $list lists:"
    comm -23 "$tmp/listed" "$tmp/now" | sed 's/^/  - /; s/$/   (listed, no longer exported)/'
    comm -13 "$tmp/listed" "$tmp/now" | sed 's/^/  + /; s/$/   (exported, not listed)/'
    if [ -n "$(comm -23 "$tmp/listed" "$tmp/now")" ]; then
        if [ "$was" = "$soversion" ]; then
            echo "A symbol removed, renamed or of another kind breaks the ABI: change the"
            echo "SONAME first (docs/library.md, \"ABI\": raise the minor version in"
            echo "project(VERSION) of CMakeLists.txt while it is 0.x, the major from 1.0),"
            echo "or keep the symbol.  Then write the list anew:"
            again="sh $0 --write NEW_SOVERSION $list $lib${base:+ $base}"
        else
            echo "The SONAME changed ($was -> $soversion): write the list anew:"
        fi
    else
        echo "Symbols added only: compatible, the SONAME stays; write the list anew:"
    fi
    echo "    $again"
    fail=1
elif [ "$was" != "$soversion" ]; then
    echo "abi: $list was written for SOVERSION $was, the library is $soversion: write it anew:"
    echo "    $again"
    fail=1
fi
[ $fail -eq 0 ] && echo "abi: $name exports the $(wc -l < "$tmp/now") public symbols $list lists (SOVERSION $soversion)"
exit $fail
