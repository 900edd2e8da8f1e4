#!/usr/bin/env python3
"""The picker page in a real browser (Debian chromium + chromium-driver, driven
by Selenium): `seatmap serve` on 127.0.0.1, the picker of a copy of an example
hall opened for a show, then at two zoom levels (each after a wheel zoom and a
drag) 50 clicks each, every one checked against `seatmap hit` for that point in
that view transform; a drag must not select; the total shown must equal the
server's; keyboard selection must work.

    Tests/Browser/picker_test.py --seatmap .build/debug/seatmap [--hall Examples/cinema-12x18.json]

Exit 0 when everything holds, 1 on a failed check (each printed), 2 when the
tools are missing.
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, time, urllib.request

from chromium import ActionChains, By, Keys, ScrollOrigin, check, chrome, verdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--hall", default="Examples/cinema-12x18.json")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--clicks", type=int, default=50, help="clicks per zoom level")
    a = ap.parse_args()
    seatmap = os.path.abspath(a.seatmap)
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="seatmap-browser-")
    name = os.path.splitext(os.path.basename(a.hall))[0]
    hall = os.path.join(tmp, name + ".json")
    shutil.copy(a.hall, hall)
    server = subprocess.Popen([seatmap, "serve", "--halls", tmp, "--store", os.path.join(tmp, "store.db"), "--port", "0"],
                              stdout=subprocess.PIPE, stderr=open(os.path.join(tmp, "serve.log"), "w"), text=True)
    driver = None
    try:
        line = server.stdout.readline()
        port = int(line.rsplit(":", 1)[1].split()[0])
        base = "http://127.0.0.1:%d" % port
        flags = ["--zoom", "1", "--scale", "1"]
        layout = json.loads(subprocess.run([seatmap, "layout", hall, "--json"] + flags, check=True, capture_output=True, text=True).stdout)
        seats = layout["seats"]

        driver = chrome(1000, 700, window=(1000, 800))
        # The back office creates the show (open mode: no key); the buyer's page gets a token on its first toggle.
        create = urllib.request.Request(base + "/shows/browser", method="POST", data=json.dumps({"hall": name}).encode(),
                                        headers={"Content-Type": "application/json"})
        check(urllib.request.urlopen(create, timeout=30).status == 201, "POST /shows/browser did not create the show")
        driver.get(base + "/shows/browser/picker?zoom=1&scale=1")
        driver.execute_script("window.__toggles = []; document.addEventListener('seatmap:toggle', e => window.__toggles.push(e.detail.id));")
        stage = driver.find_element(By.CSS_SELECTOR, ".seatmap-stage")
        size = driver.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", stage)
        sw, sh = size

        def idle():
            # Two animation frames first: the click Selenium sent is handled before them.
            driver.execute_async_script("var done = arguments[arguments.length - 1];"
                                        " requestAnimationFrame(() => requestAnimationFrame(() => window.seatmap.idle().then(() => done(true))));")

        def view():
            return driver.execute_script("return window.seatmap.view();")

        def click_at(px, py):
            # W3C actions take offsets from the element's centre.
            ActionChains(driver).move_to_element_with_offset(stage, int(px - sw / 2), int(py - sh / 2)).click().perform()
            idle()

        def hit(points):
            args = [seatmap, "hit", hall, "--json"] + flags
            for (x, y) in points:
                args += ["--point", "%r,%r" % (x, y)]
            return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)

        def zoom_and_drag(delta, drag):
            before = driver.execute_script("return window.__toggles.length;")
            ActionChains(driver).scroll_from_origin(ScrollOrigin.from_element(stage, 0, 0), 0, delta).perform()
            time.sleep(0.2)
            ActionChains(driver).move_to_element_with_offset(stage, -40, -30).click_and_hold().move_by_offset(*drag).release().perform()
            idle()
            after = driver.execute_script("return window.__toggles.length;")
            check(after == before, "a drag of %s px toggled a seat" % (drag,))

        def level(label):
            v = view()
            k, tx, ty = v["k"], v["tx"], v["ty"]
            # Seats fully in view; clicks inside each one's inner part, and in gaps between neighbours.
            # Not under the pan buttons or the pinned row labels' gutter (they take the tap there).
            covers = driver.execute_script("var s = document.querySelector('.seatmap-stage').getBoundingClientRect();"
                                           "return Array.from(document.querySelectorAll('.seatmap-pan, .seatmap-minimap, .seatmap-rows')).map(e => e.getBoundingClientRect())"
                                           ".filter(p => p.width > 0).map(p => [p.left - s.left - 4, p.top - s.top - 4, p.right - s.left + 4, p.bottom - s.top + 4]);")

            def covered(s):
                x0, y0, x1, y1 = tx + k * s["x"], ty + k * s["y"], tx + k * (s["x"] + s["w"]), ty + k * (s["y"] + s["h"])
                return any(x1 >= c[0] and x0 <= c[2] and y1 >= c[1] and y0 <= c[3] for c in covers)
            visible = [s for s in seats if tx + k * s["x"] >= 2 and ty + k * s["y"] >= 2
                       and tx + k * (s["x"] + s["w"]) <= sw - 2 and ty + k * (s["y"] + s["h"]) <= sh - 2 and not covered(s)]
            check(len(visible) >= 10, "%s: only %d seats in view" % (label, len(visible)))
            points = []
            for i in range(a.clicks):
                s = rng.choice(visible)
                if i % 5 == 4:
                    # Just right of the seat: a gap, the neighbour or an aisle.
                    cx, cy = s["x"] + s["w"] + 1.5, s["y"] + s["h"] / 2
                else:
                    cx = s["x"] + s["w"] * rng.uniform(0.25, 0.75)
                    cy = s["y"] + s["h"] * rng.uniform(0.25, 0.75)
                px, py = round(tx + k * cx), round(ty + k * cy)
                # The content point the browser is asked about is the pixel clicked.
                points.append((px, py, (px - tx) / k, (py - ty) / k))
            answers = hit([(p[2], p[3]) for p in points])
            agree = 0
            for (px, py, cx, cy), answer in zip(points, answers):
                n = driver.execute_script("return window.__toggles.length;")
                click_at(px, py)
                got = driver.execute_script("return window.__toggles.slice(arguments[0]);", n)
                want = [answer["id"]] if answer.get("kind") == "seat" else []
                if got == want:
                    agree += 1
                else:
                    check(False, "%s: click at (%d, %d) = content (%.2f, %.2f): page toggled %s, seatmap hit says %s"
                          % (label, px, py, cx, cy, got, answer.get("id") or answer.get("kind")))
            print("%s (k=%.3f): %d of %d clicks toggled exactly the seat seatmap hit names" % (label, k, agree, len(points)))

        zoom_and_drag(-400, (60, 35))
        level("zoom level 1")
        zoom_and_drag(250, (-90, 20))
        level("zoom level 2")

        # The total shown is the server's for the show's held selection.
        shown = driver.execute_script("return document.querySelector('.seatmap-total').getAttribute('data-total');")
        # The server's answer for the page's token (toggling no seat of the hall reads its holds back).
        token = driver.execute_script("return window.seatmap.token();")
        check(token is not None and len(token) == 32, "the page holds no token after its toggles: %r" % token)
        req = urllib.request.Request(base + "/shows/browser/select", method="POST",
                                     data=json.dumps({"token": token, "toggle": ["99-99-99"]}).encode(),
                                     headers={"Content-Type": "application/json"})
        server_answer = json.loads(urllib.request.urlopen(req, timeout=30).read())
        # Another buyer sees the page's seats as held.
        seats_now = json.loads(urllib.request.urlopen(base + "/shows/browser/seats", timeout=30).read())["seats"]
        check(all(seats_now.get(s) == "held" for s in server_answer["selected"]),
              "another buyer does not see the page's seats as held")
        check(shown == server_answer["total"], "the page shows total %r, the server holds %r" % (shown, server_answer["total"]))
        picked = driver.execute_script("return window.seatmap.selected();")
        check(sorted(picked) == sorted(server_answer["selected"]),
              "the page shows %s picked, the server holds %s" % (picked, server_answer["selected"]))

        # Keyboard: focus a seat, move right, Enter toggles the focused seat.
        n = driver.execute_script("return window.__toggles.length;")
        first = driver.execute_script("var s = document.querySelector('g[id^=\"seat-\"][tabindex=\"0\"]'); s.focus(); return s.id;")
        driver.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        focused = driver.execute_script("return document.activeElement.id;")
        check(focused.startswith("seat-") and focused != first, "the right arrow moved focus from %s to %s" % (first, focused))
        tip = driver.execute_script("var t = document.querySelector('.seatmap-tip'); return t.style.display === 'block' ? t.textContent : '';")
        title = driver.execute_script("return document.activeElement.getAttribute('aria-label');")
        check(tip == title, "the focused seat's tooltip %r is its title %r" % (tip, title))
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        idle()
        got = driver.execute_script("return window.__toggles.slice(arguments[0]);", n)
        check(got == [focused[5:]], "Enter toggled %s, the focused seat is %s" % (got, focused))
        print("keyboard: focus moved %s -> %s, Enter toggled %s" % (first, focused, got))

        # Opened as a file: a tap is announced as a seatmap:toggle event and
        # nothing is sent anywhere.
        page = os.path.join(tmp, "picker.html")
        subprocess.run([seatmap, "render", hall, "-o", page] + flags, check=True, capture_output=True)
        driver.get("file://" + page)
        driver.execute_script("window.__toggles = []; document.addEventListener('seatmap:toggle', e => window.__toggles.push(e.detail.id));")
        stage = driver.find_element(By.CSS_SELECTOR, ".seatmap-stage")
        v = view()
        s = next(x for x in seats if x["status"] == "available" and v["tx"] + x["x"] + x["w"] < sw and v["ty"] + x["y"] + x["h"] < sh)
        px, py = round(v["tx"] + v["k"] * (s["x"] + s["w"] / 2)), round(v["ty"] + v["k"] * (s["y"] + s["h"] / 2))
        click_at(px, py)
        got = driver.execute_script("return window.__toggles;")
        want = hit([((px - v["tx"]) / v["k"], (py - v["ty"]) / v["k"])])[0]["id"]
        check(got == [want], "the file page announced %s, seatmap hit names %s" % (got, want))
        check(driver.execute_script("return window.seatmap.selected();") == [], "the file page picked a seat by itself")
        print("file page: a tap announced seatmap:toggle %s" % got)
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
    return verdict("browser test")


if __name__ == "__main__":
    sys.exit(main())
