#!/usr/bin/env python3
"""report_cdp.py: drive headless Chromium over the DevTools protocol (its
pipe transport: JSON messages ending in NUL on file descriptors 3 and 4, so
the standard library is enough) to test `mmm report`'s page.

usage: report_cdp.py BROWSER PAGE.html WORKDIR [--shot PREFIX]

For a window 1400 and then 700 pixels wide it loads the page as it is
(its Content-Security-Policy included) and fails when
  - anything is logged to the console or the log (a script error, a blocked
    fetch, a refused inline script), or an exception is thrown;
  - the page requests anything but itself (no network, no other file);
  - the page's script did not run (it marks <html> with class "js");
  - a text of the page is drawn smaller than 11 pixels (the font size times
    the SVG's scale on screen, for the figures), the folded rows left out;
  - the page is wider than the window (wide tables and figures scroll
    inside themselves);
  - clicking a column header of the kernel table does not sort it (numbers
    compared as numbers, the order checked against the cells' values), or a
    second click does not reverse it;
  - a table of more than 50 rows is not folded to 50 shown rows with a
    "show all" button, or the button does not show them all;
  - a figure's zoom buttons do not change its size on screen;
and, with scripts off, when a row is hidden.
With --shot, PREFIX-1400-N.png and PREFIX-700-N.png are screenshots of the
whole page, one a window high.
Exit status 0 pass, 1 fail."""
import base64
import json
import os
import subprocess
import sys
import time


class Browser:
    def __init__(self, exe, workdir):
        r_ours, w_theirs = os.pipe()  # we read what it writes on fd 4
        r_theirs, w_ours = os.pipe()  # it reads what we write on fd 3
        args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--hide-scrollbars", "--remote-debugging-pipe",
                "--user-data-dir=" + os.path.join(workdir, "profile"), "about:blank"]

        def fds():  # in the child: its ends at 3 and 4 (inheritable)
            a, b = os.dup(r_theirs), os.dup(w_theirs)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False,
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(workdir, "chromium.log"), "w"))
        os.close(r_theirs)
        os.close(w_theirs)
        self.rd, self.wr = r_ours, w_ours
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.wr, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        while True:
            m = self.read()
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def read(self, deadline=60.0):
        end = time.time() + deadline
        while b"\0" not in self.buf:
            if time.time() > end:
                raise RuntimeError("no answer from the browser")
            chunk = os.read(self.rd, 1 << 20)
            if not chunk:
                raise RuntimeError("the browser closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def wait_event(self, name, deadline=60.0):
        for i, m in enumerate(self.events):
            if m.get("method") == name:
                del self.events[i]
                return m
        end = time.time() + deadline
        while time.time() < end:
            m = self.read(end - time.time())
            if m.get("method") == name:
                return m
            self.events.append(m)
        raise RuntimeError("no %s event" % name)

    def open(self, url):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        att = self.send("Target.attachToTarget",
                        {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = att["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            self.send(domain + ".enable")

    def navigate(self, url, width, height):
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.events = [m for m in self.events if m.get("method") != "Page.loadEventFired"]
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError("script failed: %s" % json.dumps(r["exceptionDetails"])[:600])
        return r["result"].get("value")

    def shot(self, prefix, height, most=12):
        """Screenshots of the whole page, one a window high: PREFIX-1.png..."""
        size = self.eval("[document.documentElement.scrollWidth,"
                         " document.documentElement.scrollHeight]")
        n = 0
        for y in range(0, min(size[1], most * height), height):
            n += 1
            r = self.send("Page.captureScreenshot",
                          {"format": "png", "captureBeyondViewport": True,
                           "clip": {"x": 0, "y": y, "width": size[0],
                                    "height": min(height, size[1] - y), "scale": 1}})
            with open("%s-%d.png" % (prefix, n), "wb") as f:
                f.write(base64.b64decode(r["data"]))

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# Run in the page (after it loaded, its own script done): everything the
# checks need, as one JSON-able object.  Clicks are synchronous.
PROBE = r"""
(function () {
  const out = {js: document.documentElement.classList.contains('js'), errors: []};
  const shown = el => el.getClientRects().length > 0;
  // Text smaller than 11 px on screen.
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || !shown(el)) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden') continue;
    let px = parseFloat(cs.fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      if (!m) continue;
      px *= Math.sqrt(m.a * m.a + m.b * m.b);
    }
    if (px < 10.95) small.push(px.toFixed(1) + ' px: ' + n.textContent.trim().slice(0, 40));
  }
  out.small = small.slice(0, 10);
  out.nsmall = small.length;
  out.width = document.documentElement.scrollWidth;
  out.window = window.innerWidth;
  // Sorting: the kernel table, by its W column, then reversed.
  const t = document.querySelector('#kernels table');
  const col = t ? [...t.tHead.rows[0].cells].findIndex(c => c.textContent.trim() === 'W') : -1;
  out.sort = 'no kernel table with a W column';
  if (t && col >= 0) {
    const vals = () => [...t.tBodies[0].rows].map(r => parseFloat(r.cells[col].dataset.v));
    const sorted = (a, dir) => a.every((v, i) => i === 0 || dir * (v - a[i - 1]) >= 0);
    const before = vals();
    t.tHead.rows[0].cells[col].click();
    const one = vals();
    const ariaOne = t.tHead.rows[0].cells[col].getAttribute('aria-sort');
    t.tHead.rows[0].cells[col].click();
    const two = vals();
    const ariaTwo = t.tHead.rows[0].cells[col].getAttribute('aria-sort');
    const same = (a, b) => a.length === b.length && [...a].sort((x, y) => x - y)
        .every((v, i, s) => v === [...b].sort((x, y) => x - y)[i]);
    if (one.some(isNaN)) out.sort = 'a W cell without a numeric data-v';
    else if (!same(before, one) || !same(before, two)) out.sort = 'sorting lost or changed rows';
    else if (!sorted(one, -1) || ariaOne !== 'descending')
      out.sort = 'first click: not descending by W (' + ariaOne + ')';
    else if (!sorted(two, 1) || ariaTwo !== 'ascending')
      out.sort = 'second click: not ascending by W (' + ariaTwo + ')';
    else out.sort = 'ok';
    // Text columns sort as text: the kernel column, ascending.
    t.tHead.rows[0].cells[0].click();
    const ids = [...t.tBodies[0].rows].map(r => r.cells[0].textContent);
    const want = [...ids].sort((a, b) => a.localeCompare(b, undefined, {numeric: true}));
    if (out.sort === 'ok' && ids.join('\n') !== want.join('\n'))
      out.sort = 'the kernel column does not sort by name';
    out.sorted_rows = one.length;
  }
  // Folding: every table of more than 50 rows shows 50, and its button all.
  out.fold = 'ok';
  out.folded = 0;
  for (const tab of document.querySelectorAll('table')) {
    const rows = tab.tBodies.length ? [...tab.tBodies[0].rows] : [];
    if (rows.length <= 50) continue;
    const vis = () => rows.filter(shown).length;
    const btn = tab.parentElement.querySelector('button.fold');
    if (vis() !== 50) { out.fold = 'a table of ' + rows.length + ' rows shows ' + vis(); break; }
    if (!btn || !/show all/.test(btn.textContent)) { out.fold = 'no "show all" button'; break; }
    btn.click();
    if (vis() !== rows.length) { out.fold = 'after "show all", ' + vis() + ' of ' + rows.length; break; }
    btn.click();
    if (vis() !== 50) { out.fold = 'folding again shows ' + vis(); break; }
    out.folded++;
  }
  // Zoom: the "+" of the first figure makes it larger on screen.
  out.zoom = 'no figure';
  const fig = document.querySelector('.figure svg');
  if (fig) {
    const tool = fig.closest('.fig').querySelector('.zoom button[data-z="in"]');
    const w0 = fig.getBoundingClientRect().width;
    if (!tool) out.zoom = 'no zoom button';
    else {
      tool.click();
      const w1 = fig.getBoundingClientRect().width;
      fig.closest('.fig').querySelector('.zoom button[data-z="out"]').click();
      const w2 = fig.getBoundingClientRect().width;
      out.zoom = w1 > w0 * 1.1 && Math.abs(w2 - w0) < 1 ? 'ok'
          : 'widths ' + w0.toFixed(0) + ', ' + w1.toFixed(0) + ', ' + w2.toFixed(0);
    }
  }
  // The roofline section: its figure and a table row per kernel.
  const roof = document.getElementById('roofline');
  out.roofline = roof ? {figures: roof.querySelectorAll('.figure svg').length,
                         rows: roof.querySelectorAll('tbody tr').length} : null;
  return out;
})()
"""


def main():
    exe, page, work = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    rest = sys.argv[4:]
    shot = rest[rest.index("--shot") + 1] if "--shot" in rest else None
    # --roofline: the page must have the roofline section (a machine was
    # given), with its figure and rows; else it must not
    want_roof = "--roofline" in rest
    url = "file://" + page
    b = Browser(exe, work)
    failures = []
    try:
        b.open(url)
        for width, height in ((1400, 1000), (700, 900)):
            b.events = []
            b.navigate(url, width, height)
            time.sleep(0.3)  # late console messages
            if shot:
                b.shot("%s-%d" % (shot, width), height)
            res = b.eval(PROBE)
            # Drain what came meanwhile.
            b.send("Runtime.evaluate", {"expression": "0"})
            for m in b.events:
                meth, p = m.get("method"), m.get("params", {})
                if meth == "Runtime.consoleAPICalled":
                    failures.append("%d px: console.%s: %s" % (width, p.get("type"), " ".join(
                        str(a.get("value", a.get("description", ""))) for a in p.get("args", []))))
                elif meth == "Runtime.exceptionThrown":
                    failures.append("%d px: exception: %s" % (
                        width, p.get("exceptionDetails", {}).get("exception", {})
                        .get("description", p.get("exceptionDetails", {}).get("text"))))
                elif meth == "Log.entryAdded":
                    e = p.get("entry", {})
                    failures.append("%d px: log (%s, %s): %s" % (width, e.get("source"),
                                                                  e.get("level"), e.get("text")))
                elif meth == "Network.requestWillBeSent":
                    u = p.get("request", {}).get("url", "")
                    if u != url and not u.startswith("data:"):
                        failures.append("%d px: a request for %s" % (width, u))
            if not res["js"]:
                failures.append("%d px: the page's script did not run" % width)
            if res["nsmall"]:
                failures.append("%d px: %d texts under 11 px, e.g. %s" % (
                    width, res["nsmall"], "; ".join(res["small"])))
            if res["width"] > res["window"]:
                failures.append("%d px: the page is %d px wide" % (width, res["width"]))
            roof = res.get("roofline")
            if want_roof and not (roof and roof["figures"] == 1 and roof["rows"] > 0):
                failures.append("%d px: no roofline section with a figure and rows: %r"
                                % (width, roof))
            elif not want_roof and roof is not None:
                failures.append("%d px: a roofline section without a machine" % width)
            for what in ("sort", "fold", "zoom"):
                if res[what] != "ok":
                    failures.append("%d px: %s: %s" % (width, what, res[what]))
            print("report_cdp: %d px: %d rows sorted, %d tables folded, text >= 11 px: %s, "
                  "page %d px wide" % (width, res.get("sorted_rows", 0), res["folded"],
                                       "yes" if not res["nsmall"] else "no", res["width"]))
        # Scripts off: every row shown, the figures at their natural size.
        b.send("Emulation.setScriptExecutionDisabled", {"value": True})
        b.navigate(url, 1400, 1000)
        plain = b.eval("[document.documentElement.classList.contains('js'),"
                       " [...document.querySelectorAll('tbody tr')]"
                       ".filter(r => !r.getClientRects().length).length,"
                       " document.querySelectorAll('button').length]")
        if plain != [False, 0, 0]:
            failures.append("scripts off: script ran %s, %d rows hidden, %d buttons"
                            % tuple(plain))
        else:
            print("report_cdp: scripts off: every row shown")
    finally:
        b.close()
    for f in failures:
        print("report_cdp: FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
