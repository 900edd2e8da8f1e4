#!/usr/bin/env python3
"""The QA tools as another team uses them, in a real browser (Debian
chromium + chromium-driver, Selenium and axe-core from PyPI):

- `seatmap probes`: 600 taps on the example cinema with
  --zoom 1.37 --scale 2 --no-header --theme print (and on pretix's demo
  theatre, a free venue, with the default flags); `seatmap hit` with the same
  flags names every probe's seat, and Chromium's `elementFromPoint` on the
  SVG `render` draws names it too, except at seat corners (kind `corner`:
  the whole rect is the tap target, the drawn seat has rounded corners).
- `seatmap verify-taps --report`: an app's answers with some wrong; the page
  shows the map and marks each wrong tap (one mark per wrong answer, at the
  tap), lists them, and axe finds no violation.
- `seatmap diff OLD_DIR NEW_DIR --report`: a folder with one image changed,
  one added and one removed; the page lists the changed one first with old,
  new, diff and a slider between them, then the unchanged and
  one-sided files; axe finds no violation.

Screenshots of both pages go to --shots.

    Tests/Browser/qa_tools_test.py --seatmap .build/debug/seatmap

Exit 0 when every check passes, 1 on a failure, 2 when the tools are missing.
"""
import argparse, json, os, re, subprocess, sys, tempfile

from chromium import SEAT_AT_POINTS, By, axe_source, check, chrome, run_axe, verdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FLAGS = ["--zoom", "1.37", "--scale", "2", "--no-header", "--theme", "print"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--shots", default=os.path.join(ROOT, ".build", "browser-screenshots"))
    a = ap.parse_args()
    seatmap = os.path.abspath(a.seatmap)
    os.makedirs(a.shots, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="seatmap-qa-")

    def run(*args, stdin=None, codes=(0,)):
        r = subprocess.run([seatmap, *args], input=stdin, capture_output=True, text=True)
        if r.returncode not in codes:
            print("seatmap %s exited %d: %s" % (" ".join(args[:2]), r.returncode, r.stderr.strip()[:400]), file=sys.stderr)
            sys.exit(1)
        return r.stdout

    pretix = os.path.join(tmp, "pretix-demo.json")
    run("import", "pretix", os.path.join(ROOT, "Tests/Fixtures/pretix/pretix-screenshots-plan-en.json"), "--price", "10", "-o", pretix)
    cinema = os.path.join(ROOT, "Examples/cinema-12x18.json")
    driver = chrome(1280, 900)
    try:
        # 1. Probes: hit and Chromium agree with their truth.
        for name, hall, flags in [("cinema", cinema, FLAGS), ("pretix-demo", pretix, [])]:
            scale = float(flags[flags.index("--scale") + 1]) if "--scale" in flags else 2.0
            probes = json.loads(run("probes", hall, "--count", "600", "--seed", "7", "--json", *flags))
            again = json.loads(run("probes", hall, "--count", "600", "--seed", "7", "--json", *flags))
            check(probes == again, "%s: the same seed gave other probes" % name)
            kinds = {p["kind"] for p in probes}
            wanted = {"centre", "edge", "corner", "gap", "outside", "random"} | ({"aisle"} if name == "cinema" else set())
            check(wanted <= kinds, "%s: probe kinds %s, missing %s" % (name, sorted(kinds), sorted(wanted - kinds)))
            text = run("probes", hall, "--count", "600", "--seed", "7", *flags)
            taps = "".join(line.split(" ")[0] + "\n" for line in text.splitlines())
            ours = json.loads(run("hit", hall, "--points-file", "-", "--json", *flags, stdin=taps))
            hit_bad = [(p, o) for p, o in zip(probes, ours) if (o.get("id") if o.get("kind") == "seat" else None) != p["seat"]]
            check(len(ours) == len(probes) and not hit_bad, "%s: hit disagrees with %d probes, e.g. %s" % (name, len(hit_bad), hit_bad[:3]))
            svg = os.path.join(tmp, name + ".svg")
            run("render", hall, "-o", svg, *flags)
            page = os.path.join(tmp, name + ".html")
            body = re.sub(r"^<\?xml[^>]*>", "", open(svg, encoding="utf-8").read().strip())
            open(page, "w", encoding="utf-8").write(
                '<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0}svg{display:block}</style></head><body>%s</body></html>' % body)
            driver.get("file://" + page)
            # View points are content pixels / scale; the SVG is drawn in content pixels.
            browser = driver.execute_script(SEAT_AT_POINTS, [[p["x"] * scale, p["y"] * scale] for p in probes])
            bad, corners = [], 0
            for p, b in zip(probes, browser):
                if b == p["seat"]:
                    continue
                if p["kind"] == "corner" and b is None:
                    corners += 1
                    continue
                bad.append("%s (%s, %s): browser %s, probe %s" % (p["kind"], p["x"], p["y"], b, p["seat"]))
            check(not bad, "%s: Chromium disagrees with %d of %d probes, e.g. %s" % (name, len(bad), len(probes), "; ".join(bad[:5])))
            print("%s %s: hit agrees with all %d probes, Chromium with all but %d corners; kinds %s"
                  % (name, " ".join(flags) or "(defaults)", len(probes), corners, ", ".join("%s %d" % (k, sum(p["kind"] == k for p in probes)) for k in sorted(kinds))))

        axe = axe_source()
        # 2. verify-taps: an app that is wrong on every 9th seat tap and on one gap tap.
        probes = json.loads(run("probes", cinema, "--count", "120", "--seed", "3", "--json", *FLAGS))
        answers, wrong = [], []
        for i, p in enumerate(probes):
            seat = p["seat"]
            if seat and i % 9 == 0:
                seat = "1-1-1" if seat != "1-1-1" else "1-1-2"
                wrong.append(i)
            elif p["kind"] == "gap" and not any(probes[j]["kind"] == "gap" for j in wrong):
                seat = "1-5-5"
                wrong.append(i)
            answers.append(json.dumps({"x": p["x"], "y": p["y"], "seat": seat}))
        ans = os.path.join(tmp, "answers.jsonl")
        open(ans, "w").write("\n".join(answers) + "\n")
        report = os.path.join(tmp, "taps.html")
        out = json.loads(run("verify-taps", cinema, *FLAGS, "--answers", ans, "--report", report, "--json", codes=(1,)))
        check(out["checked"] == len(probes) and len(out["disagree"]) == len(wrong),
              "verify-taps: %d checked, %d wrong, expected %d and %d" % (out["checked"], len(out["disagree"]), len(probes), len(wrong)))
        driver.set_window_size(1280, 1100)
        driver.get("file://" + report)
        marks = driver.execute_script("""return Array.from(document.querySelectorAll('.taps circle.ring')).map(c => {
            const r = c.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; });""")
        rows = driver.find_elements(By.CSS_SELECTOR, "table tbody tr")
        check(len(marks) == len(wrong) and len(rows) == len(wrong), "taps report: %d marks, %d rows for %d wrong answers" % (len(marks), len(rows), len(wrong)))
        # Each mark sits over the seat (or gap) its tap lands on in the drawn map.
        first = probes[wrong[0]]
        hit_at = driver.execute_script("""document.querySelector('.taps circle.dot').scrollIntoView({block: 'center', inline: 'center'});
            const c = document.querySelector('.taps circle.dot').getBoundingClientRect();
            document.querySelector('.taps').style.display = 'none';
            let e = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
            document.querySelector('.taps').style.display = '';
            while (e && !(e.id || '').startsWith('seat-') && e.tagName.toLowerCase() !== 'svg') e = e.parentElement || e.parentNode;
            return e && (e.id || '').startsWith('seat-') ? e.id.slice(5) : null;""")
        check(hit_at == first["seat"] or first["kind"] == "corner", "taps report: the first mark is over %s, its tap is on %s" % (hit_at, first["seat"]))
        check(run_axe(driver, axe, "verify-taps report") == 0, "verify-taps report: axe violations")
        driver.save_screenshot(os.path.join(a.shots, "verify-taps-report.png"))

        # 3. diff OLD_DIR NEW_DIR --report.
        old, new = os.path.join(tmp, "old"), os.path.join(tmp, "new")
        os.makedirs(os.path.join(old, "themes")); os.makedirs(os.path.join(new, "themes"))
        seed = os.path.join(ROOT, "Examples/seed.json")
        run("render", seed, "-o", os.path.join(old, "plain.png"))
        run("render", seed, "-o", os.path.join(new, "plain.png"))
        run("render", seed, "-o", os.path.join(old, "themes/dark.png"), "--theme", "dark")
        run("render", seed, "-o", os.path.join(new, "themes/dark.png"), "--theme", "dark", "--select", "1-1-3")
        run("render", seed, "-o", os.path.join(old, "removed.png"), "--theme", "print")
        run("render", seed, "-o", os.path.join(new, "added.png"), "--theme", "high-contrast")
        review = os.path.join(tmp, "review.html")
        lines = run("diff", old, new, "--report", review, codes=(1,)).splitlines()
        check(lines[0].startswith("changed themes/dark.png"), "diff: the first line is %r" % lines[0])
        driver.get("file://" + review)
        headings = [h.text for h in driver.find_elements(By.CSS_SELECTOR, "h2, h3")]
        check(headings[:2] == ["Changed", "themes/dark.png"], "diff report: headings %s" % headings)
        check(any("Added" in h for h in headings) and any("Removed" in h for h in headings) and "Unchanged" in headings,
              "diff report: headings %s" % headings)
        figs = driver.find_elements(By.CSS_SELECTOR, ".image img")
        check(len(figs) == 5 and all(driver.execute_script("return arguments[0].naturalWidth", f) > 0 for f in figs),
              "diff report: %d images in the changed entry, all drawn" % len(figs))
        slider = driver.find_element(By.CSS_SELECTOR, "input.slider")
        driver.execute_script("arguments[0].value = 20; arguments[0].dispatchEvent(new Event('input'));", slider)
        clip = driver.execute_script("return document.querySelector('.swipe-box img.top').style.clipPath")
        check(clip.replace(" ", "") in ("inset(0px0px0px20%)", "inset(00020%)"), "diff report: the slider set clip-path %r" % clip)
        driver.execute_script("arguments[0].value = 50; arguments[0].dispatchEvent(new Event('input'));", slider)
        check(run_axe(driver, axe, "diff report") == 0, "diff report: axe violations")
        driver.save_screenshot(os.path.join(a.shots, "diff-report.png"))
    finally:
        driver.quit()
    print("screenshots in %s" % a.shots)
    return verdict("QA tools browser test")


if __name__ == "__main__":
    sys.exit(main())
