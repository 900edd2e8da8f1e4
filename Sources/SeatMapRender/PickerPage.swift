import SeatMapCore

/// Where an interactive picker page sends its toggles: `seatmap serve`'s
/// select endpoint for a show. Without one (a page opened as a file) a
/// toggle is only announced to the host page as a `seatmap:toggle` event.
public struct PickerEndpoint: Sendable, Equatable {
    /// The URL path toggles are POSTed to (`/shows/SHOW/select`).
    public var select: String
    /// The hall's name in the service.
    public var hall: String
    /// Seats the buyer's token already holds, drawn picked when the page opens.
    public var held: [String]
    /// The buyer's hold token (nil: the first toggle gets one, which the
    /// page then sends with every toggle).
    public var token: String?

    public init(select: String, hall: String, held: [String] = [], token: String? = nil) {
        self.select = select
        self.hall = hall
        self.held = held
        self.token = token
    }
}

/// The interactive seat-picker page: one self-contained HTML document (no
/// network fetches besides its own toggles) holding the hall's SVG and a
/// small script. Pan with a drag, zoom with the wheel or a pinch (a touch
/// that moves more than 8 px is a pan, not a tap); hovering or focusing a
/// seat shows its title; arrow keys move between seats and Enter or Space
/// toggles one; a tap toggles the seat the browser hit-tests there (the
/// SVG's own elements: the geometry `seatmap hit` answers from). The page
/// applies no rules: served, it shows the service's answer (selection,
/// total, single-seat violations, a seat just sold); as a file, it emits
/// `seatmap:toggle` on `document` for the host page, which may call
/// `seatmap.setSelected(ids)`. `seatmap.view()` gives the pan and zoom
/// ({k, tx, ty}: a content pixel (x, y) shows at (tx + k·x, ty + k·y) in
/// the stage).
enum PickerPage {
    static func html(svg: String, scene: Scene, endpoint: PickerEndpoint?) -> String {
        let locale = scene.layout.locale
        let selected = scene.theme.selected, mark = scene.theme.markColor(on: selected)
        var config: [(String, JSONNode)] = [
            ("selectedColor", .string(Color(r: selected.r, g: selected.g, b: selected.b).hex)),
            ("markColor", .string(Color(r: mark.r, g: mark.g, b: mark.b).hex)),
            ("words", .object([
                ("sold", .string(locale.status(.sold))),
                ("selected", .string(locale.text("status.selected"))),
            ])),
        ]
        if let endpoint {
            config += [("select", .string(endpoint.select)), ("hall", .string(endpoint.hall)),
                       ("held", .array(endpoint.held.map { .string($0) }))]
            if let token = endpoint.token { config.append(("token", .string(token))) }
        }
        // JSON inside <script>: "</" must not end the element.
        let json = JSONWriter.write(.object(config), pretty: false).replacingOccurrences(of: "</", with: "<\\/")
        let body = svg.hasPrefix("<?xml") ? String(svg[(svg.firstIndex(of: "\n").map { svg.index(after: $0) } ?? svg.startIndex)...]) : svg
        let dir = locale.rightToLeft ? "rtl" : "ltr"
        return """
        <!doctype html>
        <html lang="\(SVGCanvas.escape(locale.language))" dir="\(dir)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(SVGCanvas.escape(scene.title))</title>
        <style>
        html,body{margin:0;height:100%;font-family:sans-serif}
        #seatmap-stage{position:relative;overflow:hidden;width:100%;height:calc(100% - 3em);touch-action:none;cursor:grab;background:#eee}
        #seatmap-stage>svg{position:absolute;left:0;top:0;transform-origin:0 0;display:block}
        #seatmap-status{height:3em;line-height:1.5em;padding:0 .5em;overflow:auto}
        #seatmap-tip{position:absolute;pointer-events:none;background:#222;color:#fff;padding:2px 6px;border-radius:4px;font-size:14px;white-space:nowrap;display:none;z-index:2}
        g[id^="seat-"]:focus{outline:none}
        g[id^="seat-"]:focus>*:first-child{stroke:#000;stroke-width:3px}
        </style>
        </head>
        <body>
        <div id="seatmap-stage">
        \(body)<div id="seatmap-tip" role="tooltip"></div></div>
        <div id="seatmap-status" role="status" aria-live="polite"></div>
        <script type="application/json" id="seatmap-config">\(json)</script>
        <script>
        \(script)
        </script>
        </body>
        </html>

        """
    }

    /// The page's script (plain ES2017, no dependencies).
    static let script = #"""
    (function () {
      "use strict";
      var cfg = JSON.parse(document.getElementById("seatmap-config").textContent);
      var stage = document.getElementById("seatmap-stage");
      var svg = stage.querySelector("svg");
      var tip = document.getElementById("seatmap-tip");
      var status = document.getElementById("seatmap-status");
      var NS = "http://www.w3.org/2000/svg";
      var k = 1, tx = 0, ty = 0;
      var SLOP = 8;

      function apply() { svg.style.transform = "translate(" + tx + "px," + ty + "px) scale(" + k + ")"; }
      function zoomAt(px, py, factor) {
        var nk = Math.min(8, Math.max(0.25, k * factor));
        tx = px - (px - tx) * nk / k;
        ty = py - (py - ty) * nk / k;
        k = nk;
        apply();
      }
      function local(e) { var r = stage.getBoundingClientRect(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
      function seatOf(el) { return el && el.closest ? el.closest('g[id^="seat-"]') : null; }
      function titleOf(seat) { var t = seat.querySelector("title"); return t ? t.textContent : seat.id.slice(5); }

      // Pan, pinch and tap with pointer events; a move of more than 8 px is a pan.
      var pointers = new Map(), start = null, moved = false, pinch = null;
      stage.addEventListener("pointerdown", function (e) {
        pointers.set(e.pointerId, local(e));
        if (pointers.size === 1) { start = { p: local(e), tx: tx, ty: ty }; moved = false; }
        if (pointers.size === 2) {
          var ps = Array.from(pointers.values());
          pinch = { d: Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y), k: k };
          moved = true;
        }
        try { stage.setPointerCapture(e.pointerId); } catch (err) { /* not every pointer can be captured */ }
      });
      stage.addEventListener("pointermove", function (e) {
        if (!pointers.has(e.pointerId)) { hover(e); return; }
        pointers.set(e.pointerId, local(e));
        if (pointers.size === 2 && pinch) {
          var ps = Array.from(pointers.values());
          var d = Math.hypot(ps[0].x - ps[1].x, ps[0].y - ps[1].y);
          if (pinch.d > 0) zoomAt((ps[0].x + ps[1].x) / 2, (ps[0].y + ps[1].y) / 2, pinch.k * d / pinch.d / k);
          return;
        }
        if (!start) return;
        var p = local(e), dx = p.x - start.p.x, dy = p.y - start.p.y;
        if (!moved && Math.hypot(dx, dy) > SLOP) moved = true;
        if (moved) { tx = start.tx + dx; ty = start.ty + dy; apply(); stage.style.cursor = "grabbing"; }
      });
      function end(e) {
        var wasTap = pointers.size === 1 && !moved && e.type === "pointerup";
        pointers.delete(e.pointerId);
        if (pointers.size < 2) pinch = null;
        if (pointers.size === 0) { start = null; stage.style.cursor = "grab"; }
        if (wasTap) {
          var seat = seatOf(document.elementFromPoint(e.clientX, e.clientY));
          if (seat) toggle(seat);
        }
      }
      stage.addEventListener("pointerup", end);
      stage.addEventListener("pointercancel", end);
      stage.addEventListener("wheel", function (e) {
        e.preventDefault();
        var p = local(e);
        zoomAt(p.x, p.y, Math.exp(-e.deltaY * 0.0015));
      }, { passive: false });

      // Tooltips from the seats' titles, on hover and on keyboard focus.
      function showTip(seat) {
        var r = seat.getBoundingClientRect(), s = stage.getBoundingClientRect();
        tip.textContent = titleOf(seat);
        tip.style.display = "block";
        tip.style.left = (r.left - s.left) + "px";
        tip.style.top = Math.max(0, r.top - s.top - tip.offsetHeight - 4) + "px";
      }
      function hideTip() { tip.style.display = "none"; }
      function hover(e) { var seat = seatOf(e.target); if (seat) showTip(seat); else hideTip(); }
      stage.addEventListener("pointerleave", hideTip);
      svg.addEventListener("focusin", function (e) { var seat = seatOf(e.target); if (seat) showTip(seat); });
      svg.addEventListener("focusout", hideTip);

      // Keyboard: arrows move to the nearest seat that way, Enter or Space toggles.
      function centre(seat) { var b = seat.getBBox(); return { x: b.x + b.width / 2, y: b.y + b.height / 2 }; }
      function focusable() { return Array.from(svg.querySelectorAll('g[id^="seat-"][tabindex]')); }
      svg.addEventListener("keydown", function (e) {
        var seat = seatOf(e.target);
        if (!seat) return;
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(seat); return; }
        var dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
        if (!dir) return;
        e.preventDefault();
        var c = centre(seat), best = null, bestScore = Infinity;
        focusable().forEach(function (other) {
          if (other === seat) return;
          var o = centre(other), dx = o.x - c.x, dy = o.y - c.y;
          var along = dx * dir[0] + dy * dir[1], across = Math.abs(dx * dir[1] - dy * dir[0]);
          if (along <= 0) return;
          var score = along + 3 * across;
          if (score < bestScore) { bestScore = score; best = other; }
        });
        if (best) best.focus();
      });

      // Picked seats: a mark over the seat's shape, inside its group (so the
      // browser still hit-tests the seat there).
      var picked = new Set();
      // A seat's own shape: its first <path>, or what its first <use> places
      // (through a seat drawn alike), as the box of the path's points (the
      // SVG writes absolute coordinates; a rounded rect's control points lie
      // inside it). Marks and highlight rings are left out.
      function shapeBox(seat) {
        var el = seat.querySelector(":scope > path, :scope > use"), dx = 0, dy = 0, guard = 0;
        while (el && el.tagName.toLowerCase() === "use" && guard++ < 4) {
          dx += parseFloat(el.getAttribute("x") || "0"); dy += parseFloat(el.getAttribute("y") || "0");
          var ref = document.getElementById((el.getAttribute("href") || "").slice(1));
          el = ref && ref.tagName.toLowerCase() === "g" ? ref.querySelector("path, use") : ref;
        }
        if (!el || el.tagName.toLowerCase() !== "path") return null;
        var n = (el.getAttribute("d") || "").match(/-?[0-9.]+/g) || [], xs = [], ys = [];
        for (var i = 0; i + 1 < n.length; i += 2) { xs.push(parseFloat(n[i])); ys.push(parseFloat(n[i + 1])); }
        if (!xs.length) return null;
        var x0 = Math.min.apply(null, xs), y0 = Math.min.apply(null, ys);
        return { x: x0 + dx, y: y0 + dy, width: Math.max.apply(null, xs) - x0, height: Math.max.apply(null, ys) - y0 };
      }
      function mark(seat, on) {
        var old = seat.querySelector(".seatmap-picked");
        if (old) old.remove();
        if (!on) return;
        var b = shapeBox(seat);
        if (!b) return;
        var g = document.createElementNS(NS, "g");
        g.setAttribute("class", "seatmap-picked");
        g.setAttribute("pointer-events", "none");
        var r = document.createElementNS(NS, "rect");
        r.setAttribute("x", b.x); r.setAttribute("y", b.y); r.setAttribute("width", b.width); r.setAttribute("height", b.height);
        r.setAttribute("rx", Math.min(b.width, b.height) / 6);
        r.setAttribute("fill", cfg.selectedColor);
        var check = document.createElementNS(NS, "path");
        var x = b.x, y = b.y, w = b.width, h = b.height;
        check.setAttribute("d", "M" + (x + w * 0.28) + " " + (y + h * 0.52) + "L" + (x + w * 0.44) + " " + (y + h * 0.68) + "L" + (x + w * 0.74) + " " + (y + h * 0.34));
        check.setAttribute("fill", "none");
        check.setAttribute("stroke", cfg.markColor);
        check.setAttribute("stroke-width", Math.max(1.5, w / 12));
        check.setAttribute("stroke-linecap", "round");
        g.appendChild(r); g.appendChild(check);
        seat.appendChild(g);
      }
      function setSelected(ids) {
        var next = new Set(ids);
        picked.forEach(function (id) { if (!next.has(id)) { var s = document.getElementById("seat-" + id); if (s) { mark(s, false); s.removeAttribute("aria-pressed"); } } });
        next.forEach(function (id) { var s = document.getElementById("seat-" + id); if (s) { mark(s, true); s.setAttribute("aria-pressed", "true"); } });
        picked = next;
      }
      function say(lines) { status.textContent = ""; lines.forEach(function (l) { var d = document.createElement("div"); d.textContent = l; status.appendChild(d); }); }
      function titleOfId(id) { var s = document.getElementById("seat-" + id); return s ? titleOf(s) : id; }

      var pending = Promise.resolve();
      function toggle(seat) {
        var id = seat.id.slice(5);
        if (!cfg.select) {
          document.dispatchEvent(new CustomEvent("seatmap:toggle", { detail: { id: id, title: titleOf(seat) } }));
          return;
        }
        // One toggle at a time, in order.
        pending = pending.then(function () {
          return fetch(cfg.select, { method: "POST", headers: { "Content-Type": "application/json" },
                                     body: JSON.stringify(cfg.token ? { toggle: [id], token: cfg.token } : { toggle: [id] }) })
            .then(function (r) { return r.json().then(function (j) { return { ok: r.ok, status: r.status, json: j }; }); })
            .then(function (a) {
              if (!a.ok) {
                // A token the show no longer knows (its holds expired): the next toggle gets a new one.
                if (a.status === 409 && cfg.token) { cfg.token = null; setSelected([]); }
                say([a.json.error || "error"]); return;
              }
              var answer = a.json;
              if (answer.token) cfg.token = answer.token;
              setSelected(answer.selected || []);
              var lines = [(answer.descriptions || []).join(" ") + (answer.totalText ? " · " + answer.totalText : "")];
              (answer.results || []).forEach(function (r) {
                if (r.result === "notAvailable" || r.result === "held") lines.push(titleOfId(r.id) + " — " + cfg.words.sold);
                else if (r.result !== "selected" && r.result !== "deselected") lines.push(titleOfId(r.id) + " — " + r.result);
              });
              (answer.violations || []).forEach(function (v) { lines.push("⚠ " + titleOfId(v)); });
              say(lines);
              status.setAttribute("data-total", answer.total || "");
              document.dispatchEvent(new CustomEvent("seatmap:toggle", { detail: { id: id, title: titleOf(seat), answer: answer } }));
            })
            .catch(function (err) { say([String(err)]); });
        });
      }

      window.seatmap = {
        setSelected: setSelected,
        selected: function () { return Array.from(picked).sort(); },
        view: function () { return { k: k, tx: tx, ty: ty }; },
        idle: function () { return pending; },
        token: function () { return cfg.token || null; }
      };
      if (cfg.held) setSelected(cfg.held);
      apply();
    })();
    """#
}
