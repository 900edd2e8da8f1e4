#!/usr/bin/env python3
"""The picker page as a buyer and a front-end developer use it, in headless
Chromium driven by Selenium, against `seatmap serve` with a SQLite store:

- every example at phone size (390 x 844, device scale 3) and desktop size
  (1440 x 900): the whole hall inside the stage on load; zoom in, out and fit
  by buttons and by keys; axe-core (pinned, from PyPI) finds no violation
  before and after picking; a screenshot of each is written to --shots;
- two buyers on one show: A's pick shows as held on B's page within 2 s and
  B's tap on it is refused with a sentence; A's hold expires and B picks the
  seat; confirming sells the seats (B's page shows them sold);
- the cart lists exactly the service's picks and total; a 7th seat on a
  max-6 show, a sold seat and a single-seat gap each give their sentence, in
  zh-Hans and in en, and the gap seat is marked on the map;
- a host page on another origin with the picker in an iframe receives the
  ready, toggle, cart and checkout messages.

    Tests/Browser/buyer_test.py --seatmap .build/debug/seatmap [--shots DIR]

Exit 0 when everything holds, 1 on a failed check (each printed), 2 when the
tools are missing.
"""
import argparse, contextlib, glob, http.server, json, os, shutil, socket, subprocess, sys, tempfile, threading, time, urllib.request

from chromium import ActionBuilder, ActionChains, By, FAILURES, Keys, axe_source, check, chrome, run_axe, verdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PHONE = (390, 844, 3, True)
DESKTOP = (1440, 900, 1, False)


def browser(size):
    width, height, scale, mobile = size
    return chrome(width, height, scale, mobile)


class Service_:
    """`seatmap serve` on a free port over a copy of the examples."""

    def __init__(self, seatmap, halls, *flags):
        self.dir = tempfile.mkdtemp(prefix="seatmap-buyer-")
        for h in halls:
            shutil.copy(h, self.dir)
        self.proc = subprocess.Popen([seatmap, "serve", "--halls", self.dir, "--store", os.path.join(self.dir, "store.db"), "--port", "0"] + list(flags),
                                     stdout=subprocess.PIPE, stderr=open(os.path.join(self.dir, "serve.log"), "w"), text=True)
        line = self.proc.stdout.readline()
        self.port = int(line.rsplit(":", 1)[1].split()[0])
        self.base = "http://127.0.0.1:%d" % self.port

    def post(self, path, body):
        req = urllib.request.Request(self.base + path, method="POST", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def show(self, name, hall):
        status, _ = self.post("/shows/" + name, {"hall": hall})
        check(status in (200, 201), "POST /shows/%s answered %d" % (name, status))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


@contextlib.contextmanager
def picker(svc, show, hall, size, query=""):
    """A new show of the hall and a browser of that size on its picker page."""
    svc.show(show, hall)
    d = browser(size)
    try:
        d.get(svc.base + "/shows/%s/picker%s" % (show, query))
        idle(d)
        yield d
    finally:
        d.quit()


def idle(d):
    # Two animation frames first: input Selenium sent is handled before them (a loaded
    # machine may return from perform() before the page has seen the click).
    d.execute_async_script("var done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() =>"
                           " window.seatmap.idle().then(() => done(true), () => done(false))));")


def view(d):
    return d.execute_script("return window.seatmap.view();")


def words(locale):
    with open(os.path.join(ROOT, "Locales", locale + ".json"), encoding="utf-8") as f:
        return json.load(f)["strings"]


def fixed_part(template):
    """The longest piece of a catalogue sentence outside its placeholders."""
    import re
    return max(re.split(r"\{\w+\}", template), key=len).strip()


def hall_inside(d):
    """Whether the drawing's box lies inside the stage and the stage inside the window."""
    return d.execute_script("""
        var st = document.querySelector('.seatmap-stage'), s = st.getBoundingClientRect(), b = st.querySelector('svg').getBoundingClientRect();
        return {ok: b.left >= s.left - 0.5 && b.top >= s.top - 0.5 && b.right <= s.right + 0.5 && b.bottom <= s.bottom + 0.5
                    && s.left >= 0 && s.top >= 0 && s.right <= innerWidth + 0.5 && s.bottom <= innerHeight + 0.5,
                box: [b.left, b.top, b.right, b.bottom], stage: [s.left, s.top, s.right, s.bottom], window: [innerWidth, innerHeight]};""")


def seat_point(d, want="available", skip=()):
    """The centre (page CSS px) of a seat of that status fully in view, with its id."""
    return d.execute_script("""
        var st = document.querySelector('.seatmap-stage').getBoundingClientRect(), skip = arguments[1];
        var seats = document.querySelectorAll('g[id^="seat-"][data-status="' + arguments[0] + '"]');
        for (var i = 0; i < seats.length; i++) {
          var g = seats[i], id = g.id.slice(5);
          if (skip.indexOf(id) >= 0) continue;
          var shape = g.querySelector(':scope > path, :scope > use'), r = (shape || g).getBoundingClientRect();
          if (r.width < 4 || r.left < st.left + 2 || r.top < st.top + 2 || r.right > st.right - 60 || r.bottom > st.bottom - 60) continue;
          var x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
          if (hit && hit.closest('g[id^="seat-"]') === g) return {id: id, x: x, y: y};
        }
        return null;""", want, list(skip))


def tap(d, x, y):
    """A click at viewport CSS pixel (x, y)."""
    actions = ActionBuilder(d)
    actions.pointer_action.move_to_location(int(x), int(y)).click()
    actions.perform()
    idle(d)


def pick(d, want="available", skip=()):
    p = seat_point(d, want, skip)
    if not check(p is not None, "no %s seat in view to tap" % want):
        return None
    tap(d, p["x"], p["y"])
    return p["id"]


def status_of(d, seat):
    return d.execute_script("var g = document.getElementById('seat-' + arguments[0]); return g && g.getAttribute('data-status');", seat)


def message(d):
    return d.execute_script("return document.querySelector('[data-seatmap-message]').textContent;")


def cart_ids(d):
    return d.execute_script("return Array.from(document.querySelectorAll('[data-seatmap-cart] [data-seat]')).filter(e => e.tagName === 'LI').map(e => e.getAttribute('data-seat'));")


def wait_for(fn, seconds):
    """Seconds until fn() is true, or None after `seconds`."""
    t0 = time.time()
    while time.time() - t0 < seconds:
        if fn():
            return time.time() - t0
        time.sleep(0.05)
    return None


def layouts(d, svc, axe, shots):
    halls = sorted(glob.glob(os.path.join(ROOT, "Examples", "*.json")))
    for size, label in [(PHONE, "phone"), (DESKTOP, "desktop")]:
        d = browser(size)
        try:
            for h in halls:
                name = os.path.splitext(os.path.basename(h))[0]
                show = "%s-%s" % (name, label)
                svc.show(show, name)
                d.get(svc.base + "/shows/%s/picker" % show)
                idle(d)
                where = "%s at %s" % (name, label)
                inside = hall_inside(d)
                check(inside["ok"], "%s: the hall is not whole in view on load: %s" % (where, inside))
                v0 = view(d)
                # Buttons.
                d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="zoom-in"]').click()
                v1 = view(d)
                if v0["kMax"] > v0["kMin"] * 1.01:
                    check(v1["k"] > v0["k"], "%s: zoom-in kept k at %.3f" % (where, v1["k"]))
                d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="zoom-out"]').click()
                check(view(d)["k"] < v1["k"] or v1["k"] == v0["k"], "%s: zoom-out did not zoom out" % where)
                d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="zoom-in"]').click()
                d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="fit"]').click()
                check(abs(view(d)["k"] - v0["k"]) < 1e-9 and hall_inside(d)["ok"], "%s: fit did not show the whole hall again" % where)
                # Keys: the map's one Tab stop, then + - 0.
                d.execute_script("document.querySelector('g[id^=\"seat-\"][tabindex=\"0\"]').focus({preventScroll: true});")
                tabbable = d.execute_script("return document.querySelectorAll('g[id^=\"seat-\"][tabindex=\"0\"]').length;")
                check(tabbable == 1, "%s: %d seats are Tab stops (one expected)" % (where, tabbable))
                d.switch_to.active_element.send_keys("+")
                if v0["kMax"] > v0["kMin"] * 1.01:
                    check(view(d)["k"] > v0["k"], "%s: the + key did not zoom in" % where)
                d.switch_to.active_element.send_keys("-")
                d.switch_to.active_element.send_keys("0")
                check(abs(view(d)["k"] - v0["k"]) < 1e-9, "%s: the 0 key did not fit" % where)
                run_axe(d, axe, where + ", on load")
                d.save_screenshot(os.path.join(shots, "%s-%s.png" % (name, label)))
                seat = pick(d)
                if seat:
                    # A table is sold whole: the cart may hold its other seats too, all drawn picked.
                    cart = cart_ids(d)
                    check(status_of(d, seat) == "selected" and seat in cart and all(status_of(d, c) == "selected" for c in cart),
                          "%s: after a tap on %s it is %s, the cart %s" % (where, seat, status_of(d, seat), cart_ids(d)))
                run_axe(d, axe, where + ", after picking")
                d.save_screenshot(os.path.join(shots, "%s-%s-picked.png" % (name, label)))
            print("%s: %d examples fitted, zoomed by buttons and keys, axe-checked before and after a pick" % (label, len(halls)))
        finally:
            d.quit()


def two_buyers(svc):
    svc.show("duel", "cinema-12x18")
    a, b = browser(DESKTOP), browser(DESKTOP)
    zh = words("zh-Hans")
    try:
        for d in (a, b):
            d.get(svc.base + "/shows/duel/picker")
            idle(d)
        seat = pick(a)
        check(cart_ids(a) == [seat], "A's cart is %s after picking %s" % (cart_ids(a), seat))
        seen = wait_for(lambda: status_of(b, seat) == "held", 2.0)
        check(seen is not None, "B's page did not show %s held within 2 s (it shows %s)" % (seat, status_of(b, seat)))
        print("two buyers: B saw A's pick held after %.2f s" % (seen or -1))
        p = b.execute_script("var r = document.getElementById('seat-' + arguments[0]).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];", seat)
        tap(b, p[0], p[1])
        check(fixed_part(zh["picker.held"]) in message(b), "B's tap on a held seat said %r" % message(b))
        check(cart_ids(b) == [], "B's cart holds %s after a refused tap" % cart_ids(b))
        # A's hold lapses (the service's --hold-ttl is 3 s): A is told, B sees the seat free and takes it.
        lapsed = wait_for(lambda: fixed_part(zh["picker.expired"]) in message(a), 8.0)
        check(lapsed is not None and cart_ids(a) == [], "A's page did not say its hold expired (%r)" % message(a))
        free = wait_for(lambda: status_of(b, seat) == "available", 3.0)
        check(free is not None, "B's page did not show %s free after A's hold expired" % seat)
        tap(b, p[0], p[1])
        check(cart_ids(b) == [seat] and status_of(b, seat) == "selected", "B could not pick %s after A's hold expired" % seat)
        # A picks another seat and confirms: the seat is A's (drawn as its own), and B sees it sold.
        other = pick(a, skip=[seat])
        a.find_element(By.CSS_SELECTOR, '[data-seatmap-action="checkout"]').click()
        idle(a)
        check(fixed_part(zh["picker.ordered"]) in message(a) and status_of(a, other) == "ordered", "A's confirm: %r, %s is %s" % (message(a), other, status_of(a, other)))
        sold = wait_for(lambda: status_of(b, other) == "sold", 2.0)
        check(sold is not None, "B's page did not show %s sold within 2 s" % other)
        b.find_element(By.CSS_SELECTOR, '[data-seatmap-action="checkout"]').click()
        idle(b)
        state = json.loads(urllib.request.urlopen(svc.base + "/shows/duel/status", timeout=30).read())
        sold_ids = sorted(s for o in state["orders"] for s in o["seats"])
        check(sold_ids == sorted([seat, other]), "the show sold %s, the buyers confirmed %s" % (sold_ids, sorted([seat, other])))
        print("two buyers: held seen, refused with a sentence, expiry freed the seat, both confirmed: sold %s" % sold_ids)
    finally:
        a.quit()
        b.quit()


def free_run(seatmap, hall, n):
    """n seats side by side in one row, all available in the plan; and a sold seat."""
    seats = json.loads(subprocess.run([seatmap, "layout", hall, "--json"], check=True, capture_output=True, text=True).stdout)["seats"]
    status = {s["id"]: s["status"] for s in seats}
    sold = next(i for i, st in status.items() if st == "sold")
    for seat in seats:
        sec, row, col = seat["id"].split("-")
        run = ["%s-%s-%d" % (sec, row, int(col) + i) for i in range(n)]
        before = "%s-%s-%d" % (sec, row, int(col) - 1)
        if all(status.get(r) == "available" for r in run) and status.get(before) != "available":
            return run, sold
    for seat in seats:
        sec, row, col = seat["id"].split("-")
        run = ["%s-%s-%d" % (sec, row, int(col) + i) for i in range(n)]
        if all(status.get(r) == "available" for r in run):
            return run, sold
    raise SystemExit("no run of %d available seats in %s" % (n, hall))


def press(d, seat):
    d.execute_script("document.getElementById('seat-' + arguments[0]).focus({preventScroll: true});", seat)
    d.switch_to.active_element.send_keys(Keys.ENTER)
    idle(d)


def sentences(svc, seatmap):
    """A 7th seat on a max-6 show, a sold seat, a gap: their sentences in zh-Hans and en."""
    hall = os.path.join(ROOT, "Examples", "theatre-curved.json")  # maxSelectCount 6
    run, sold = free_run(seatmap, hall, 8)
    for locale in ["zh-Hans", "en"]:
        w = words(locale)
        show = "words-" + locale.lower()
        svc.show(show, "theatre-curved")
        d = browser(DESKTOP)
        try:
            d.get(svc.base + "/shows/%s/picker?locale=%s" % (show, locale))
            idle(d)
            press(d, sold)
            check(fixed_part(w["picker.sold"]) in message(d), "%s: the sold seat %s said %r" % (locale, sold, message(d)))
            # A gap: run[1] left alone between run[0] and run[2].
            press(d, run[0])
            press(d, run[2])
            check(fixed_part(w["picker.gap"]) in message(d), "%s: a single-seat gap said %r" % (locale, message(d)))
            marked = d.execute_script("return !!document.querySelector('.seatmap-marks .seatmap-gap[data-seat=\"' + arguments[0] + '\"]');", run[1])
            check(marked, "%s: the gap seat %s is not marked on the map" % (locale, run[1]))
            # Six, then a seventh.
            for seat in [run[1], run[3], run[4], run[5], run[6]]:
                press(d, seat)
            expect = w["picker.limit"].replace("{count}", "6")
            check(expect in message(d), "%s: the 7th seat said %r, not %r" % (locale, message(d), expect))
            token = d.execute_script("return window.seatmap.token();")
            _, server = svc.post("/shows/%s/select" % show, {"token": token, "toggle": [], "locale": locale})
            total = d.execute_script("return document.querySelector('.seatmap-total').getAttribute('data-total');")
            shown = d.execute_script("return document.querySelector('.seatmap-total').textContent;")
            check(sorted(cart_ids(d)) == sorted(server["selected"]) == sorted(run[:6]),
                  "%s: the cart lists %s, the service holds %s" % (locale, cart_ids(d), server["selected"]))
            check(total == server["total"] and server["totalText"] in shown, "%s: the page's total %r / %r, the service's %r" % (locale, total, shown, server["totalText"]))
            print("%s: sold, gap (marked) and 7th-seat sentences shown; cart = the service's %d seats, total %s" % (locale, len(server["selected"]), server["totalText"]))
        finally:
            d.quit()


def standing(svc):
    """A standing area's stepper holds places; the cart lists them; the service agrees; remove gives them back."""
    with picker(svc, "floor", "arena-blocks", DESKTOP, "?locale=en") as d:
        more = d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="area-more"][data-area="floor"]')
        check(more.get_attribute("aria-label") == "One place more in Floor standing", "the + button is named %r" % more.get_attribute("aria-label"))
        for _ in range(3):
            more.click()
            idle(d)
        d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="area-less"][data-area="floor"]').click()
        idle(d)
        count = d.execute_script("return document.querySelector('.seatmap-areas li[data-area=\"floor\"] .seatmap-count').textContent;")
        item = d.execute_script("var li = document.querySelector('[data-seatmap-cart] li[data-area=\"floor\"]'); return li ? li.textContent : null;")
        token = d.execute_script("return window.seatmap.token();")
        _, server = svc.post("/shows/floor/select", {"token": token, "toggle": []})
        check(count == "2" and server.get("standing") == {"floor": 2} and item and "2" in item and "¥760.00" in item,
              "the stepper shows %r, the cart %r, the service holds %s" % (count, item, server.get("standing")))
        d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="remove-area"][data-area="floor"]').click()
        idle(d)
        _, server = svc.post("/shows/floor/select", {"token": token, "toggle": []})
        check(not server.get("standing") and cart_ids(d) == [], "after removing, the service holds %s" % server.get("standing"))
        print("standing: the stepper held 2 places (%r in the cart), remove gave them back" % item)


def levels(svc):
    """The level switcher opens one level, keeping the buyer's token and cart."""
    with picker(svc, "levels", "theatre-curved", PHONE, "?locale=en") as d:
        seat = pick(d)
        names = d.execute_script("return Array.from(document.querySelectorAll('.seatmap-level')).map(a => a.textContent);")
        check(names == ["All levels", "Stalls", "Balcony"], "the level switcher offers %s" % names)
        token = d.execute_script("return window.seatmap.token();")
        d.find_element(By.CSS_SELECTOR, '.seatmap-level[data-level="1"]').click()
        wait_for(lambda: "level=1" in d.current_url and d.execute_script("return !!(window.seatmap && document.querySelector('[data-seatmap-ready]'));"), 10)
        idle(d)
        time.sleep(0.5)
        drawn = d.execute_script("return Array.from(document.querySelectorAll('g[id^=\"seat-\"]')).map(g => g.id.slice(5).split('-')[0]);")
        check(drawn and set(drawn) == {"2"}, "level 1 draws sections %s" % sorted(set(drawn)))
        check(d.execute_script("return window.seatmap.token();") == token and cart_ids(d) == [seat],
              "after switching level the token is %s (was %s), the cart %s" % (d.execute_script("return window.seatmap.token();"), token, cart_ids(d)))
        check(hall_inside(d)["ok"], "level 1 is not whole in view")
        print("levels: Balcony alone drawn (%d seats), the token and the cart (%s) kept" % (len(drawn), seat))


def minimap(svc):
    """Zoomed in, the minimap shows; a tap on it pans the view there; fitted, it is hidden."""
    with picker(svc, "mini", "cinema-12x18", PHONE, "") as d:
        shown = lambda: d.execute_script("return getComputedStyle(document.querySelector('.seatmap-minimap')).visibility !== 'hidden';")
        check(not shown(), "the minimap shows while the hall is fitted")
        for _ in range(3):
            d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="zoom-in"]').click()
        time.sleep(0.3)
        check(shown(), "the minimap does not show zoomed in")
        before = view(d)
        r = d.execute_script("var b = document.querySelector('.seatmap-minimap').getBoundingClientRect(); return [b.left, b.top, b.width, b.height];")
        tap(d, r[0] + r[2] * 0.1, r[1] + r[3] * 0.5)
        after = view(d)
        check(after["tx"] > before["tx"] + 50, "a tap on the minimap's left did not pan left: %s -> %s" % (before, after))
        print("minimap: hidden fitted, shown zoomed in, a tap on it panned the view (tx %.0f -> %.0f)" % (before["tx"], after["tx"]))


def sold_meanwhile(svc):
    """The back office sells a seat in a buyer's cart (a status batch): it leaves the cart with a sentence within 2 s."""
    w = words("en")
    with picker(svc, "meanwhile", "cinema-12x18", DESKTOP, "?locale=en") as d:
        a = pick(d)
        b = pick(d, skip=[a])
        check(sorted(cart_ids(d)) == sorted([a, b]), "the cart holds %s, not %s" % (cart_ids(d), [a, b]))
        status, _ = svc.post("/shows/meanwhile/status", {"batchId": "box-office-1", "sequence": 1, "changes": [{"id": a, "status": 2}]})
        check(status == 200, "the status batch answered %d" % status)
        gone = wait_for(lambda: cart_ids(d) == [b] and fixed_part(w["picker.soldMeanwhile"]) in message(d), 2.0)
        check(gone is not None, "after %s was sold the cart is %s and the page says %r" % (a, cart_ids(d), message(d)))
        check(status_of(d, a) == "sold", "%s is drawn %s after it was sold" % (a, status_of(d, a)))
        print("sold meanwhile: %s left the cart after %.2f s with %r" % (a, gone or -1, message(d)))


def inlined(seatmap):
    """Two pickers inlined in one host page: each works on its own, and the host's html and body keep their styles."""
    tmp = tempfile.mkdtemp(prefix="seatmap-inline-")
    try:
        parts = []
        for name in ["seed", "cinema-12x18"]:
            page = os.path.join(tmp, name + ".html")
            subprocess.run([seatmap, "render", os.path.join(ROOT, "Examples", name + ".json"), "-o", page, "--locale", "en"], check=True, capture_output=True)
            text = open(page, encoding="utf-8").read()
            style = text.split("<style>")[1].split("</style>")[0]
            picker = text.split("<main>")[1].split("</main>")[0]
            script = text.split("<script>")[-1].split("</script>")[0]
            parts.append((style, picker, script))
        host = os.path.join(tmp, "host.html")
        with open(host, "w", encoding="utf-8") as f:
            f.write("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Host</title><style>html{background:rgb(1, 2, 3)}body{margin:17px}"
                    ".seatmap-picker{--seatmap-height:420px}</style><style>%s</style></head><body><main><h1>Two halls</h1>%s%s</main><script>%s</script><script>%s</script></body></html>"
                    % (parts[0][0], parts[0][1], parts[1][1], parts[0][2], parts[1][2]))
        d = browser(DESKTOP)
        try:
            d.get("file://" + host)
            time.sleep(0.5)
            ready = d.execute_script("return Array.from(document.querySelectorAll('[data-seatmap-picker]')).map(r => r.hasAttribute('data-seatmap-ready') && !!r.seatmap);")
            check(ready == [True, True], "the inlined pickers started: %s" % ready)
            styles = d.execute_script("return [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).marginTop];")
            check(styles == ["rgb(1, 2, 3)", "17px"], "the host's html and body styles became %s" % styles)
            d.execute_script("window.__t = []; document.querySelectorAll('[data-seatmap-picker]').forEach((r, i) => r.addEventListener('seatmap:toggle', e => window.__t.push([i, e.detail.id])));")
            for i in range(2):
                p = d.execute_script("""var r = document.querySelectorAll('[data-seatmap-picker]')[arguments[0]], st = r.querySelector('.seatmap-stage').getBoundingClientRect();
                    var g = Array.from(r.querySelectorAll('g[id^="seat-"][data-status="available"]')).find(g => { var b = g.getBoundingClientRect(); return b.top > st.top && b.bottom < st.bottom && b.left > st.left && b.right < st.right - 60; });
                    g.scrollIntoView({block: 'center'}); var b = g.getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2, g.id.slice(5)];""", i)
                tap(d, p[0], p[1])
                check([i, p[2]] in d.execute_script("return window.__t;"), "picker %d announced %s, not %s" % (i, d.execute_script("return window.__t;"), p[2]))
            print("inlined: two pickers on one page, each announced its own tap %s; the host's html and body untouched" % d.execute_script("return window.__t;"))
        finally:
            d.quit()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def big_venue(svc):
    """A 6,000-seat hall on a phone opens as its section with the seats left; a tap on it zooms in to seats."""
    rows = [{"row": r, "price": 40, "seats": [{"column": c, "status": 2 if (r * 7 + c * 3) % 10 == 0 else 0} for c in range(1, 101)]}
            for r in range(1, 61)]
    with open(os.path.join(svc.dir, "big.json"), "w") as f:
        json.dump({"cinemaName": "Big", "hallName": "Arena", "movieStartTime": "2026-12-31 20:00", "maxSelectCount": 6, "rows": rows}, f)
    w = words("en")
    with picker(svc, "big", "big", PHONE, "?locale=en") as d:
        time.sleep(0.3)
        v = view(d)
        check(v["overview"] and v["k"] * v["seat"] < 7, "a 6,000-seat hall on a phone did not open as its sections: %s" % v)
        text = d.execute_script("var g = document.querySelector('.seatmap-section'); return g && getComputedStyle(g.parentNode).display !== 'none' ? g.getAttribute('aria-label') : '';")
        expect = w["summary"].replace("{available}", "5400").replace("{seats}", "6000")
        check(text == expect, "the section says %r, not %r" % (text, expect))
        r = d.execute_script("var b = document.querySelector('.seatmap-section rect').getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2];")
        tap(d, r[0], r[1])
        time.sleep(0.3)
        v = view(d)
        check(not v["overview"] and v["k"] * v["seat"] >= 7, "a tap on the section did not zoom in to seats: %s" % v)
        # A drag of a big drawing moves a picture of it (taken once the view settled); afterwards
        # the live drawing is back where the picture was, and taps land on its seats.
        time.sleep(1.2)
        taken = d.execute_script("var i = document.querySelector('.seatmap-snapshot'); return !!i.src && getComputedStyle(i).display !== 'none';")
        check(taken, "no picture of the 6,000-seat drawing was taken for dragging")
        stage = d.find_element(By.CSS_SELECTOR, ".seatmap-stage")
        ActionChains(d).move_to_element_with_offset(stage, 10, 10).click_and_hold().move_by_offset(-60, -20).move_by_offset(-60, -20).release().perform()
        idle(d)
        after = view(d)
        live = d.execute_script("return [getComputedStyle(document.querySelector('.seatmap-stage svg')).opacity, getComputedStyle(document.querySelector('.seatmap-snapshot')).opacity];")
        check(abs((after["tx"] - v["tx"]) + 120) < 2, "a drag of 120 px moved the view %s -> %s" % (v, after))
        check(float(live[0]) == 1 and float(live[1]) < 0.01, "after the drag the drawing's opacity is %s, the picture's %s" % tuple(live))
        seat = pick(d)
        check(seat is not None and cart_ids(d) == [seat], "after zooming into the section no seat could be picked (%s)" % cart_ids(d))
        print("big venue: opened as its section (%r), a tap zoomed in, %s picked" % (text, seat))


class HostPage(http.server.BaseHTTPRequestHandler):
    page = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(HostPage.page)

    def log_message(self, *args):
        pass


def free_port():
    """A TCP port nothing listens on now (for a host page's own server)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def iframe_host(seatmap):
    """A host page on another origin (localhost:P2) embedding the picker from 127.0.0.1:P1."""
    host_port = free_port()
    svc = Service_(seatmap, [os.path.join(ROOT, "Examples", "cinema-12x18.json")], "--allowed-origin", "http://localhost:%d" % host_port)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", host_port), HostPage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    d = browser(DESKTOP)
    try:
        svc.show("embedded", "cinema-12x18")
        HostPage.page = ("""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title></head><body><main><h1>Box office</h1>
<script>window.__msgs = []; addEventListener('message', function (e) { if (e.origin === '%s') window.__msgs.push(e.data); });</script>
<iframe id="picker" title="Seat picker" src="%s/shows/embedded/picker" style="width:1000px;height:700px;border:0"></iframe></main></body></html>"""
                         % (svc.base, svc.base)).encode()
        d.get("http://localhost:%d/" % host_port)
        ready = wait_for(lambda: any(m.get("type") == "seatmap:ready" for m in d.execute_script("return window.__msgs;")), 10)
        check(ready is not None, "the host page got no seatmap:ready")
        d.switch_to.frame(d.find_element(By.ID, "picker"))
        idle(d)
        # Inside a frame, a click aimed at the element (WebDriver maps it through the frame).
        seat = seat_point(d)["id"]
        ActionChains(d).move_to_element(d.find_element(By.ID, "seat-" + seat)).click().perform()
        idle(d)
        d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="checkout"]').click()
        idle(d)
        d.switch_to.default_content()
        wait_for(lambda: any(m.get("type") == "seatmap:checkout" for m in d.execute_script("return window.__msgs;")), 5)
        msgs = d.execute_script("return window.__msgs;")
        kinds = [m.get("type") for m in msgs]
        toggle = [m for m in msgs if m.get("type") == "seatmap:toggle"]
        checkout = [m for m in msgs if m.get("type") == "seatmap:checkout"]
        check(toggle and toggle[0]["id"] == seat and toggle[0]["selected"] is True, "the host got toggle messages %s (tapped %s)" % (toggle, seat))
        check("seatmap:cart" in kinds, "the host got no seatmap:cart (%s)" % kinds)
        check(checkout and checkout[0]["seats"] == [seat] and checkout[0]["show"] == "embedded" and len(checkout[0]["token"] or "") == 32,
              "the host got checkout %s" % checkout)
        print("iframe on another origin: the host heard %s" % sorted(set(kinds)))
        # A page on an origin not listed may not frame it.
        headers = urllib.request.urlopen(svc.base + "/shows/embedded/picker", timeout=30).headers
        check("frame-ancestors 'self' http://localhost:%d" % host_port in headers.get("Content-Security-Policy", ""),
              "the picker's frame-ancestors: %r" % headers.get("Content-Security-Policy"))
    finally:
        d.quit()
        server.shutdown()
        svc.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    ap.add_argument("--shots", default=os.path.join(ROOT, ".build", "browser-screenshots"))
    a = ap.parse_args()
    seatmap = os.path.abspath(a.seatmap)
    os.makedirs(a.shots, exist_ok=True)
    axe = axe_source()
    halls = sorted(glob.glob(os.path.join(ROOT, "Examples", "*.json")))
    svc = Service_(seatmap, halls)
    short = Service_(seatmap, halls, "--hold-ttl", "3")
    try:
        layouts(None, svc, axe, a.shots)
        two_buyers(short)
        sentences(svc, seatmap)
        big_venue(svc)
        standing(svc)
        levels(svc)
        minimap(svc)
        sold_meanwhile(svc)
        inlined(seatmap)
        iframe_host(seatmap)
    finally:
        svc.stop()
        short.stop()
    print("screenshots in %s" % a.shots)
    return verdict("buyer test")


if __name__ == "__main__":
    sys.exit(main())
