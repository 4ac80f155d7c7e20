#!/bin/sh
# tests/startup_check.sh MMM DAGS_DIR: the commands that do not draw (and
# read no DOT file) load
# none of Graphviz, PLplot, cairo, pango or the drawing plugin; the drawing
# ones load the plugin (ctest `startup`).  Which shared objects a process
# opens is read from the dynamic loader's own trace (LD_DEBUG=files), so
# this checks what is loaded, not how long it takes (bench/bench_startup.sh
# measures that).
set -eu
mmm=$1
dags=$2
src_data=$(cd "$(dirname "$0")" && pwd)/data
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmm_startup_XXXXXX")
trap 'rm -rf "$tmp"' EXIT
drawing='mmm-draw\.so|libgvc|libcgraph|libplplot|libcairo|libpango'
status=0
loads() { # name, command...: the objects the command's process opens
    name=$1
    shift
    LD_DEBUG=files "$@" >/dev/null 2>"$tmp/$name.trace" || {
        echo "startup_check: '$*' failed"
        cat "$tmp/$name.trace" | grep -v '^ *[0-9]*:' || true
        status=1
    }
    grep -o 'file=[^ ]*' "$tmp/$name.trace" | sort -u > "$tmp/$name.files" || true
}
d=$dags/diamond.xml
loads analyze "$mmm" analyze "$d"
loads compare "$mmm" compare "$d" "$d"
loads simulate "$mmm" simulate "$d" -p 2
loads optimize "$mmm" optimize "$dags/poly_div_opt.xml" --param s
loads scale "$mmm" scale "$d"
loads convert "$mmm" convert "$src_data/import/hand/graph.stg" -o "$tmp/g.xml"
loads help "$mmm" render --help
loads render "$mmm" render "$d" -o "$tmp/x.svg"
loads dot "$mmm" convert "$src_data/import/hand/graph.dot" -o "$tmp/g2.xml"
for c in analyze compare simulate optimize scale convert help; do
    [ -s "$tmp/$c.files" ] || { echo "startup_check: no loader trace for $c"; status=1; }
    if grep -E "$drawing" "$tmp/$c.files"; then
        echo "startup_check: '$c' loads drawing libraries (above)"
        status=1
    fi
done
grep -q 'mmm-draw\.so' "$tmp/render.files" || {
    echo "startup_check: render did not load the drawing plugin"
    status=1
}
if grep -q 'libcgraph' "$tmp/dot.files"; then
    grep -q 'mmm-draw\.so' "$tmp/dot.files" || {
        echo "startup_check: the DOT reader did not come from the plugin"
        status=1
    }
fi
grep -q 'libgvc' "$tmp/render.files" || {
    echo "startup_check: render did not load Graphviz"
    status=1
}
[ $status -eq 0 ] && echo "startup_check: only render and the DOT reader loaded the drawing module"
exit $status
