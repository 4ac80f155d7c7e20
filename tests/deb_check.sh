#!/bin/sh
# tests/deb_check.sh PACKAGE.deb: the Debian package of `cpack -G DEB` (a
# build configured with -DCMAKE_INSTALL_PREFIX=/usr; .ci/run makes and
# checks one) holds what a user needs and works unpacked:
#
#   - its control fields: Package mmm, Depends naming the libraries the
#     binary and the plugin load (libxml2, jansson, Graphviz's gvc and
#     cgraph, PLplot, libc);
#   - its file list: the binary, the drawing plugin, the man page, both
#     completions, README.md and docs/ in /usr/share/doc/mmm, dags/ (example
#     programs, machine files, the XSD) in /usr/share/mmm, the headers,
#     libmmm, mmm.pc, the CMake package;
#   - unpacked into a scratch root (dpkg -x): the installed mmm analyzes an
#     installed example (diamond.xml: the measures its comment works out by
#     hand, W=104 S=16 O=230 N=11 L=3 C=55 K=8), draws with the installed
#     plugin, and `man -l` formats the installed page, which names the
#     installed documentation.
set -eu
deb=$1
fail() {
    echo "deb_check: $*" >&2
    exit 1
}
[ -f "$deb" ] || fail "no package $deb"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmm_deb_XXXXXX")
trap 'rm -rf "$tmp"' EXIT

[ "$(dpkg-deb -f "$deb" Package)" = mmm ] || fail "the package is not named mmm"
deps=$(dpkg-deb -f "$deb" Depends)
for lib in libxml2 libjansson libgvc libcgraph libplplot libc6; do
    printf '%s\n' "$deps" | grep -q "$lib" || fail "Depends lacks $lib: $deps"
done

dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$tmp/list"
for f in /usr/bin/mmm /usr/share/man/man1/mmm.1 \
    /usr/share/bash-completion/completions/mmm /usr/share/zsh/vendor-completions/_mmm \
    /usr/share/doc/mmm/README.md /usr/share/doc/mmm/docs/format.md \
    /usr/share/doc/mmm/docs/library.md /usr/share/mmm/mmm.xsd /usr/share/mmm/diamond.xml \
    /usr/share/mmm/machines/h100-fitted.xml /usr/share/mmm/cumodp/mul.xml \
    /usr/include/mmm/mmm.h /usr/include/mmm/version.h; do
    grep -qx "$f" "$tmp/list" || fail "the package lacks $f"
done
for pat in '/mmm/mmm-draw\.so$' '/libmmm\.a$' '/pkgconfig/mmm\.pc$' '/cmake/mmm/mmmConfig\.cmake$'; do
    grep -q "$pat" "$tmp/list" || fail "the package lacks a file matching $pat"
done

root=$tmp/root
dpkg -x "$deb" "$root"
mmm=$root/usr/bin/mmm
out=$("$mmm" analyze "$root/usr/share/mmm/diamond.xml" --format csv --totals) ||
    fail "the installed mmm cannot analyze the installed diamond.xml"
for kv in W,104 S,16 O,230 N,11 L,3 C,55 K,8; do
    printf '%s\n' "$out" | grep -qx "$kv" || fail "analyze gives no $kv: $out"
done
"$mmm" render "$root/usr/share/mmm/diamond.xml" -o "$tmp/d.svg" ||
    fail "the installed mmm does not draw"
grep -q '<svg' "$tmp/d.svg" || fail "render wrote no SVG"
if command -v man >/dev/null 2>&1; then
    page=$(MANWIDTH=200 man -l "$root/usr/share/man/man1/mmm.1" 2>/dev/null) ||
        fail "man -l cannot format the installed page"
    printf '%s\n' "$page" | grep -q '/usr/share/doc/mmm/docs/library.md' ||
        fail "the man page does not name /usr/share/doc/mmm/docs/library.md"
    printf '%s\n' "$page" | grep -q 'mmm fit' || fail "the man page lacks mmm fit"
fi
echo "deb_check: $(basename "$deb"): $(wc -l <"$tmp/list") entries, Depends: $deps: all good"
