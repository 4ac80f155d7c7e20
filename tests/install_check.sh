#!/bin/sh
# tests/install_check.sh BUILD_DIR [SANITIZE]: install a built tree into a
# fresh prefix and use it from outside, as a user would (ctest `install`;
# .ci/run runs it on a shared build too).
#
#   - the files: bin/mmm, include/mmm/*.h with the generated version.h,
#     libmmm (.a, or .so with its SONAME link), mmm.pc, the CMake package,
#     share/man/man1/mmm.1, the bash and zsh completions, README.md and
#     docs/ in share/doc/mmm, dags/ (examples, machine files, the XSD) in
#     share/mmm, and the drawing plugin under LIBDIR/mmm/;
#   - the man page's SYNOPSIS names every command of mmm --help, and every
#     path it names under the configured prefix is installed;
#   - one version everywhere: version.h, `mmm --version`, the man page,
#     pkg-config --modversion;
#   - `man -w mmm` finds the installed page from PATH alone;
#   - tests/consumer/consumer.c built with
#       cc consumer.c $(pkg-config --cflags --libs mmm)
#     and with find_package(mmm) (tests/consumer/CMakeLists.txt), each run
#     on dags/diamond.xml: it must print the version and the measures
#     worked out by hand in the file's comment (W=104 S=16 O=230 N=11 L=3
#     C=55 K=8); a shared build must link libmmm.so, a static one not;
#   - the same program with -DWITH_DRAW against mmm-draw (pkg-config and
#     mmm::draw) renders DOT;
#   - the C example of README.md builds with pkg-config (-Wall -Wextra
#     -Werror) and prints W = 104, S = 16 for diamond.xml;
#   - the installed binary draws (it finds its plugin under the prefix, the
#     build tree's is not beside it).
# SANITIZE (e.g. address,undefined) is passed to the consumer's compiler
# when the library was built with sanitizers.
set -eu
build=$(cd "$1" && pwd)
san=${2:-}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmm_install_XXXXXX")
trap 'rm -rf "$tmp"' EXIT
P=$tmp/prefix
fail() {
    echo "install_check: $*" >&2
    exit 1
}

cmake --install "$build" --prefix "$P" >/dev/null
unset MMM_DRAW_PLUGIN

pc=$(find "$P" -name mmm.pc | head -n 1)
[ -n "$pc" ] || fail "no mmm.pc installed"
pcdir=$(dirname "$pc")
libdir=$(dirname "$pcdir")
for f in bin/mmm include/mmm/mmm.h include/mmm/version.h include/mmm/export.h \
    share/man/man1/mmm.1 share/bash-completion/completions/mmm \
    share/zsh/site-functions/_mmm share/doc/mmm/README.md share/doc/mmm/docs/format.md \
    share/doc/mmm/docs/img share/mmm/mmm.xsd share/mmm/diamond.xml \
    share/mmm/machines/h100-fitted.xml share/mmm/cumodp/runs_stream.csv; do
    [ -e "$P/$f" ] || fail "missing $P/$f"
done
[ -f "$libdir/cmake/mmm/mmmConfig.cmake" ] || fail "no CMake package"
[ -f "$libdir/mmm/mmm-draw.so" ] || fail "no drawing plugin in $libdir/mmm"
shared=0
if [ -e "$libdir/libmmm.so" ]; then
    shared=1
    soname=$(readelf -d "$libdir/libmmm.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    [ -n "$soname" ] && [ -e "$libdir/$soname" ] || fail "libmmm.so has no SONAME file ($soname)"
    sh "$src/tests/check_symbols.sh" -I "$P/include" "$libdir/libmmm.so" \
        "$libdir/libmmm-draw.so" >/dev/null || fail "symbols of the installed .so"
else
    [ -f "$libdir/libmmm.a" ] || fail "neither libmmm.so nor libmmm.a in $libdir"
fi

# One version.
v=$(sed -n 's/^#define MMM_VERSION_STRING "\(.*\)"$/\1/p' "$P/include/mmm/version.h")
[ -n "$v" ] || fail "no MMM_VERSION_STRING"
[ "$("$P/bin/mmm" --version)" = "mmm $v" ] || fail "mmm --version is not mmm $v"
grep -q "\"mmm $v\"" "$P/share/man/man1/mmm.1" || fail "the man page does not say mmm $v"
export PKG_CONFIG_PATH="$pcdir"
[ "$(pkg-config --modversion mmm)" = "$v" ] || fail "pkg-config says $(pkg-config --modversion mmm)"
if command -v man >/dev/null 2>&1; then
    found=$(env -u MANPATH PATH="$P/bin:/usr/bin:/bin" man -w mmm 2>/dev/null || true)
    [ "$found" = "$P/share/man/man1/mmm.1" ] || fail "man -w mmm gives '$found'"
fi

# The man page lists every command in its SYNOPSIS and names installed
# paths: each one under the configured prefix exists in this install.
man1="$P/share/man/man1/mmm.1"
syn=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$man1")
for c in $("$P/bin/mmm" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
    printf '%s\n' "$syn" | grep -q "^\.B mmm $c\$" || fail "the man page's SYNOPSIS lacks mmm $c"
done
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
for f in $(sed 's/\\-/-/g' "$man1" | grep -o "$prefix/\(share\|lib\)/[^ )]*" | sed 's/[.,;:]$//' | sort -u); do
    [ -e "$P${f#"$prefix"}" ] || fail "the man page names $f, not installed"
done

want="mmm $v W=104 S=16 O=230 N=11 L=3 C=55 K=8"
sanflags=""
[ -n "$san" ] && sanflags="-fsanitize=$san"
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$tmp"
check_run() { # program, expected output
    out=$("./$1" "$src/dags/diamond.xml") || fail "$1 failed"
    [ "$out" = "$2" ] || fail "$1 printed '$out', expected '$2'"
    if [ $shared = 1 ]; then
        ldd "./$1" | grep -q "libmmm.so" || fail "$1 is not linked to libmmm.so"
    else
        ! ldd "./$1" | grep -q "libmmm" || fail "$1 links a shared libmmm"
    fi
}

# pkg-config.
# shellcheck disable=SC2046
cc -std=c11 $sanflags -o pc_consumer "$src/tests/consumer/consumer.c" \
    $(pkg-config --cflags --libs mmm) || fail "cc with pkg-config mmm"
check_run pc_consumer "$want"
# shellcheck disable=SC2046
cc -std=c11 $sanflags -DWITH_DRAW -o pc_consumer_draw "$src/tests/consumer/consumer.c" \
    $(pkg-config --cflags --libs mmm-draw) || fail "cc with pkg-config mmm-draw"
check_run pc_consumer_draw "$want dot=yes"

# The example of README.md ("Installing and using the library"), as a
# reader would copy it: built with pkg-config and strict warnings, run
# where diamond.xml is.
awk '/^## Installing and using the library/ {in_sec = 1; next}
     /^## / {in_sec = 0}
     in_sec && /^```c$/ {code = 1; next}
     code && /^```$/ {exit}
     code {print}' "$src/README.md" >readme_example.c
[ -s readme_example.c ] || fail "no C example in README.md's library section"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror $sanflags -o readme_example readme_example.c \
    $(pkg-config --cflags --libs mmm) || fail "README.md's example does not build"
cp "$src/dags/diamond.xml" diamond.xml
out=$(./readme_example) || fail "README.md's example failed"
[ "$out" = "libmmm $v: W = 104, S = 16" ] ||
    fail "README.md's example printed '$out', expected 'libmmm $v: W = 104, S = 16'"

# CMake package.
cmake -S "$src/tests/consumer" -B cm -DCMAKE_PREFIX_PATH="$P" \
    -DCMAKE_C_FLAGS="$sanflags" >cm.log 2>&1 || { cat cm.log; fail "find_package(mmm)"; }
cmake --build cm >>cm.log 2>&1 || { cat cm.log; fail "building against mmm::mmm"; }
cp cm/consumer cm_consumer
cp cm/consumer_draw cm_consumer_draw
check_run cm_consumer "$want"
check_run cm_consumer_draw "$want dot=yes"

# The installed binary draws with the installed plugin.
"$P/bin/mmm" render "$src/dags/diamond.xml" -o "$tmp/d.svg" || fail "installed mmm render"
grep -q '<svg' "$tmp/d.svg" || fail "installed mmm render wrote no SVG"

echo "install_check: $P ($( [ $shared = 1 ] && echo shared || echo static)): all good"
