#!/usr/bin/env python3
"""The SVG that `seatmap render` writes, hit-tested by a real browser
(Debian chromium + chromium-driver, driven by Selenium): Chromium's
`elementFromPoint` must name the seat `seatmap hit` names, or no seat where
it says there is none. Probed where they could part: every point of a seat
number's or a seat mark's box that lies outside the seat's rect (labels such
as "BBB16" fitted to a round seat reach past its edge), just outside each
seat's edges, each seat's centre, and random points. Halls: pretix's demo
theatre (Tests/Fixtures/pretix), a pretix plan written here with long seat
labels on round seats one unit apart, and the example cinema (wheelchair and
companion marks); with the default flags and with
--zoom 1.37 --scale 2 --no-header --theme print.

    Tests/Browser/svg_hit_test.py --seatmap .build/debug/seatmap

Exit 0 when every probe agrees, 1 on a disagreement (the first few printed),
2 when the tools are missing.
"""
import argparse, json, os, random, re, subprocess, sys, tempfile

from chromium import SEAT_AT_POINTS, check, chrome, verdict

FLAG_SETS = [[], ["--zoom", "1.37", "--scale", "2", "--no-header", "--theme", "print"]]

# The boxes (page pixels, which are content pixels at device scale 1) of every
# seat's text and of every shape drawn after its first one (marks, rings), as
# the browser lays them out.
BOXES = """
var out = [];
document.querySelectorAll('g[id^="seat-"]').forEach(function (g) {
  var parts = Array.prototype.slice.call(g.querySelectorAll('text, use, path, rect, circle, ellipse'));
  parts.forEach(function (e, i) {
    if (e.tagName !== 'text' && i === 0) return;
    var b = e.getBoundingClientRect();
    out.push([g.id.slice(5), b.left + window.scrollX, b.top + window.scrollY, b.width, b.height]);
  });
});
return out;
"""

def long_labels_plan():
    """A pretix plan: three rows of round seats one unit apart, numbered with labels wider than a seat."""
    rows = []
    for r in range(3):
        seats = [{"seat_guid": "g-%d-%d" % (r, s), "seat_number": ("BBB%d" if r == 0 else "%d-28" if r == 1 else "%d%d%d") % ((s + 10,) if r < 2 else (s, s, s)),
                  "position": {"x": s * 21, "y": 0}, "category": "Main"} for s in range(14)]
        rows.append({"row_number": str(r + 1), "position": {"x": 30, "y": 30 + r * 21}, "seats": seats})
    return {"name": "Long labels", "categories": [{"name": "Main", "color": "#3366cc"}],
            "zones": [{"name": "Floor", "position": {"x": 0, "y": 0}, "rows": rows}], "size": {"width": 400, "height": 120}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--random", type=int, default=300, help="random probes per hall and flag set")
    a = ap.parse_args()
    seatmap = os.path.abspath(a.seatmap)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tmp = tempfile.mkdtemp(prefix="seatmap-svg-hit-")

    def run(*args, stdin=None):
        r = subprocess.run([seatmap, *args], input=stdin, capture_output=True, text=True)
        if r.returncode:
            print("seatmap %s exited %d: %s" % (" ".join(args[:2]), r.returncode, r.stderr.strip()[:400]), file=sys.stderr)
            sys.exit(1)
        return r.stdout

    plan = os.path.join(tmp, "long-labels-pretix.json")
    json.dump(long_labels_plan(), open(plan, "w"))
    halls = []
    for name, source in [("pretix-demo", os.path.join(root, "Tests/Fixtures/pretix/pretix-screenshots-plan-en.json")), ("long-labels", plan)]:
        out = os.path.join(tmp, name + ".json")
        run("import", "pretix", source, "--price", "10", "-o", out)
        halls.append((name, out))
    halls.append(("cinema", os.path.join(root, "Examples/cinema-12x18.json")))

    rng = random.Random(a.seed)
    driver = chrome(1200, 900)
    try:
        for name, hall in halls:
            for flags in FLAG_SETS:
                scale = float(flags[flags.index("--scale") + 1]) if "--scale" in flags else 2.0
                svg = os.path.join(tmp, name + ".svg")
                run("render", hall, "-o", svg, *flags)
                layout = json.loads(run("layout", hall, "--json", *flags))
                page = os.path.join(tmp, name + ".html")
                body = re.sub(r"^<\?xml[^>]*>", "", open(svg, encoding="utf-8").read().strip())
                open(page, "w", encoding="utf-8").write(
                    '<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0}svg{display:block}</style></head><body>%s</body></html>' % body)
                driver.get("file://" + page)
                by = {s["id"]: s for s in layout["seats"]}
                pts, reaching = [], 0
                # Every pixel centre of a label's or mark's box, and its extreme left and
                # right, that lies outside its seat's rect.
                for sid, bx, by_, bw, bh in driver.execute_script(BOXES):
                    s = by.get(sid)
                    if not s:
                        continue
                    xs = [px + 0.5 for px in range(int(bx), int(bx + bw) + 1)] + [bx + 0.25, bx + bw - 0.25]
                    ys = [py + 0.5 for py in range(int(by_), int(by_ + bh) + 1)]
                    for x in xs:
                        for y in ys:
                            if not (s["x"] <= x < s["x"] + s["w"] and s["y"] <= y < s["y"] + s["h"]) and 0 <= x < layout["width"] and 0 <= y < layout["height"]:
                                pts.append((x, y))
                                reaching += 1
                for s in layout["seats"]:
                    pts += [(s["x"] + s["w"] / 2, s["y"] + s["h"] / 2), (s["x"] - 0.5, s["y"] + s["h"] / 2), (s["x"] + s["w"] + 0.5, s["y"] + s["h"] / 2)]
                pts += [(rng.randrange(layout["width"]) + 0.5, rng.randrange(layout["height"]) + 0.5) for _ in range(a.random)]
                ours = json.loads(run("hit", hall, "--points-file", "-", "--json", *flags,
                                      stdin="".join("%r,%r\n" % (x / scale, y / scale) for x, y in pts)))
                browser = []
                for i in range(0, len(pts), 2000):
                    browser += driver.execute_script(SEAT_AT_POINTS, pts[i:i + 2000])
                bad, corners = [], 0
                for (x, y), b, o in zip(pts, browser, ours):
                    oid = o.get("id") if o.get("kind") == "seat" else None
                    if b is None and oid in by:
                        # The whole rect is the tap target: a rounded corner the browser leaves out is the seat.
                        s = by[oid]; q = min(s["w"], s["h"]) / 3
                        if min(x - s["x"], s["x"] + s["w"] - x) < q and min(y - s["y"], s["y"] + s["h"] - y) < q:
                            corners += 1
                            continue
                    if b != oid:
                        bad.append("(%s, %s): browser %s, seatmap hit %s" % (x, y, b, oid))
                what = "%s %s" % (name, " ".join(flags) or "(defaults)")
                check(len(pts) == len(browser) == len(ours), "%s: %d probes, %d browser answers, %d hit answers" % (what, len(pts), len(browser), len(ours)))
                check(not bad, "%s: %d of %d probes disagree, e.g. %s" % (what, len(bad), len(pts), "; ".join(bad[:5])))
                print("%s: %d of %d probes agree (%d on labels or marks past a seat's edge, %d rounded corners)" % (what, len(pts) - len(bad), len(pts), reaching, corners))
    finally:
        driver.quit()
    return verdict("svg hit test")


if __name__ == "__main__":
    sys.exit(main())
