#!/usr/bin/env python3
"""The picker's weight and speed in headless Chromium (seatmap-bench runs it;
it is not a test): against a running `seatmap serve` and one of its halls,

- bytes on the wire: the show's picker page and its statuses, gzipped as the
  service sends them to a browser;
- first contentful paint of the page (median of --loads loads, desktop
  1440 x 900);
- frames per second while panning zoomed out, 1.2 s after the view settles (twice the fitted scale, where a
  big hall shows its sections), with seats shown (the first zoom at which
  seats are drawn) and at a readable zoom (seats of 24 CSS px, their numbers
  drawn), from requestAnimationFrame timestamps while the page's own
  pointer handlers pan it every frame for --seconds.

    picker_perf.py --base http://127.0.0.1:PORT --hall NAME

Prints one JSON object: pageBytes, statusBytes, fcpMs, fpsOverview,
worstFrameOverviewMs, worstFrameAfterDropOverviewMs (the longest of the
frames after the pointer is released), and the same three for Seats and Readable. Exit 2 when the tools are
missing.
"""
import argparse, json, shutil, statistics, sys, urllib.request

from chromium import chrome

PAN = """
var done = arguments[arguments.length - 1], seconds = arguments[0], factor = arguments[1];
var root = document.querySelector('[data-seatmap-picker]'), api = root.seatmap, stage = root.querySelector('.seatmap-stage');
api.fit();
var v = api.view();
if (factor === 'seats' || factor === 'readable') {
  // seats: the first zoom at which seats are drawn; readable: seats of 24 CSS px, numbers drawn.
  var want = factor === 'seats' ? 8 : 24;
  while (api.view().k * v.seat < want && api.view().k < v.kMax) api.zoom(1.25);
} else {
  api.zoom(factor);
}
var r = stage.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2, dir = 1, travelled = 0;
function ev(type) { stage.dispatchEvent(new PointerEvent(type, {pointerId: 7, bubbles: true, clientX: x, clientY: y, pointerType: 'mouse', buttons: 1})); }
setTimeout(function () {
  ev('pointerdown');
  var times = [], t0 = performance.now();
  function frame(t) {
    times.push(t);
    travelled += 9;
    if (travelled > r.width / 3) { dir = -dir; travelled = 0; }
    x += 9 * dir; y += 2 * dir;
    ev('pointermove');
    if (t - t0 < seconds * 1000) requestAnimationFrame(frame);
    else {
      // The frames after the drop: the live drawing is put back.
      ev('pointerup');
      var after = [], n = 0;
      (function more(t2) { after.push(t2); if (++n < 12) requestAnimationFrame(more); else done({times: times, after: after}); })(performance.now());
    }
  }
  requestAnimationFrame(frame);
}, 1200);
"""


def fetch(url, gzip=True):
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip else {})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.headers.get("Content-Encoding"), r.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--hall", required=True)
    ap.add_argument("--loads", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=3)
    a = ap.parse_args()
    req = urllib.request.Request(a.base + "/shows/bench", method="POST", data=json.dumps({"hall": a.hall}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=60).read()
    except urllib.error.HTTPError as e:
        if e.code != 200:
            raise
    page_enc, page = fetch(a.base + "/shows/bench/picker")
    seats_enc, seats = fetch(a.base + "/shows/bench/seats")
    out = {"pageBytes": len(page), "statusBytes": len(seats), "gzip": page_enc == "gzip" and seats_enc == "gzip"}

    d = chrome(1440, 900)
    try:
        d.set_script_timeout(60)
        fcps = []
        for _ in range(a.loads):
            d.get("about:blank")
            d.get(a.base + "/shows/bench/picker")
            fcp = d.execute_async_script("""
                var done = arguments[arguments.length - 1];
                function look() { var p = performance.getEntriesByName('first-contentful-paint')[0]; if (p) done(p.startTime); else setTimeout(look, 20); }
                look();""")
            fcps.append(fcp)
        out["fcpMs"] = statistics.median(fcps)
        for name, factor in [("Overview", 2), ("Seats", "seats"), ("Readable", "readable")]:
            got = d.execute_async_script(PAN, a.seconds, factor)
            times, after = got["times"], got["after"]
            gaps = [t2 - t1 for t1, t2 in zip(times, times[1:])]
            out["worstFrameAfterDrop" + name + "Ms"] = max(t2 - t1 for t1, t2 in zip(after, after[1:]))
            out["fps" + name] = (len(times) - 1) / ((times[-1] - times[0]) / 1000) if len(times) > 1 else 0
            out["worstFrame" + name + "Ms"] = max(gaps) if gaps else 0
    finally:
        d.quit()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
