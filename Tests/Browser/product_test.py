#!/usr/bin/env python3
"""The picker as a product, in headless Chromium against a live `seatmap serve`:

- keyboard: in every example hall, ArrowDown from a seat moves focus to the
  nearest seat of the next row of its section (worked out here from
  `seatmap layout --json`, not from the page), ArrowUp back;
- paid is paid: in the production flow (an admin key, the host's back end
  orders after payment) the buyer's page never says the seats were released,
  shows them as the buyer's, and sends one checkout however often it is pressed;
- big venues: the overview's sections carry `data-seatmap-section` and a
  label of at least 11 CSS px with contrast of 4.5:1 or more; Enter on a
  section zooms in with focus on its first free seat;
- best available on the page: the quantity control and the best button hold
  that many seats under the page's token;
- the host API: `seatmap:select` holds a seat, `seatmap:zoomTo` a section;
- sentences: with the service gone the page says so in its language, never a
  raw error;
- the runnable host page (Examples/picker-host.html), served from another
  origin, drives the picker with its buttons and hears its messages.

Exit 0 when everything holds, 1 on a failed check (each printed).
"""
import argparse, functools, http.server, json, os, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

from chromium import ActionChains, By, Keys, axe_source, check, run_axe, verdict
from buyer_test import DESKTOP, PHONE, ROOT, Service_, browser, fixed_part, free_port, idle, message, pick, picker, status_of, view, wait_for, words


def request(base, method, path, body=None, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = "Bearer " + key
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def layout_seats(seatmap, hall):
    """The seats of an example hall as `seatmap layout --json` places them."""
    return json.loads(subprocess.run([seatmap, "layout", os.path.join(ROOT, "Examples", hall + ".json"), "--json"],
                                     capture_output=True, check=True, text=True).stdout)["seats"]


def expected_down(seats, seat, dir=1):
    """The seat ArrowDown (dir 1) or ArrowUp (-1) should reach within the seat's section, or None."""
    by_id = {s["id"]: s for s in seats}
    me = by_id[seat]
    section = seat.split("-")[0]
    rows = {}
    for s in seats:
        if s["id"].split("-")[0] == section:
            rows.setdefault(s["row"], []).append(s)
    cy = {r: sum(s["y"] + s["h"] / 2 for s in ss) / len(ss) for r, ss in rows.items()}
    mine = cy[me["row"]]
    further = [r for r in rows if (cy[r] - mine) * dir > 0.5]
    if not further:
        return None
    target = min(further, key=lambda r: (cy[r] - mine) * dir)
    cx, my = me["x"] + me["w"] / 2, me["y"] + me["h"] / 2
    return min(rows[target], key=lambda s: (abs(s["x"] + s["w"] / 2 - cx) * 1000 + abs(s["y"] + s["h"] / 2 - my)))["id"]


def focused(d):
    return d.execute_script("var e = document.activeElement; return e && e.id && e.id.indexOf('seat-') === 0 ? e.id.slice(5) : null;")


def keyboard_rows(svc, seatmap):
    halls = sorted(f for f in os.listdir(os.path.join(ROOT, "Examples")) if f.endswith(".json"))
    d = browser(DESKTOP)
    moves = 0
    try:
        for f in halls:
            name = f[:-5]
            seats = layout_seats(seatmap, name)
            d.get(svc.base + "/halls/%s/picker" % name)
            idle(d)
            # A few seats spread over the hall, each with a row below it in its section.
            starts = [s["id"] for s in seats if expected_down(seats, s["id"]) is not None]
            for seat in starts[:: max(1, len(starts) // 6)][:6]:
                want = expected_down(seats, seat)
                d.execute_script("var g = document.getElementById('seat-' + arguments[0]); g.focus();", seat)
                ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
                got = focused(d)
                check(got == want, "%s: ArrowDown from %s went to %s, not %s" % (name, seat, got, want))
                back = expected_down(seats, got or seat, -1)
                ActionChains(d).send_keys(Keys.ARROW_UP).perform()
                check(focused(d) == back, "%s: ArrowUp from %s went to %s, not %s" % (name, got, focused(d), back))
                moves += 1
        print("keyboard: ArrowDown and ArrowUp reached the next row's nearest seat %d times over %d halls" % (moves, len(halls)))
    finally:
        d.quit()


def paid_flow(seatmap):
    """Admin-key mode: the host's back end orders the token after payment."""
    key = "k" * 40
    kf = tempfile.NamedTemporaryFile("w", delete=False, suffix=".key")
    kf.write(key)
    kf.close()
    svc = Service_(seatmap, [os.path.join(ROOT, "Examples", "cinema-12x18.json")], "--admin-key-file", kf.name)
    d = browser(DESKTOP)
    try:
        status, _ = request(svc.base, "POST", "/shows/paid", {"hall": "cinema-12x18"}, key)
        check(status == 201, "creating the show answered %d" % status)
        w = words("en")
        d.get(svc.base + "/shows/paid/picker?locale=en")
        idle(d)
        d.execute_script("window.__events = []; ['seatmap:checkout', 'seatmap:expired', 'seatmap:ordered'].forEach(function (t) {"
                         " document.querySelector('[data-seatmap-picker]').addEventListener(t, function (e) { window.__events.push(t); }); });")
        a = pick(d)
        b = pick(d, skip=[a])
        token = d.execute_script("return window.seatmap.token();")
        button = d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="checkout"]')
        button.click()
        d.execute_script("arguments[0].click(); arguments[0].click();", button)
        idle(d)
        events = d.execute_script("return window.__events;")
        check(events.count("seatmap:checkout") == 1, "three presses sent %d checkouts" % events.count("seatmap:checkout"))
        check(d.execute_script("return arguments[0].disabled && arguments[0].getAttribute('aria-busy') === 'true';", button),
              "the checkout button does not show that the order is under way")
        # The host's back end, after payment.
        status, answer = request(svc.base, "POST", "/shows/paid/order", {"token": token, "orderId": "web-1"}, key)
        check(status == 200 and sorted(answer.get("sold", [])) == sorted([a, b]), "the back office's order answered %d %s" % (status, answer))
        shown = wait_for(lambda: status_of(d, a) == "ordered" and status_of(d, b) == "ordered", 5.0)
        check(shown is not None, "the buyer's seats are %s and %s, not the buyer's, 5 s after the order" % (status_of(d, a), status_of(d, b)))
        time.sleep(2.5)
        events = d.execute_script("return window.__events;")
        said = message(d)
        check("seatmap:expired" not in events and fixed_part(w["picker.expired"]) not in said,
              "a buyer who paid was told the hold expired: %r, events %s" % (said, events))
        check(fixed_part(w["picker.ordered"]) in said, "after the order the page says %r" % said)
        check("seatmap:ordered" in events, "no seatmap:ordered event after the order (%s)" % events)
        check(status_of(d, a) == "ordered", "later, %s is %s" % (a, status_of(d, a)))
        label = d.execute_script("return document.getElementById('seat-' + arguments[0]).getAttribute('aria-label');", a)
        check(w["status.yours"] in label, "the paid seat is labelled %r" % label)
        print("paid flow: one checkout of three presses, the order seen in %.2f s, seats the buyer's (%r), no expiry" % (shown or -1, said))
    finally:
        d.quit()
        svc.stop()
        os.unlink(kf.name)


def contrast(a, b):
    def lum(c):
        def ch(v):
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    la, lb = lum(a), lum(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def big_venue(svc, axe):
    rows = [{"row": r, "price": 40, "seats": [{"column": c, "status": 2 if (r * 7 + c * 3) % 10 == 0 else 0} for c in range(1, 101)]}
            for r in range(1, 101)]
    with open(os.path.join(svc.dir, "tenk.json"), "w") as f:
        json.dump({"cinemaName": "Big", "hallName": "Arena", "movieStartTime": "2026-12-31 20:00", "maxSelectCount": 6, "rows": rows}, f)
    svc.show("tenk", "tenk")
    for size, label in [(PHONE, "phone"), (DESKTOP, "desktop")]:
        d = browser(size)
        try:
            d.get(svc.base + "/shows/tenk/picker?locale=en")
            idle(d)
            time.sleep(0.3)
            v = view(d)
            check(v["overview"], "%s: the 10,000-seat hall did not open as its sections: %s" % (label, v))
            violations = run_axe(d, axe, "10,000 seats at %s, overview" % label)
            info = d.execute_script("""
                var s = document.querySelector('[data-seatmap-section]'), l = s && s.querySelector('[data-seatmap-section-label]');
                if (!l) return null;
                var cs = getComputedStyle(l), r = l.getBoundingClientRect();
                var bg = getComputedStyle(document.querySelector('.seatmap-picker')).backgroundColor;
                return {text: l.textContent, size: parseFloat(cs.fontSize) * (r.height > 0 ? 1 : 0), height: r.height, fill: cs.fill, bg: bg,
                        section: s.getAttribute('data-seatmap-section'), display: getComputedStyle(s.parentNode).display};""")
            check(info is not None and info["display"] != "none", "%s: no section label shown: %s" % (label, info))
            if not info:
                continue
            nums = lambda css: [float(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
            ratio = contrast(nums(info["fill"]), nums(info["bg"]))
            # The label's rendered height in CSS px (the font size is set in drawing units).
            check(info["height"] >= 11, "%s: the section label is %.1f CSS px high" % (label, info["height"]))
            check(ratio >= 4.5, "%s: the section label's contrast is %.2f:1 (%s on %s)" % (label, ratio, info["fill"], info["bg"]))
            check("9000 of 10000" in info["text"], "%s: the section says %r" % (label, info["text"]))
            # Enter on the section: zoomed in, focus on its first free seat.
            d.execute_script("document.querySelector('[data-seatmap-section]').focus();")
            ActionChains(d).send_keys(Keys.ENTER).perform()
            idle(d)
            time.sleep(0.3)
            v = view(d)
            seat = focused(d)
            check(not v["overview"], "%s: Enter on the section did not zoom in to seats: %s" % (label, v))
            check(seat is not None and status_of(d, seat) == "available", "%s: after Enter focus is on %s (%s)" % (label, seat, status_of(d, seat) if seat else d.execute_script("return document.activeElement.tagName;")))
            violations += run_axe(d, axe, "10,000 seats at %s, zoomed in" % label)
            print("big venue (%s): section label %r %.0f px high, contrast %.1f:1; Enter zoomed in with focus on %s; axe: %d violations"
                  % (label, info["text"], info["height"], ratio, seat, violations))
        finally:
            d.quit()


def best_and_host(svc):
    with picker(svc, "best", "cinema-12x18", DESKTOP, "?locale=en") as d:
        d.execute_script("var q = document.querySelector('[data-seatmap-quantity]'); q.value = '3'; q.dispatchEvent(new Event('change'));")
        d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="best"]').click()
        idle(d)
        cart = d.execute_script("return window.seatmap.cart().seats;")
        check(len(cart) == 3 and all(status_of(d, s) == "selected" for s in cart), "best of 3 gave the cart %s" % cart)
        token = d.execute_script("return window.seatmap.token();")
        state = json.loads(urllib.request.urlopen(svc.base + "/shows/best/status", timeout=30).read())
        held = sorted(s for h in state["holds"] if h.get("token") == token for s in h.get("seats", []))
        check(held == sorted(cart), "the service holds %s for the page's token, the cart shows %s" % (held, cart))
        # The host asks for a seat (as a message from the page's own origin).
        free = d.execute_script("var g = document.querySelector('g[id^=\"seat-\"][data-status=\"available\"]'); return g.id.slice(5);")
        d.execute_script("window.postMessage({type: 'seatmap:select', id: arguments[0]}, location.origin);", free)
        wait_for(lambda: status_of(d, free) == "selected", 3.0)
        idle(d)
        check(status_of(d, free) == "selected" and free in d.execute_script("return window.seatmap.cart().seats;"),
              "seatmap:select %s left it %s" % (free, status_of(d, free)))
        # The host zooms to a seat: a readable zoom, focus on it.
        d.execute_script("window.seatmap.fit(); window.postMessage({type: 'seatmap:zoomTo', seat: '1-12-2'}, location.origin);")
        idle(d)
        time.sleep(0.3)
        v = view(d)
        check(v["k"] * v["seat"] >= 15 and focused(d) == "1-12-2", "seatmap:zoomTo seat 1-12-2: seats of %.1f px, focus on %s" % (v["k"] * v["seat"], focused(d)))
        print("best available: 3 held under the page's token %s; seatmap:select held %s; seatmap:zoomTo showed 1-12-2 at %.0f px"
              % (cart, free, v["k"] * v["seat"]))


def choices(svc, seatmap):
    """A cart line's ticket type (gala: categories with several), and the price filter with best available."""
    with picker(svc, "gala-types", "gala", DESKTOP, "?locale=en") as d:
        line = None
        picked = []
        for _ in range(12):
            s = pick(d, skip=picked)
            if not s:
                break
            picked.append(s)
            line = d.execute_script("var s = document.querySelector('[data-seatmap-ticket-type]'); return s && [s.getAttribute('data-seat'), Array.from(s.options).map(o => o.value), s.value];")
            if line:
                break
        check(line is not None, "no cart line offered a ticket type choice after picking %s" % picked)
        if line:
            seat, names, chosen = line
            other = [n for n in names if n != chosen][0]
            before = d.execute_script("return window.seatmap.cart().total;")
            d.execute_script("var s = document.querySelector('[data-seatmap-ticket-type]'); s.value = arguments[0]; s.dispatchEvent(new Event('change', {bubbles: true}));", other)
            idle(d)
            token = d.execute_script("return window.seatmap.token();")
            status, answer = request(svc.base, "POST", "/shows/gala-types/select", {"token": token, "toggle": []})
            item = [i for i in answer.get("cart", []) if i.get("id") == seat]
            check(item and item[0].get("ticketType") == other, "after choosing %s the service has %s" % (other, item))
            shown = d.execute_script("var s = document.querySelector('[data-seatmap-ticket-type][data-seat=\"' + arguments[0] + '\"]'); return s && s.value;", seat)
            check(shown == other, "the cart line shows %s after choosing %s" % (shown, other))
            print("ticket type: %s chosen for %s (total %s -> %s)" % (other, seat, before, d.execute_script("return window.seatmap.cart().total;")))
    price = {s["id"]: float(s["price"]) for s in layout_seats(seatmap, "cinema-12x18")}
    with picker(svc, "cheap", "cinema-12x18", DESKTOP, "?locale=en") as d:
        d.execute_script("var s = document.querySelector('[data-seatmap-price-filter]'); s.value = s.options[1].value; s.dispatchEvent(new Event('change', {bubbles: true}));")
        top = min(price.values())
        dimmed = d.execute_script("return Array.from(document.querySelectorAll('g.seatmap-filtered')).map(g => g.id.slice(5));")
        check(dimmed and all(price[s] > top for s in dimmed) and len(dimmed) == sum(1 for p in price.values() if p > top),
              "the filter up to %s dimmed %d seats" % (top, len(dimmed)))
        d.find_element(By.CSS_SELECTOR, '[data-seatmap-action="best"]').click()
        idle(d)
        cart = d.execute_script("return window.seatmap.cart().seats;")
        check(len(cart) == 2 and all(price[s] <= top for s in cart), "best available under the filter gave %s" % cart)
        print("price filter: up to %s dimmed %d seats; best available kept to it: %s" % (top, len(dimmed), cart))


def sold_out(svc, seatmap):
    """Every seat sold (a status batch): the page says the show is sold out, not "pick seats"."""
    w = words("en")
    svc.show("gone", "seed")
    batch = {"batchId": "all", "sequence": 1, "changes": [{"id": s["id"], "status": 2} for s in layout_seats(seatmap, "seed")]}
    status, answer = request(svc.base, "POST", "/shows/gone/status", batch)
    check(status == 200, "selling every seat answered %d %s" % (status, answer))
    with picker(svc, "gone", "seed", PHONE, "?locale=en") as d:
        shown = wait_for(lambda: d.execute_script("return document.querySelector('.seatmap-total').textContent;") == w["picker.soldOut"], 5.0)
        check(shown is not None, "a sold-out show says %r" % d.execute_script("return document.querySelector('.seatmap-total').textContent;"))
        print("sold out: the page says %r" % w["picker.soldOut"])


def host_page(seatmap):
    """Examples/picker-host.html as its comment says to run it: another origin, allowed by --allowed-origin."""
    port = free_port()
    svc = Service_(seatmap, [os.path.join(ROOT, "Examples", "cinema-12x18.json")], "--allowed-origin", "http://localhost:%d" % port)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=os.path.join(ROOT, "Examples"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    d = browser(DESKTOP)
    try:
        svc.show("tonight", "cinema-12x18")
        d.get("http://localhost:%d/picker-host.html?service=%s&show=tonight" % (port, svc.base))
        heard = lambda kind: [m for m in d.execute_script("return window.heard;") if m.get("type") == kind]
        check(wait_for(lambda: heard("seatmap:ready"), 10) is not None, "the host page heard no seatmap:ready")
        d.find_element(By.ID, "select").click()
        check(wait_for(lambda: any(m.get("id") == "1-5-7" and m.get("selected") for m in heard("seatmap:toggle")), 5) is not None,
              "Select it: the host heard %s" % heard("seatmap:toggle"))
        d.find_element(By.ID, "best").click()
        check(wait_for(lambda: any(len(m.get("seats", [])) == 2 for m in heard("seatmap:cart")[1:]), 5) is not None,
              "Best available: the host heard carts %s" % heard("seatmap:cart"))
        d.find_element(By.ID, "ordered").click()
        check(wait_for(lambda: heard("seatmap:ordered"), 5) is not None, "Payment done: the host heard no seatmap:ordered")
        ordered = heard("seatmap:ordered")
        d.switch_to.frame(d.find_element(By.ID, "picker"))
        shown = [status_of(d, sid) for sid in (ordered[0]["seats"] if ordered else [])]
        d.switch_to.default_content()
        check(shown and all(st == "ordered" for st in shown), "after seatmap:ordered the picker shows %s" % shown)
        print("host page: select, best and ordered driven from Examples/picker-host.html; it heard %s"
              % sorted(set(m["type"] for m in d.execute_script("return window.heard;"))))
    finally:
        d.quit()
        server.shutdown()
        svc.stop()


def service_down(seatmap):
    svc = Service_(seatmap, [os.path.join(ROOT, "Examples", "cinema-12x18.json")])
    svc.show("down", "cinema-12x18")
    d = browser(DESKTOP)
    try:
        w = words("de")
        d.get(svc.base + "/shows/down/picker?locale=de")
        idle(d)
        # A link to a show that is not there, or with a language the page does not have: a sentence, not JSON.
        d.get(svc.base + "/shows/nowhere/picker?locale=de")
        said = d.execute_script("var m = document.querySelector('[data-seatmap-message]'); return m ? m.textContent : document.body.textContent;")
        check(said == w["picker.noShow"], "a link to an unknown show shows %r" % said)
        d.get(svc.base + "/shows/down/picker?locale=xx")
        bad = d.execute_script("var m = document.querySelector('[data-seatmap-message]'); return m ? m.textContent : document.body.textContent;")
        check(bad == words("en")["picker.badLink"], "a link with an unknown locale shows %r" % bad)
        print("links: an unknown show says %r (de), an unknown locale %r" % (said, bad))
        d.get(svc.base + "/shows/down/picker?locale=de")
        idle(d)
        svc.proc.terminate()
        svc.proc.wait(timeout=10)
        said = wait_for(lambda: w["picker.offline"] in message(d), 35.0)
        check(said is not None, "with the service gone the page says %r" % message(d))
        d.execute_script("document.querySelector('g[id^=\"seat-\"][data-status=\"available\"]').dispatchEvent(new PointerEvent('pointerup'));")
        text = message(d)
        check("TypeError" not in text and "fetch" not in text.lower(), "a raw error reached the page: %r" % text)
        print("service down: the page said %r (de) after %.1f s" % (message(d), said or -1))
    finally:
        d.quit()
        svc.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seatmap", required=True)
    a = ap.parse_args()
    seatmap = os.path.abspath(a.seatmap)
    halls = sorted(os.path.join(ROOT, "Examples", f) for f in os.listdir(os.path.join(ROOT, "Examples")) if f.endswith(".json"))
    svc = Service_(seatmap, halls)
    try:
        keyboard_rows(svc, seatmap)
        big_venue(svc, axe_source())
        best_and_host(svc)
        choices(svc, seatmap)
        sold_out(svc, seatmap)
    finally:
        svc.stop()
    paid_flow(seatmap)
    service_down(seatmap)
    host_page(seatmap)
    return verdict("product test")


if __name__ == "__main__":
    sys.exit(main())
