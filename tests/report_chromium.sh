#!/bin/sh
# report_chromium.sh MMM_BIN DAG_FILE: open `mmm report` of DAG_FILE in
# headless Chromium and check that
#   - the page loads with no console message at all (the page has no script,
#     so any message is an error: a blocked fetch, a parse error...);
#   - the DOM after loading holds the inline SVG of the DAG with every kernel;
#   - in a window 600 pixels wide the page is no wider than the window
#     (wide tables scroll inside themselves);
#   - a screenshot shows the DAG: pixels of the critical-path blue and of the
#     node fill palette are there (counted with python3, no packages).
# Exit status: 0 pass, 1 fail, 77 skipped (no Chromium).  Without python3
# the screenshot is only checked for size.
set -u

MMM=${1:?usage: report_chromium.sh MMM_BIN DAG_FILE}
DAG=${2:?usage: report_chromium.sh MMM_BIN DAG_FILE}

BROWSER=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        BROWSER=$b
        break
    fi
done
if [ -z "$BROWSER" ]; then
    echo "report_chromium: SKIP: no chromium (apt-get install -y chromium)" >&2
    exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mmm-chromium-XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT INT TERM

fail() {
    echo "report_chromium: FAIL: $*" >&2
    exit 1
}

"$MMM" report "$DAG" -o "$WORK/report.html" || fail "mmm report exited with $?"

# Flags: no sandbox (containers), no GPU, nothing in the background that
# would reach the network, a fresh profile.
run_browser() {
    timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --disable-extensions --hide-scrollbars \
        --user-data-dir="$WORK/profile" --enable-logging=stderr --v=0 "$@"
}

run_browser --dump-dom "file://$WORK/report.html" >"$WORK/dom.html" 2>"$WORK/dom.log" ||
    fail "chromium --dump-dom failed: $(tail -3 "$WORK/dom.log")"
if grep -E 'CONSOLE|Uncaught' "$WORK/dom.log" >"$WORK/console.txt"; then
    cat "$WORK/console.txt" >&2
    fail "console messages while loading the report"
fi
grep -q '<svg' "$WORK/dom.html" || fail "no inline SVG in the loaded page"
for id in $("$MMM" analyze "$DAG" --format csv | tail -n +2 | cut -d, -f1); do
    grep -q "<title>$id</title>" "$WORK/dom.html" || fail "kernel $id is not in the DAG"
done

# A narrow window (600 pixels, a phone or half a laptop screen): the page
# never grows wider than the window; a wide table scrolls inside itself.
# A copy of the page without its script-forbidding policy measures it.
sed -e '/Content-Security-Policy/d' \
    -e 's|</body>|<script>document.body.setAttribute("data-fit", document.documentElement.scrollWidth <= window.innerWidth ? "fits" : "overflow " + document.documentElement.scrollWidth + " > " + window.innerWidth);</script></body>|' \
    "$WORK/report.html" >"$WORK/narrow.html"
run_browser --window-size=600,800 --dump-dom "file://$WORK/narrow.html" \
    >"$WORK/narrow_dom.html" 2>/dev/null || fail "chromium --dump-dom (narrow) failed"
fit=$(grep -o 'data-fit="[^"]*"' "$WORK/narrow_dom.html")
[ "$fit" = 'data-fit="fits"' ] || fail "600 pixels wide, the page does not fit: $fit"

run_browser --window-size=1100,1100 --screenshot="$WORK/shot.png" \
    "file://$WORK/report.html" >/dev/null 2>"$WORK/shot.log" ||
    fail "chromium --screenshot failed: $(tail -3 "$WORK/shot.log")"
[ -s "$WORK/shot.png" ] || fail "no screenshot"

if ! command -v python3 >/dev/null 2>&1; then
    # Without python3 the pixels cannot be counted: a blank 1100x1100
    # screenshot compresses to a few kilobytes, the report to far more.
    size=$(wc -c <"$WORK/shot.png")
    [ "$size" -gt 30000 ] || fail "the screenshot is nearly blank ($size bytes)"
    echo "report_chromium: OK ($BROWSER, $DAG; no python3: screenshot size only)"
    exit 0
fi
python3 - "$WORK/shot.png" <<'EOF' || fail "the screenshot does not show the DAG"
import struct, sys, zlib

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG kind"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = read_png(sys.argv[1])
want = {"span path": (0x21, 0x66, 0xac)}
palette = ["ffffcc", "ffeda0", "fed976", "feb24c", "fd8d3c", "fc4e2a", "e31a1c", "bd0026", "800026"]
counts, fills, ink = {k: 0 for k in want}, 0, 0
pal = {tuple(int(p[i:i + 2], 16) for i in (0, 2, 4)) for p in palette}
for line in rows:
    for x in range(0, w * bpp, bpp):
        px = tuple(line[x:x + 3])
        if px != (255, 255, 255):
            ink += 1
        if px in pal:
            fills += 1
        for k, v in want.items():
            if px == v:
                counts[k] += 1
print("screenshot %dx%d: %d non-white pixels, %d node-fill pixels, %d critical-path pixels"
      % (w, h, ink, fills, counts["span path"]))
sys.exit(0 if ink > 0.01 * w * h and fills > 500 and counts["span path"] > 100 else 1)
EOF
echo "report_chromium: OK ($BROWSER, $DAG)"
