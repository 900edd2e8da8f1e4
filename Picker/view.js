// The view: scale k and pan (tx, ty) of the drawing in the stage, in CSS px.
// Pure arithmetic; the page applies it as a transform.
SeatMapPicker.module("view", function () {
  "use strict";

  // The scale that shows the whole drawing (w × h) in the stage, with a margin.
  function fitScale(stage, w, h) { return Math.max(1e-3, Math.min(stage.width / w, stage.height / h) * 0.98); }

  // The pan kept so the drawing never leaves the stage's centre; a drawing
  // smaller than the stage is centred.
  function clamp(v, stage, w, h) {
    var cw = w * v.k, ch = h * v.k, tx = v.tx, ty = v.ty;
    tx = cw <= stage.width ? (stage.width - cw) / 2 : Math.min(stage.width / 2, Math.max(stage.width / 2 - cw, tx));
    ty = ch <= stage.height ? (stage.height - ch) / 2 : Math.min(stage.height / 2, Math.max(stage.height / 2 - ch, ty));
    return { k: v.k, tx: tx, ty: ty };
  }

  // Zoomed by `factor` about the stage point (px, py), within [kMin, kMax].
  function zoomAt(v, px, py, factor, kMin, kMax) {
    var k = Math.min(kMax, Math.max(kMin, v.k * factor));
    return { k: k, tx: px - (px - v.tx) * k / v.k, ty: py - (py - v.ty) * k / v.k };
  }

  // The view with drawing point (x, y) at the stage's centre.
  function centreOn(v, stage, x, y) { return { k: v.k, tx: stage.width / 2 - v.k * x, ty: stage.height / 2 - v.k * y }; }

  // Whether a drawing rect is wholly in the stage's part `inset` leaves
  // (px from each edge: the minimap's corner, the pan buttons).
  function shows(v, stage, r, inset) {
    var i = inset || { left: 0, top: 0, right: 0, bottom: 0 };
    var x0 = v.tx + v.k * r.x, y0 = v.ty + v.k * r.y, x1 = x0 + v.k * r.w, y1 = y0 + v.k * r.h;
    return x0 >= i.left && y0 >= i.top && x1 <= stage.width - i.right && y1 <= stage.height - i.bottom;
  }

  // The view that brings rect r into sight (centred on it), or the same view when it shows.
  function reveal(v, stage, r, inset) {
    return shows(v, stage, r, inset) ? v : centreOn(v, stage, r.x + r.w / 2, r.y + r.h / 2);
  }

  // The drawing's part in the stage, in drawing units.
  function visible(v, stage) { return { x: -v.tx / v.k, y: -v.ty / v.k, w: stage.width / v.k, h: stage.height / v.k }; }

  return { fitScale: fitScale, clamp: clamp, zoomAt: zoomAt, centreOn: centreOn, shows: shows, reveal: reveal, visible: visible };
});
