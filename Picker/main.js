// The picker page: every picker on the page not yet started is started.
// The DOM and the network live here; what a key, an answer or a message
// means is decided by the modules (geometry, view, keyboard, live, cart,
// messages), which `node --test Picker/` tests on their own.
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var P = window.SeatMapPicker, fill = P.messages.fill;

  function start(root) {
    root.setAttribute("data-seatmap-ready", "");
    var cfg = JSON.parse(root.querySelector("script.seatmap-config").textContent);
    var W = cfg.words, C = cfg.colors;
    var geo = new P.geometry.Geometry(cfg.geometry);
    function q(sel) { return root.querySelector(sel); }
    var stage = q(".seatmap-stage"), svg = stage.querySelector("svg"), tip = q(".seatmap-tip"), rowBar = q(".seatmap-rows"), rowList = q(".seatmap-rows-list");
    var cartEl = q("[data-seatmap-cart]"), msgEl = q("[data-seatmap-message]"), totalEl = q(".seatmap-total"), timerEl = q(".seatmap-timer");
    var confirmBtn = q('[data-seatmap-action="checkout"]'), confirmText = confirmBtn.textContent;
    var quantityEl = q("[data-seatmap-quantity]");
    var svgW = svg.width.baseVal.value, svgH = svg.height.baseVal.value;
    var k = 1, tx = 0, ty = 0, kMin = 1, kMax = 8, SLOP = 8;
    var embedded = window.parent !== window;
    var origins = [location.origin].concat(cfg.hostOrigins || []);
    // Server sentences are shown as they are only on an English page (the service speaks English).
    var sameLanguage = /^en\b/.test(cfg.locale || "");

    // ---- Seats: their plan status, words and state ----
    var seats = new Map(), planStatus = new Map(), external = new Map();
    Array.prototype.forEach.call(svg.querySelectorAll('g[id^="seat-"]'), function (g) {
      var id = g.id.slice(5), cls = g.getAttribute("class") || "";
      var st = /\bsold\b/.test(cls) ? "sold" : /\blocked\b/.test(cls) ? "locked" : "available";
      var title = g.getAttribute("aria-label") || id, word = W["status." + st];
      var at = word ? title.lastIndexOf(word) : -1;
      var base = at > 0 ? title.slice(0, at).replace(/[\s,，、·]+$/, "") : title;
      var sep = at > 0 ? title.slice(base.length, at) : ", ";
      // A seat's tier is its run group's class (neighbours of one tier, price and row share one).
      var run = g.parentNode && g.parentNode.getAttribute ? g.parentNode.getAttribute("class") || "" : "";
      seats.set(id, { g: g, base: base, sep: sep || " ", tier: ((/\btier-(\d+)\b/.exec(cls + " " + run) || [])[1]) });
      planStatus.set(id, st);
      var ext = g.getAttribute("data-external-id");
      if (ext && !external.has(ext)) external.set(ext, id);
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "-1");
    });
    var status = new Map(planStatus), tipSeat = null;
    var current = null;  // the seat that holds the map's one Tab stop
    function seatOf(el) { var g = el && el.closest ? el.closest('g[id^="seat-"]') : null; return g && svg.contains(g) ? g : null; }
    function idOf(g) { return g.id.slice(5); }
    function info(g) { return seats.get(idOf(g)); }
    function free(id) { var st = status.get(id); return st === "available" || st === "selected"; }
    function el(name, attrs) { var e = document.createElementNS(NS, name); for (var a in attrs) e.setAttribute(a, attrs[a]); return e; }
    function wordOf(st) { return st === "ordered" ? W["status.yours"] : W["status." + st] || st; }

    // Marks (statuses that changed, the focus ring, gaps) are drawn on a layer of their own
    // over the drawing, at the layout's rects, in the drawing's units: never inside a seat's
    // group (whose row may be placed by a transform), never hit by the pointer.
    var marks = el("g", { "class": "seatmap-marks", "pointer-events": "none", "aria-hidden": "true" }), markOf = new Map();
    svg.appendChild(marks);
    function overlay(g, st) {
      var id = idOf(g), old = markOf.get(id);
      if (old) { old.remove(); markOf.delete(id); }
      if (st === planStatus.get(id)) return;
      var b = geo.rect(id);
      if (!b) return;
      var m = el("g", { "class": "seatmap-mark", "pointer-events": "none" });
      var mine = st === "selected" || st === "ordered";
      var color = mine ? C.selected : st === "sold" ? C.sold : st === "available" ? (C.tiers[(+info(g).tier || 0) % C.tiers.length] || C.selected) : C.locked;
      var ink = mine ? C.mark : st === "sold" ? C.soldMark : C.lockedMark;
      m.appendChild(el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: Math.min(b.w, b.h) / 6, fill: color }));
      var x = b.x, y = b.y, w = b.w, h = b.h, sw = Math.max(1.5, w / 12);
      var d = mine ? "M" + (x + w * 0.28) + " " + (y + h * 0.52) + "L" + (x + w * 0.44) + " " + (y + h * 0.68) + "L" + (x + w * 0.74) + " " + (y + h * 0.34)
        : st === "sold" ? "M" + (x + w * 0.3) + " " + (y + h * 0.3) + "L" + (x + w * 0.7) + " " + (y + h * 0.7) + "M" + (x + w * 0.7) + " " + (y + h * 0.3) + "L" + (x + w * 0.3) + " " + (y + h * 0.7)
        : st === "available" ? "" : "M" + (x + w * 0.3) + " " + (y + h * 0.7) + "L" + (x + w * 0.7) + " " + (y + h * 0.3);
      if (d) m.appendChild(el("path", { d: d, fill: "none", stroke: ink, "stroke-width": sw, "stroke-linecap": "round" }));
      marks.insertBefore(m, marks.firstChild);
      markOf.set(id, m);
    }
    function paint(id, st) {
      var s = seats.get(id);
      if (!s) return;
      var before = s.g.getAttribute("data-status");
      status.set(id, st);
      if (before === st) return;
      statusVersion++;
      if (snapImg) snapLater();
      s.g.setAttribute("data-status", st);
      s.g.setAttribute("aria-pressed", st === "selected" ? "true" : "false");
      if (st === "available" || st === "selected") s.g.removeAttribute("aria-disabled"); else s.g.setAttribute("aria-disabled", "true");
      var label = s.base + s.sep + wordOf(st);
      s.g.setAttribute("aria-label", label);
      var t = s.g.querySelector("title");
      if (t) t.textContent = label;
      if (tipSeat === s.g) tip.textContent = label;
      overlay(s.g, st);
      if (miniShown && !miniDirty) { miniDirty = true; requestAnimationFrame(function () { if (miniDirty) drawMinimap(); }); }
    }
    var statusVersion = 0, snapImg = null;
    seats.forEach(function (s, id) { s.g.removeAttribute("data-status"); paint(id, planStatus.get(id)); });
    function setCurrent(g) {
      if (current === g || !g) return;
      if (current) current.setAttribute("tabindex", "-1");
      current = g;
      g.setAttribute("tabindex", "0");
    }
    function firstSeat() {
      var id = geo.firstIn(null, free) || geo.firstIn(null);
      var s = id && seats.get(id);
      return s ? s.g : (seats.size ? seats.values().next().value.g : null);
    }
    setCurrent(firstSeat());

    // ---- View: fit, zoom, pan (arithmetic in view.js) ----
    // The stage's box, read again only when the window changes size (reading it forces a layout).
    var stageBox = null;
    function box() { if (!stageBox) stageBox = stage.getBoundingClientRect(); return stageBox; }
    window.addEventListener("resize", function () { stageBox = null; });
    // A host page that scrolls moves the stage: taps and zooms use where it is now.
    window.addEventListener("scroll", function () { stageBox = null; }, { capture: true, passive: true });
    stage.addEventListener("pointerdown", function () { stageBox = null; }, true);
    function setView(v) { k = v.k; tx = v.tx; ty = v.ty; }
    var frame = 0, placed = "";
    function apply() {
      setView(P.view.clamp({ k: k, tx: tx, ty: ty }, box(), svgW, svgH));
      // The drawing is laid out at the scale it was last painted at (kR) and only moved, or
      // scaled by k / kR while a zoom is under way: a pan never paints it again.
      var f = k / kR;
      var moved = placed = "translate(" + tx + "px," + ty + "px)" + (Math.abs(f - 1) > 1e-9 ? " scale(" + f + ")" : "");
      if (!snapShown) svg.style.transform = moved;
      if (snapKey) snapImg.style.transform = moved;
      if (!frame) frame = requestAnimationFrame(function () { frame = 0; drawRows(); setOverview(); drawMinimap(); });
    }
    var rowsShown = null, rowsK = null;
    function drawRows() {
      // The row labels pinned at the edge while the drawing's own are out of view: placed
      // for the zoom once, then the bar moves with the pan (one style change a frame).
      var show = tx < -4 && cfg.rows.length > 0 && !overview;
      if (show !== rowsShown) { rowsShown = show; rowBar.style.display = show ? "block" : "none"; }
      if (!show) return;
      if (!rowList.childNodes.length) cfg.rows.forEach(function (r) { var s = document.createElement("span"); s.textContent = r[0]; rowList.appendChild(s); });
      if (rowsK !== k) {
        rowsK = k;
        cfg.rows.forEach(function (r, i) { rowList.childNodes[i].style.top = (k * r[1]) + "px"; });
      }
      rowList.style.transform = "translateY(" + ty + "px)";
    }

    // ---- The minimap while zoomed in, beside the cart (never over the seats): every seat
    // as a dot in its status's colour from the layout's rects, the view as a frame ----
    var mini = q(".seatmap-minimap"), miniCtx = mini.getContext ? mini.getContext("2d") : null, miniDirty = true, miniShown = false, miniBase = null;
    // The minimap's box: its style's largest size (smaller on a phone), else the page's.
    var miniBox = null;
    window.addEventListener("resize", function () { miniBox = null; });
    function miniScale() {
      if (!miniBox) {
        var cs = getComputedStyle(mini);
        miniBox = [parseFloat(cs.maxWidth) || cfg.minimap[0], parseFloat(cs.maxHeight) || cfg.minimap[1]];
      }
      return Math.min(miniBox[0] / svgW, miniBox[1] / svgH);
    }
    function colourOf(id, st) {
      if (st === "selected" || st === "ordered") return C.selected;
      if (st === "sold") return C.sold;
      if (st === "locked" || st === "held") return C.locked;
      var s = seats.get(id);
      return C.tiers[(+(s && s.tier) || 0) % C.tiers.length] || C.selected;
    }
    function drawMinimap() {
      var show = k > kMin * 1.5 && !!miniCtx;
      if (show !== miniShown) { miniShown = show; mini.style.visibility = show ? "visible" : "hidden"; root.classList.toggle("seatmap-zoomed", show); }
      if (!show) return;
      var f = miniScale(), w = Math.max(1, Math.ceil(svgW * f)), h = Math.max(1, Math.ceil(svgH * f)), dpr = window.devicePixelRatio || 1;
      if (mini.width !== Math.round(w * dpr)) { mini.width = Math.round(w * dpr); mini.height = Math.round(h * dpr); mini.style.width = w + "px"; mini.style.height = h + "px"; miniDirty = true; }
      // The dots are drawn again only when a status changed; a pan only moves the frame.
      if (miniDirty || !miniBase || miniBase.width !== mini.width) {
        miniBase = miniBase || document.createElement("canvas");
        miniBase.width = mini.width; miniBase.height = mini.height;
        var b = miniBase.getContext("2d");
        b.setTransform(dpr, 0, 0, dpr, 0, 0);
        b.fillStyle = C.background;
        b.fillRect(0, 0, w, h);
        geo.seats.forEach(function (r, id) {
          b.fillStyle = colourOf(id, status.get(id));
          b.fillRect(r.x * f, r.y * f, Math.max(1, r.w * f), Math.max(1, r.h * f));
        });
      }
      miniCtx.setTransform(1, 0, 0, 1, 0, 0);
      miniCtx.drawImage(miniBase, 0, 0);
      miniCtx.setTransform(dpr, 0, 0, dpr, 0, 0);
      var v = P.view.visible({ k: k, tx: tx, ty: ty }, box());
      miniCtx.strokeStyle = C.focus;
      miniCtx.lineWidth = 1.5;
      miniCtx.strokeRect(v.x * f, v.y * f, v.w * f, v.h * f);
      miniDirty = false;
    }
    function miniPan(e) {
      var rect = mini.getBoundingClientRect(), f = miniScale();
      setView(P.view.centreOn({ k: k, tx: tx, ty: ty }, box(), (e.clientX - rect.left) / f, (e.clientY - rect.top) / f));
      apply();
    }
    mini.addEventListener("pointerdown", function (e) {
      e.stopPropagation(); e.preventDefault();
      miniPan(e);
      var move = function (m) { miniPan(m); }, up = function () { mini.removeEventListener("pointermove", move); mini.removeEventListener("pointerup", up); };
      try { mini.setPointerCapture(e.pointerId); } catch (err) { /* a pointer that cannot be captured */ }
      mini.addEventListener("pointermove", move);
      mini.addEventListener("pointerup", up);
    });

    // ---- Big venues: below readable seats, sections with their seats left ----
    var READABLE = 7, overview = false, sectionLayer = null, sectionsAt = 0;
    var oneSection = cfg.sections.length === 1 && cfg.sections[0][0] === -1;
    function sectionOf(id) { return oneSection ? -1 : +id.split("-")[0]; }
    function sectionCounts() {
      var c = {};
      cfg.sections.forEach(function (sec) { c[sec[0]] = [0, 0]; });
      status.forEach(function (st, id) {
        var n = c[sectionOf(id)];
        if (!n) return;
        n[1]++;
        if (st === "available") n[0]++;
      });
      return c;
    }
    function drawSections() {
      if (!sectionLayer) {
        sectionLayer = el("g", { "class": "seatmap-sections" });
        cfg.sections.forEach(function (sec) {
          var g = el("g", { "class": "seatmap-section", role: "button", tabindex: "-1", "data-seatmap-section": String(sec[0]) });
          g.appendChild(el("rect", { x: sec[2], y: sec[3], width: sec[4], height: sec[5], rx: 6, fill: C.tiers[0] || C.selected, "fill-opacity": "0.18",
                                     stroke: C.tiers[0] || C.selected, "stroke-width": 2 }));
          // Classed, so no rule of the drawing's own for bare text applies: the page's styles size and colour them.
          g.appendChild(el("text", { "class": "seatmap-section-label", x: sec[2] + sec[4] / 2, "text-anchor": "middle", "data-seatmap-section-label": "" }));
          sectionLayer.appendChild(g);
        });
        svg.appendChild(sectionLayer);
        if (sectionLayer.firstChild) sectionLayer.firstChild.setAttribute("tabindex", "0");
      }
      // The label is 14 CSS px at any zoom: the section's name and its seats left.
      var counts = sectionCounts(), size = 14 / k;
      Array.prototype.forEach.call(sectionLayer.childNodes, function (g, i) {
        var sec = cfg.sections[i], n = counts[sec[0]] || [0, 0], label = g.querySelector("text");
        var words = fill(W["summary"], { available: n[0], seats: n[1] });
        label.textContent = sec[1] ? sec[1] + " · " + words : words;
        label.setAttribute("y", sec[3] + sec[5] / 2 + size * 0.35);
        label.style.fontSize = size + "px";
        g.setAttribute("aria-label", (sec[1] ? sec[1] + ": " : "") + words);
      });
    }
    var small = null;
    function setOverview() {
      // Seat numbers too small to read are not drawn (text is most of what a big hall costs to paint).
      var tiny = k * cfg.seatSize < 16;
      if (tiny !== small) { small = tiny; root.classList.toggle("seatmap-small", tiny); }
      var now = k * cfg.seatSize < READABLE && seats.size > 0;
      if (now !== overview) {
        overview = now;
        root.classList.toggle("seatmap-overview", now);
        if (now) drawSections();
        if (now && document.activeElement && svg.contains(document.activeElement)) { var f = sectionLayer && sectionLayer.firstChild; if (f) f.focus({ preventScroll: true }); }
      }
      if (overview && sectionsAt !== k) { sectionsAt = k; drawSections(); }
    }
    // Zooms to a section at a readable scale and puts focus on its first free seat.
    function zoomToSection(i, focusSeat) {
      var sec = cfg.sections[i];
      if (!sec) return;
      var r = box();
      var nk = Math.min(kMax, Math.max(Math.min(r.width / sec[4], r.height / sec[5]) * 0.95, (READABLE + 1) / cfg.seatSize));
      k = Math.max(kMin, nk);
      settle();
      setView(P.view.centreOn({ k: k, tx: tx, ty: ty }, r, sec[2] + sec[4] / 2, sec[3] + sec[5] / 2));
      apply();
      if (focusSeat) {
        var id = geo.firstIn(sec[0] === -1 ? null : sec[0], free) || geo.firstIn(sec[0] === -1 ? null : sec[0]);
        var s = id && seats.get(id);
        if (s) {
          // The seats show once the overview is left (the next frame): focus then.
          overview = false;
          root.classList.remove("seatmap-overview");
          setCurrent(s.g);
          s.g.focus({ preventScroll: true });
          reveal(s.g);
        }
      }
    }
    function sectionIndex(g) { return Array.prototype.indexOf.call(sectionLayer.childNodes, g); }

    function limits() {
      kMin = P.view.fitScale(box(), svgW, svgH);
      kMax = Math.max(kMin, 48 / cfg.seatSize);
    }
    function fit() { limits(); k = kMin; settle(true); apply(); }
    // The drawing is its own compositor layer at screen size: a pan moves its pixels; a
    // zoom scales them until it settles, then the drawing is sized to the new scale and
    // painted once, sharp.
    var crisp = 0, kR = 1;
    svg.style.willChange = "transform";
    function paintAt(scale) {
      kR = scale;
      svg.style.width = svgW * kR + "px";
      svg.style.height = svgH * kR + "px";
    }
    function settle(now) {
      clearTimeout(crisp);
      if (now) { paintAt(k); snapLater(); return; }
      crisp = setTimeout(function () { paintAt(k); apply(); snapLater(); }, 180);
    }
    // A big drawing is panned as a picture of itself: the browser would otherwise walk
    // every seat's element each frame. The picture is taken when the view is idle
    // (after a zoom, after statuses change) and shown only while a drag moves the view.
    snapImg = q(".seatmap-snapshot");
    var snapShown = false, snapKey = "", snapWant = "", snapTimer = 0;
    function snapState() { return kR + ":" + statusVersion + ":" + overview + ":" + small; }
    function snapLater() {
      if (seats.size < 2000 || !window.Blob || !window.URL || !URL.createObjectURL) return;
      clearTimeout(snapTimer);
      snapTimer = setTimeout(takeSnapshot, 400);
    }
    function takeSnapshot() {
      var want = snapState();
      if (want === snapKey || want === snapWant || dragging) return;
      snapWant = want;
      var text = new XMLSerializer().serializeToString(svg);
      // The root as laid out now, without the page's inline styles; the page's rules that
      // hide seats or their numbers at this zoom, inside the picture.
      var hide = 'g.seatmap-filtered{opacity:.3}' + (overview ? 'g[id^="seat-"],.seatmap-marks{display:none}' : '') + (small ? 'g[id^="seat-"]>text{display:none}' : '') + (overview ? '' : '.seatmap-sections{display:none}');
      text = text.replace(/^<svg([^>]*?)\sstyle="[^"]*"/, "<svg$1").replace(/^<svg([^>]*?)\swidth="[^"]*"/, "<svg$1").replace(/^<svg([^>]*?)\sheight="[^"]*"/, "<svg$1")
                 .replace(/^<svg/, '<svg width="' + svgW * kR + '" height="' + svgH * kR + '"').replace(/^(<svg[^>]*>)/, "$1<style>" + hide + "</style>");
      var url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
      var img = new Image();
      img.onload = function () {
        var old = snapImg.src;
        if (snapWant !== want) { URL.revokeObjectURL(url); return; }
        snapImg.src = url;
        snapImg.width = svgW * kR; snapImg.height = svgH * kR;
        snapKey = want;
        // Kept on the page, aligned and all but transparent, so it is painted before a drag needs it.
        snapImg.style.transform = placed;
        snapImg.style.display = "block";
        if (snapImg.decode) snapImg.decode().catch(function () { /* shown undecoded, then */ });
        if (old && old.indexOf("blob:") === 0) URL.revokeObjectURL(old);
      };
      img.onerror = function () { URL.revokeObjectURL(url); snapWant = ""; };
      img.src = url;
    }
    function showSnapshot(on) {
      if (on && (snapKey !== snapState() || !snapImg.src)) return;
      if (on === snapShown) return;
      snapShown = on;
      // The picture (kept painted, all but transparent) shows; the live drawing is moved out
      // of the stage on its own layer and put back by apply() when the drag ends.
      snapImg.style.opacity = on ? "1" : "";
      if (on) svg.style.transform = "translate(-400000px,0)";
      else apply();
    }
    function zoomAt(px, py, factor) {
      settle();
      setView(P.view.zoomAt({ k: k, tx: tx, ty: ty }, px, py, factor, kMin, kMax));
      apply();
    }
    function zoomCentre(factor) { var r = box(); zoomAt(r.width / 2, r.height / 2, factor); }
    function pan(dx, dy) { var r = box(); tx += dx * r.width / 4; ty += dy * r.height / 4; apply(); }
    // Brings a seat into view (clear of the pan buttons' corner).
    function reveal(g) {
      var b = geo.rect(idOf(g));
      if (!b) return;
      var pad = q(".seatmap-pan").getBoundingClientRect(), r = box();
      var gutter = rowsShown ? rowBar.getBoundingClientRect().width : 0;
      var inset = { left: gutter, top: 0, right: 0, bottom: pad.width ? r.bottom - pad.top + 4 : 0 };
      var v = P.view.reveal({ k: k, tx: tx, ty: ty }, r, b, inset);
      if (v.tx !== tx || v.ty !== ty) { setView(v); apply(); }
    }
    function local(e) { var r = box(); return { x: e.clientX - r.left, y: e.clientY - r.top }; }
    // Focus never scrolls the stage: the transform is the only view.
    stage.addEventListener("scroll", function () { stage.scrollLeft = 0; stage.scrollTop = 0; });

    var pointers = new Map(), startP = null, moved = false, pinch = null, dragging = false;
    stage.addEventListener("pointerdown", function (e) {
      if (e.target.closest && e.target.closest(".seatmap-pan")) return;
      pointers.set(e.pointerId, local(e));
      if (pointers.size === 1) { startP = { p: local(e), tx: tx, ty: ty }; moved = false; }
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
      if (!startP) return;
      var p = local(e), dx = p.x - startP.p.x, dy = p.y - startP.p.y;
      if (!moved && Math.hypot(dx, dy) > SLOP) moved = true;
      if (moved) {
        // Styles set once per drag, not per move (each set restyles the whole drawing).
        if (!dragging) { dragging = true; root.classList.add("seatmap-dragging"); showSnapshot(true); }
        tx = startP.tx + dx; ty = startP.ty + dy; apply();
      }
    });
    function end(e) {
      var wasTap = pointers.size === 1 && pointers.has(e.pointerId) && !moved && e.type === "pointerup";
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) { startP = null; if (dragging) { dragging = false; root.classList.remove("seatmap-dragging"); showSnapshot(false); snapLater(); } }
      if (wasTap) {
        var hit = document.elementFromPoint(e.clientX, e.clientY);
        var sec = hit && hit.closest ? hit.closest(".seatmap-section") : null;
        if (sec) { zoomToSection(sectionIndex(sec), true); return; }
        var g = seatOf(hit);
        if (g) { setCurrent(g); toggle(g); return; }
        var area = hit && hit.closest ? hit.closest('g[id^="area-"]') : null;
        if (area && svg.contains(area) && (cfg.areas || []).indexOf(area.id.slice(5)) >= 0) setArea(area.id.slice(5), (places[area.id.slice(5)] || 0) + 1);
      }
    }
    stage.addEventListener("pointerup", end);
    stage.addEventListener("pointercancel", end);
    stage.addEventListener("wheel", function (e) {
      // On its own page the wheel zooms; embedded in another, only with Ctrl (a pinch on a touchpad), so the host page still scrolls.
      if (embedded && !e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      var p = local(e);
      zoomAt(p.x, p.y, Math.exp(-e.deltaY * 0.0015));
    }, { passive: false });

    // ---- Tooltip ----
    function showTip(g) {
      tipSeat = g;
      var r = g.getBoundingClientRect(), s = box();
      tip.textContent = g.getAttribute("aria-label");
      tip.style.display = "block";
      tip.style.left = Math.max(0, Math.min(s.width - tip.offsetWidth, r.left - s.left)) + "px";
      tip.style.top = Math.max(0, r.top - s.top - tip.offsetHeight - 4) + "px";
    }
    function hideTip() { tip.style.display = "none"; tipSeat = null; }
    function hover(e) { var g = seatOf(e.target); if (g) showTip(g); else hideTip(); }
    stage.addEventListener("pointerleave", hideTip);

    // ---- Keyboard (keys in keyboard.js, moves in geometry.js) ----
    var ring = null;
    svg.addEventListener("focusin", function (e) {
      var g = seatOf(e.target);
      if (!g) return;
      setCurrent(g);
      var b = geo.rect(idOf(g));
      if (ring) ring.remove();
      if (b) {
        var pad = Math.max(2, b.w / 10);
        ring = el("rect", { "class": "seatmap-ring", x: b.x - pad, y: b.y - pad, width: b.w + 2 * pad, height: b.h + 2 * pad, rx: pad * 1.5,
                            fill: "none", stroke: C.focus, "stroke-width": Math.max(2, b.w / 14), "pointer-events": "none" });
        marks.appendChild(ring);
      }
      showTip(g);
    });
    svg.addEventListener("focusout", function () { if (ring) { ring.remove(); ring = null; } hideTip(); });
    function focusSeat(id) {
      var s = id && seats.get(id);
      if (!s) return;
      setCurrent(s.g);
      s.g.focus({ preventScroll: true });
      reveal(s.g);
    }
    root.addEventListener("keydown", function (e) {
      var g = seatOf(e.target), sec = e.target.closest ? e.target.closest(".seatmap-section") : null;
      var on = g ? "seat" : sec ? "section" : (e.target === stage || e.target === svg) ? "map" : "other";
      var a = P.keyboard.action(e.key, e.shiftKey, on);
      if (!a) return;
      e.preventDefault();
      if (a.zoom) { zoomCentre(a.zoom); if (g && a.zoom > 1) reveal(g); }
      else if (a.fit) fit();
      else if (a.pan) pan(a.pan[0], a.pan[1]);
      else if (a.toggle) toggle(g);
      else if (a.open) zoomToSection(sectionIndex(sec), true);
      else if (a.move && g) focusSeat(geo.neighbour(idOf(g), a.move));
      else if (a.move && sec) {
        var i = sectionIndex(sec) + (a.move === "ArrowRight" || a.move === "ArrowDown" ? 1 : -1), next = sectionLayer.childNodes[i];
        if (next) { sec.setAttribute("tabindex", "-1"); next.setAttribute("tabindex", "0"); next.focus({ preventScroll: true }); }
      }
    });
    root.addEventListener("click", function (e) {
      var lv = e.target.closest ? e.target.closest(".seatmap-level") : null;
      if (lv && root.contains(lv)) {
        // Another level is another drawing: the page again, with the token kept.
        e.preventDefault();
        var u = new URL(location.href), n = lv.getAttribute("data-level");
        if (n) u.searchParams.set("level", n); else u.searchParams.delete("level");
        if (token) u.searchParams.set("token", token);
        location.assign(u.toString());
        return;
      }
      var b = e.target.closest ? e.target.closest("[data-seatmap-action]") : null;
      if (!b || !root.contains(b)) return;
      var a = b.getAttribute("data-seatmap-action");
      if (a === "zoom-in") zoomCentre(1.6);
      else if (a === "zoom-out") zoomCentre(1 / 1.6);
      else if (a === "fit") fit();
      else if (a === "pan-left") pan(1, 0);
      else if (a === "pan-right") pan(-1, 0);
      else if (a === "pan-up") pan(0, 1);
      else if (a === "pan-down") pan(0, -1);
      else if (a === "checkout") checkout();
      else if (a === "best") best(priceMax === null ? { count: quantity() } : { count: quantity(), priceMax: priceMax });
      else if (a === "remove") { var s = seats.get(b.getAttribute("data-seat")); if (s) toggle(s.g); }
      else if (a === "remove-area") setArea(b.getAttribute("data-area"), 0);
      else if (a === "area-more") setArea(b.getAttribute("data-area"), (places[b.getAttribute("data-area")] || 0) + 1);
      else if (a === "area-less") setArea(b.getAttribute("data-area"), Math.max(0, (places[b.getAttribute("data-area")] || 0) - 1));
    });

    // Choices: a cart line's ticket type, the price filter.
    var priceMax = null;
    root.addEventListener("change", function (e) {
      var t = e.target;
      if (!t || !t.hasAttribute || !root.contains(t)) return;
      if (t.hasAttribute("data-seatmap-ticket-type")) {
        var types = {};
        types[t.getAttribute("data-seat")] = t.value;
        select({ types: types });
      } else if (t.hasAttribute("data-seatmap-price-filter")) {
        priceMax = t.value === "" ? null : parseFloat(t.value);
        // Seats above the price are dimmed (still there: a buyer may still pick one).
        seats.forEach(function (s) {
          var p = cfg.prices[+s.tier || 0], over = priceMax !== null && p && parseFloat(p[0]) > priceMax;
          s.g.classList.toggle("seatmap-filtered", !!over);
        });
        statusVersion++;
        snapLater();
      }
    });

    // ---- Messages to the host ----
    function emit(msg) {
      root.dispatchEvent(new CustomEvent(msg.type, { detail: msg, bubbles: true }));
      if (embedded) origins.forEach(function (o) { try { window.parent.postMessage(msg, o); } catch (err) { /* an origin that is not the parent's */ } });
    }
    function say(lines) {
      msgEl.textContent = "";
      lines.forEach(function (l) { var d = document.createElement("div"); d.textContent = l; msgEl.appendChild(d); });
    }
    // A failed request or answer, as a sentence of the page's language.
    function sayFailure(failure) { say([P.messages.sentence(W, failure, sameLanguage)]); }

    // ---- The cart: the service's answer ----
    // whole: the whole show was read for this token (then only deltas after `sequence`).
    var whole = false, polling = 0, sequence = null, offline = false;
    var token = null, cart = [], total = "", totalText = "", expiresAt = 0, skew = 0, gaps = [];
    var checkoutState = new P.cart.Checkout(), checkoutTimer = 0;
    try { token = new URLSearchParams(location.search).get("token") || (cfg.show && sessionStorage.getItem("seatmap:" + cfg.show)) || null; } catch (err) { token = null; }
    function keepToken(t) {
      var changed = t !== token;
      token = t;
      // A new token sees its own seats as selected: the statuses are asked for again with it.
      if (changed) { whole = false; poll(false); }
      try { if (cfg.show) { if (t) sessionStorage.setItem("seatmap:" + cfg.show, t); else sessionStorage.removeItem("seatmap:" + cfg.show); } } catch (err) { /* storage refused */ }
    }
    function anyFree() {
      var found = false;
      status.forEach(function (st) { if (st === "available" || st === "selected") found = true; });
      return found || Object.keys(left).some(function (a) { return left[a] > 0; });
    }
    function drawCart() {
      cartEl.textContent = "";
      cart.forEach(function (item) {
        var li = document.createElement("li");
        var text = document.createElement("span");
        text.textContent = item.label + " · " + item.priceText;
        li.appendChild(text);
        // A seat or a standing area's places, with its remove button.
        var attr = item.id ? "data-seat" : "data-area", key = item.id || item.area;
        li.setAttribute(attr, key);
        var b = document.createElement("button");
        b.type = "button";
        b.className = "seatmap-button";
        b.setAttribute("data-seatmap-action", item.id ? "remove" : "remove-area");
        b.setAttribute(attr, key);
        b.setAttribute("aria-label", fill(W["picker.remove"], { seat: item.label }));
        b.textContent = "×";
        // A category with several ticket types: the buyer chooses the seat's.
        if (item.id && item.ticketTypes && item.ticketTypes.length > 1) {
          var pickType = document.createElement("select");
          pickType.setAttribute("data-seatmap-ticket-type", "");
          pickType.setAttribute("data-seat", item.id);
          pickType.setAttribute("aria-label", fill(W["picker.ticketType"], { seat: item.label }));
          item.ticketTypes.forEach(function (t) {
            var o = document.createElement("option");
            o.value = t.name;
            o.textContent = t.name + " · " + (t.priceText || t.price);
            if (t.name === item.ticketType) o.selected = true;
            pickType.appendChild(o);
          });
          li.appendChild(pickType);
        }
        li.appendChild(b);
        cartEl.appendChild(li);
      });
      totalEl.textContent = cart.length ? fill(W["picker.total"], { total: totalText }) : anyFree() || !seats.size ? W["picker.cartEmpty"] : W["picker.soldOut"];
      totalEl.setAttribute("data-total", cart.length ? total : "");
      drawCheckout();
      tick();
    }
    function drawCheckout() {
      var busy = checkoutState.state === "processing";
      confirmBtn.disabled = busy || !cart.length || !token;
      confirmBtn.textContent = busy ? W["picker.processing"] : confirmText;
      if (busy) confirmBtn.setAttribute("aria-busy", "true"); else confirmBtn.removeAttribute("aria-busy");
    }
    var places = {}, left = {};
    function drawAreas() {
      (cfg.areas || []).forEach(function (id) {
        var li = root.querySelector('.seatmap-areas li[data-area="' + id.replace(/["\\]/g, "") + '"]');
        if (!li) return;
        li.querySelector(".seatmap-count").textContent = String(places[id] || 0);
        li.querySelector(".seatmap-left").textContent = left[id] === undefined ? "" : "(" + fill(W["picker.left"], { count: left[id] }) + ")";
      });
    }
    // One request at a time, in order, with the buyer's token and locale; the answer shown.
    // A token the show no longer knows (its holds expired): the cart is gone, and the
    // request is tried again without it.
    function send(url, members, then) {
      pending = pending.then(function () {
        var body = { locale: cfg.locale };
        for (var m in members) body[m] = members[m];
        if (token) body.token = token;
        return post(url, body).then(function (a) {
          if (!a.ok && a.status === 409 && body.token && /token/.test(a.json.error || "")) {
            if (cart.length) expire(); else keepToken(null);
            delete body.token;
            return post(url, body);
          }
          return a;
        }).then(function (a) {
          if (!a.ok) { sayFailure({ status: a.status, error: a.json.error }); return; }
          answered(a.json, a.date);
          if (then) then(a.json);
        });
      }).catch(function (err) { sayFailure(err); });
      return pending;
    }
    function select(members, then) { return send(cfg.select, members, then); }
    function setArea(id, n) {
      if (!cfg.select || (cfg.areas || []).indexOf(id) < 0) return pending;
      var area = {}; area[id] = n;
      return select({ area: area });
    }
    // Best available: the best N seats held under the page's token (they replace its seats).
    function quantity() { var n = quantityEl ? parseInt(quantityEl.value, 10) : 2; return n > 0 ? n : 1; }
    function best(request) {
      if (!cfg.best) return pending;
      return send(cfg.best, request, function (j) {
        var first = (j.seats || [])[0], s = first && seats.get(first);
        if (s) { if (overview) zoomToSection(cfg.sections.findIndex(function (sec) { return sec[0] === sectionOf(first); }), false); focusSeat(first); }
      });
    }
    function tick() {
      if (!cart.length || !expiresAt) { timerEl.textContent = ""; return; }
      var secs = P.cart.secondsLeft(expiresAt, Date.now(), skew);
      timerEl.textContent = fill(W["picker.holdFor"], { time: P.cart.clock(secs) });
      // A checkout under way is not cut short by the page's clock: the service decides.
      if (secs <= 0 && checkoutState.state === "idle") expire();
    }
    setInterval(tick, 1000);
    function expire() {
      cart.forEach(function (item) { if (item.id && status.get(item.id) === "selected") paint(item.id, "available"); });
      cart = []; expiresAt = 0; places = {}; keepToken(null);
      drawCart(); drawAreas();
      say([W["picker.expired"]]);
      emit({ type: "seatmap:expired" });
    }
    // The buyer's order went through (the page's own checkout, the host's, or
    // seen in the statuses): the seats are theirs, never released.
    function ordered(orderId, ids) {
      if (checkoutState.state === "done" && !ids.length) return;
      // The cart's words for its lines (seat and place), else the seat's own name.
      var labels = [], inCart = new Map(cart.map(function (item) { return [item.id || item.area, item.label]; }));
      ids.forEach(function (id) { paint(id, "ordered"); var s = seats.get(id); labels.push(inCart.get(id) || (s ? s.base : id)); });
      cart.forEach(function (item) { if (!item.id) labels.push(item.label); });
      cart = []; expiresAt = 0; places = {};
      checkoutState.finish(true);
      clearTimeout(checkoutTimer);
      keepToken(null);
      drawCart(); drawAreas();
      markGaps([]);
      say([fill(W["picker.ordered"], { seats: labels.join(W["list.separator"]) })]);
      emit({ type: "seatmap:ordered", orderId: orderId, seats: ids });
      emit({ type: "seatmap:cart", seats: [], total: "0" });
    }
    function markGaps(ids) {
      gaps.forEach(function (g) { g.remove(); });
      gaps = [];
      ids.forEach(function (id) {
        var b = geo.rect(id);
        if (!b) return;
        var r = el("rect", { "class": "seatmap-gap", "data-seat": id, x: b.x - 2, y: b.y - 2, width: b.w + 4, height: b.h + 4, rx: 4, fill: "none",
                              stroke: C.selected, "stroke-width": Math.max(2, b.w / 12), "stroke-dasharray": Math.max(3, b.w / 8), "pointer-events": "none" });
        marks.appendChild(r);
        gaps.push(r);
      });
    }
    function answered(a, dateHeader) {
      if (dateHeader) { var d = Date.parse(dateHeader); if (!isNaN(d)) skew = d - Date.now(); }
      if (a.token) keepToken(a.token);
      if (checkoutState.state === "done") checkoutState.reset();
      var mine = new Set(a.selected || a.seats || []);
      cart.forEach(function (item) { if (item.id && !mine.has(item.id) && status.get(item.id) === "selected") paint(item.id, "available"); });
      (a.results || []).forEach(function (r) {
        if (r.result === "notAvailable" || r.result === "held") { if (status.get(r.id) === "available") paint(r.id, r.result === "held" ? "held" : "sold"); }
      });
      mine.forEach(function (id) { paint(id, "selected"); });
      cart = a.cart || []; total = a.total || ""; totalText = a.totalText || "";
      places = a.standing || {};
      drawAreas();
      expiresAt = a.expiresAt ? Date.parse(a.expiresAt) : 0;
      drawCart();
      say(a.messages || []);
      markGaps(a.violations || []);
      emit(withExternal({ type: "seatmap:cart", seats: cart.map(function (i) { return i.id || i.area; }), total: total }));
    }
    // The ids the seats came with from another system (a pretix seat_guid), beside SeatMap's.
    function withExternal(m) {
      var ext = cart.map(function (i) { return i.externalId || null; });
      if (ext.some(function (e) { return e; })) m.externalIds = ext;
      return m;
    }
    function externalOf(g, m) { if (g.getAttribute("data-external-id")) m.externalId = g.getAttribute("data-external-id"); return m; }
    function post(url, body) {
      return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" })
        .then(function (r) {
          return r.json().catch(function () { return {}; }).then(function (j) { return { ok: r.ok, status: r.status, json: j || {}, date: r.headers.get("Date") }; });
        });
    }
    var pending = Promise.resolve();
    function toggle(g) {
      var id = idOf(g);
      if (!cfg.select) {
        emit(externalOf(g, { type: "seatmap:toggle", id: id, selected: null, result: null }));
        return pending;
      }
      return select({ toggle: [id] }, function (j) {
        var r = (j.results || []).filter(function (x) { return x.id === id; })[0];
        emit(externalOf(g, { type: "seatmap:toggle", id: id, selected: (j.selected || []).indexOf(id) >= 0, result: r ? r.result : null }));
      });
    }
    function checkout() {
      if (!token || !checkoutState.begin(cart.length)) return pending;
      drawCheckout();
      var ids = cart.map(function (i) { return i.id || i.area; }), seatIds = cart.filter(function (i) { return i.id; }).map(function (i) { return i.id; });
      emit(withExternal({ type: "seatmap:checkout", show: cfg.show || null, token: token, seats: ids, total: total }));
      if (!cfg.order) {
        // The host orders (after payment): it says so (seatmap:ordered) or the statuses show it.
        // A host that never answers leaves the cart as it was after a minute.
        checkoutTimer = setTimeout(function () { if (checkoutState.state === "processing") { checkoutState.finish(false); drawCheckout(); } }, 60000);
        return pending;
      }
      pending = pending.then(function () {
        var orderId = "picker-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
        return post(cfg.order, { token: token, orderId: orderId, seats: seatIds })
          .then(function (a) {
            if (!a.ok) { checkoutState.finish(false); drawCheckout(); sayFailure({ status: a.status, error: a.json.error }); return; }
            ordered(orderId, a.json.sold || seatIds);
          });
      }).catch(function (err) { checkoutState.finish(false); drawCheckout(); sayFailure(err); });
      return pending;
    }

    // ---- Live statuses: long polls on the show's seats (what they mean: live.js) ----
    function seatsAnswer(j) {
      var r = P.live.apply(j, function (id) { return status.get(id); }, cart.filter(function (i) { return i.id; }).map(function (i) { return i.id; }));
      r.paint.forEach(function (p) { paint(p[0], p[1]); });
      Object.keys(j.areas || {}).forEach(function (id) { left[id] = j.areas[id].available; });
      drawAreas();
      if (overview) drawSections();
      r.ordered.forEach(function (o) { ordered(o.orderId, o.seats); });
      if (r.ordered.length) return;
      var notes = r.taken.map(function (id) {
        var item = cart.filter(function (i) { return i.id === id; })[0];
        return fill(W["picker.soldMeanwhile"], { seat: item ? item.label : id });
      });
      var before = cart.filter(function (i) { return i.id; }).length;
      if (before === r.kept.length) { if (!cart.length) drawCart(); return; }
      cart = cart.filter(function (i) { return !i.id || r.kept.indexOf(i.id) >= 0; });
      if (before && !cart.length && expiresAt && Date.now() + skew >= expiresAt - 1500 && checkoutState.state === "idle") { expire(); return; }
      refresh();
      if (notes.length) say(notes);
    }
    // The cart again from the service (after a seat left it).
    function refresh() {
      if (!token || !cfg.select) { drawCart(); return; }
      pending = pending.then(function () {
        return post(cfg.select, { toggle: [], token: token, locale: cfg.locale }).then(function (a) {
          if (a.ok) { var m = msgEl.textContent; answered(a.json, a.date); if (!(a.json.messages || []).length) msgEl.textContent = m; }
          // A token gone while a checkout is under way was ordered (the statuses will say so), not released.
          else if (a.status === 409 && checkoutState.state === "idle") expire();
        });
      }).catch(function () { drawCart(); });
    }
    // The whole show once (and again for a new token), then only what
    // changed after the sequence it was as of (?since=), waited for.
    function poll(wait) {
      if (!cfg.seats) return;
      var n = ++polling, asked = token;
      fetch(P.live.seatsURL(cfg.seats, token, whole ? sequence : null, wait), { cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          // An answer for another token (or an older poll) is not this buyer's view.
          if (n !== polling || asked !== token) return;
          if (r.status !== 200) throw { status: r.status };
          return r.json().then(function (j) {
            if (n !== polling || asked !== token) return;
            if (offline) { offline = false; say([]); }
            if (typeof j.sequence === "number") { sequence = j.sequence; whole = true; }
            seatsAnswer(j);
          });
        })
        .then(function () { if (n === polling) setTimeout(function () { poll(true); }, 0); },
              function (err) {
                if (n !== polling) return;
                offline = true;
                sayFailure(err && err.status ? { status: err.status } : err);
                setTimeout(function () { poll(true); }, 2000);
              });
    }

    // ---- From the host (checked in messages.js) ----
    function seatNamed(id) { return seats.get(id) || seats.get(external.get(id)); }
    window.addEventListener("message", function (e) {
      var m = P.messages.hostCommand(e.data, e.origin, origins);
      if (!m) return;
      if (m.type === "seatmap:focus") { var f = seatNamed(m.id); if (f) focusSeat(idOf(f.g)); }
      else if (m.type === "seatmap:select") { var s = seatNamed(m.id); if (s && status.get(idOf(s.g)) === "available") { focusSeat(idOf(s.g)); toggle(s.g); } }
      else if (m.type === "seatmap:zoomTo") {
        if (m.section !== undefined) {
          var i = cfg.sections.findIndex(function (sec) { return String(sec[0]) === m.section || sec[1] === m.section; });
          if (i >= 0) zoomToSection(i, true);
        } else {
          var z = seatNamed(m.seat);
          if (z) { k = Math.max(k, Math.min(kMax, (READABLE + 9) / cfg.seatSize)); settle(); apply(); focusSeat(idOf(z.g)); }
        }
      }
      else if (m.type === "seatmap:best") { var req = {}; for (var key in m) if (key !== "type") req[key] = m[key]; best(req); }
      else if (m.type === "seatmap:ordered") { ordered(m.orderId, cart.filter(function (i) { return i.id; }).map(function (i) { return i.id; })); }
      else if (m.type === "seatmap:clear") { cart.filter(function (i) { return i.id; }).forEach(function (i) { var c = seats.get(i.id); if (c) toggle(c.g); }); }
      else if (m.type === "seatmap:locale") {
        var u = new URL(location.href);
        u.searchParams.set("locale", m.locale);
        if (token) u.searchParams.set("token", token);
        location.replace(u.toString());
      }
    });

    var api = {
      view: function () { return { k: k, tx: tx, ty: ty, kMin: kMin, kMax: kMax, seat: cfg.seatSize, overview: overview }; },
      selected: function () { var out = []; status.forEach(function (st, id) { if (st === "selected") out.push(id); }); return out.sort(); },
      setSelected: function (ids) {
        // For a file page driven by its host: only seats that can be picked are marked.
        var want = new Set((ids || []).map(function (i) { return seats.has(String(i)) ? String(i) : external.get(String(i)) || String(i); }));
        status.forEach(function (st, id) {
          if (st === "selected" && !want.has(id)) paint(id, "available");
          else if (want.has(id) && st === "available") paint(id, "selected");
        });
      },
      idle: function () { return pending; },
      token: function () { return token; },
      cart: function () { return { seats: cart.map(function (i) { return i.id || i.area; }), total: total }; },
      fit: fit, zoom: zoomCentre,
      checkout: checkout
    };
    root.seatmap = api;
    if (!window.seatmap) window.seatmap = api;
    fit();
    window.addEventListener("resize", function () { var was = k <= kMin * 1.001; limits(); if (was) k = kMin; k = Math.max(kMin, Math.min(kMax, k)); apply(); });
    drawCart();
    if (token && cfg.select) refresh();
    poll(false);
    emit({ type: "seatmap:ready" });
  }
  Array.prototype.forEach.call(document.querySelectorAll("[data-seatmap-picker]:not([data-seatmap-ready])"), start);
})();
