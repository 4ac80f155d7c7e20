#!/bin/sh
# tests/nodraw_check.sh [BUILD_DIR]: a build without the drawing module
# (-DMMM_DRAWING=OFF, as when Graphviz is missing) builds, installs, and
# runs every command that does not draw; the drawing commands and options
# fail with a message that says why, exit status 1, and write nothing.
# .ci/run runs it.  BUILD_DIR defaults to build-nodraw (made here).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build-nodraw}
fail() {
    echo "nodraw_check: $*" >&2
    exit 1
}

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DMMM_DRAWING=OFF \
    -DMMM_BUILD_TESTS=OFF -DMMM_WERROR=ON >/dev/null
cmake --build "$build" -j2 >/dev/null
mmm=$build/mmm
[ ! -e "$build/mmm-draw.so" ] || fail "a plugin was built"
# (cgraph alone may be linked: the DOT readers, when it is found.)
if ldd "$mmm" | grep -E 'gvc|plplot|cairo|pango'; then
    fail "mmm links drawing libraries"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmm_nodraw_XXXXXX")
trap 'rm -rf "$tmp"' EXIT
d=$src/dags/diamond.xml

# What does not draw works.
"$mmm" analyze "$d" >/dev/null || fail "analyze"
"$mmm" compare "$d" "$d" >/dev/null || fail "compare"
"$mmm" simulate "$d" -p 2 >/dev/null || fail "simulate"
"$mmm" optimize "$src/dags/poly_div_opt.xml" --param s >/dev/null || fail "optimize"
"$mmm" render --help >/dev/null || fail "render --help"

# What draws says so: exit 1, one message naming the cause, no file.
expect_refusal() { # what, command...
    what=$1
    shift
    if "$@" >/dev/null 2>"$tmp/err"; then
        fail "$what succeeded without the drawing module"
    else
        rc=$?
    fi
    [ "$rc" -eq 1 ] || fail "$what: exit status $rc, expected 1"
    grep -q 'built without' "$tmp/err" || {
        cat "$tmp/err"
        fail "$what: the message does not say why"
    }
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || {
        cat "$tmp/err"
        fail "$what: more than one line of message"
    }
}
expect_refusal render "$mmm" render "$d" -o "$tmp/x.svg"
expect_refusal report "$mmm" report "$d" -o "$tmp/x.html"
expect_refusal "simulate --gantt" "$mmm" simulate "$d" -p 2 --gantt "$tmp/g.svg"
expect_refusal "optimize --plot" "$mmm" optimize "$src/dags/poly_div_opt.xml" \
    --param s --plot "$tmp/p.svg"
[ -z "$(ls "$tmp" | grep -v '^err$')" ] || fail "a drawing command left a file: $(ls "$tmp")"

# It installs without the drawing pieces.
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
[ -n "$(find "$tmp/prefix" -name mmm.pc)" ] || fail "no mmm.pc"
[ -z "$(find "$tmp/prefix" -name 'mmm-draw*')" ] || fail "drawing files installed"
echo "nodraw_check: the build without the drawing module is good"
