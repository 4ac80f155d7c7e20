#!/bin/sh
# report_chromium.sh MMM_BIN DAG_FILE: open `mmm report` pages in headless
# Chromium and check that
#   - the policy's 'sha256-...' is the hash of the page's one script
#     (computed again with Python's hashlib);
#   - the DOM after loading holds the inline SVG of DAG_FILE's DAG with
#     every kernel;
#   - a screenshot shows the DAG: pixels of the critical-path blue and of the
#     node fill palette are there (counted with python3, no packages);
#   - for DAG_FILE's page and for the page of a generated task graph of 240
#     tasks on 4 SMs (bench/gen_taskgraph.py: a kernel table of 240 rows, a
#     Gantt chart), in windows 1400 and 700 pixels wide
#     (tests/report_cdp.py, the DevTools protocol over a pipe): nothing on
#     the console or the log, no request but the page itself, the page's
#     script ran, no text under 11 pixels on screen, the page no wider than
#     the window, a click on a header sorts the kernel table (numbers as
#     numbers, a second click reverses), a table of more than 50 rows shows
#     50 and its "show all" button all of them, a figure's zoom buttons
#     zoom; with scripts off, every row shown; and a page of a GPU program
#     with a machine file: its roofline section (figure and rows), absent
#     from the other two.
# MMM_SHOTS=DIR keeps screenshots of both pages, a window high each, in DIR.
# Exit status: 0 pass, 1 fail, 77 skipped (no Chromium or no python3).
set -u

MMM=${1:?usage: report_chromium.sh MMM_BIN DAG_FILE}
DAG=${2:?usage: report_chromium.sh MMM_BIN DAG_FILE}
HERE=$(cd "$(dirname "$0")" && pwd)

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
if ! command -v python3 >/dev/null 2>&1; then
    echo "report_chromium: SKIP: no python3" >&2
    exit 77
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mmm-chromium-XXXXXX") || exit 1
trap 'rm -rf "$WORK"' EXIT INT TERM

fail() {
    echo "report_chromium: FAIL: $*" >&2
    exit 1
}

"$MMM" report "$DAG" -o "$WORK/report.html" || fail "mmm report exited with $?"
python3 - "$WORK/report.html" <<'EOF' || fail "the policy does not allow the page's script"
import base64, hashlib, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
policy = re.search(r"script-src '(sha256-[^']+)'", page)
want = "sha256-" + base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
sys.exit(0 if len(scripts) == 1 and policy and policy.group(1) == want else 1)
EOF

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
grep -q '<html lang="en" class="js">' "$WORK/dom.html" ||
    fail "the page's script did not run (refused by the policy?)"
for id in $("$MMM" analyze "$DAG" --format csv | tail -n +2 | cut -d, -f1); do
    grep -q "<title>$id</title>" "$WORK/dom.html" || fail "kernel $id is not in the DAG"
done

run_browser --window-size=1100,1100 --screenshot="$WORK/shot.png" \
    "file://$WORK/report.html" >/dev/null 2>"$WORK/shot.log" ||
    fail "chromium --screenshot failed: $(tail -3 "$WORK/shot.log")"
[ -s "$WORK/shot.png" ] || fail "no screenshot"

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

# The pages in use: DAG_FILE's, and a task graph's with tables to fold.
python3 "$HERE/../bench/gen_taskgraph.py" wfcommons 240 "$WORK/tasks.json" 3 ||
    fail "bench/gen_taskgraph.py failed"
"$MMM" report "$WORK/tasks.json" -p 4 -o "$WORK/tasks.html" ||
    fail "mmm report of the task graph exited with $?"
# A GPU program with a machine file: the roofline section (absent from the
# other two pages).
"$MMM" report "$HERE/../dags/gpu/scan.xml" --machine "$HERE/../dags/machines/h100-fitted.xml" \
    --no-sweep -o "$WORK/gpu.html" || fail "mmm report of scan.xml exited with $?"
for page in report tasks gpu; do
    set --
    [ -n "${MMM_SHOTS:-}" ] && set -- --shot "$MMM_SHOTS/$page"
    [ "$page" = gpu ] && set -- "$@" --roofline
    timeout 300 python3 "$HERE/report_cdp.py" "$BROWSER" "$WORK/$page.html" "$WORK" "$@" ||
        fail "$page.html in use (tests/report_cdp.py)"
done
echo "report_chromium: OK ($BROWSER, $DAG, a task graph of 240 tasks, scan.xml on an H100)"

