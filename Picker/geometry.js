// The picker's one geometry: the layout's seat rects and rows, as the page
// embeds them (`cfg.geometry`), never re-derived from the drawing. Focus
// rings, marks, the minimap, visibility and arrow keys all read it.
//
// cfg.geometry = {size: [w, h], rows: [[section, row, label, [[column, x, y(, w, h)], ...]], ...]}
// in drawing units; a seat's id is "section-row-column".
SeatMapPicker.module("geometry", function () {
  "use strict";

  function Geometry(g) {
    var size = (g && g.size) || [1, 1];
    this.seats = new Map();
    this.rows = [];
    var self = this;
    ((g && g.rows) || []).forEach(function (r, index) {
      var row = { index: index, section: r[0], row: r[1], label: r[2], ids: [], cy: 0, x0: Infinity, x1: -Infinity };
      r[3].forEach(function (s) {
        var id = r[0] + "-" + r[1] + "-" + s[0];
        var rect = { id: id, x: s[1], y: s[2], w: s.length > 3 ? s[3] : size[0], h: s.length > 4 ? s[4] : size[1], row: index };
        self.seats.set(id, rect);
        row.ids.push(id);
        row.cy += rect.y + rect.h / 2;
        row.x0 = Math.min(row.x0, rect.x);
        row.x1 = Math.max(row.x1, rect.x + rect.w);
      });
      if (!row.ids.length) return;
      row.cy /= row.ids.length;
      // Left to right as drawn: arrow keys move by what the buyer sees.
      row.ids.sort(function (a, b) { return self.seats.get(a).x - self.seats.get(b).x; });
      row.ids.forEach(function (id, i) { self.seats.get(id).pos = i; });
      row.index = self.rows.length;
      row.ids.forEach(function (id) { self.seats.get(id).row = row.index; });
      self.rows.push(row);
    });
  }

  Geometry.prototype.rect = function (id) { return this.seats.get(id) || null; };
  Geometry.prototype.centre = function (id) {
    var r = this.seats.get(id);
    return r ? { x: r.x + r.w / 2, y: r.y + r.h / 2 } : null;
  };
  Geometry.prototype.rowOf = function (id) { var r = this.seats.get(id); return r ? this.rows[r.row] : null; };

  // The row a vertical arrow goes to from `row` (dir +1 down, -1 up): the
  // next row of the same section in that direction; past the section's last,
  // the nearest row in that direction whose seats span the seat's x (then
  // any row in that direction, nearest first).
  Geometry.prototype.rowToward = function (row, dir, x) {
    var best = null, bestD = Infinity, eps = 0.5;
    this.rows.forEach(function (r) {
      if (r.section !== row.section || r === row) return;
      var d = (r.cy - row.cy) * dir;
      if (d > eps && d < bestD) { bestD = d; best = r; }
    });
    if (best) return best;
    var spanning = null, any = null, anyD = Infinity;
    bestD = Infinity;
    this.rows.forEach(function (r) {
      if (r === row) return;
      var d = (r.cy - row.cy) * dir;
      if (d <= eps) return;
      var off = x < r.x0 ? r.x0 - x : x > r.x1 ? x - r.x1 : 0;
      if (off === 0 && d < bestD) { bestD = d; spanning = r; }
      var score = d + off;
      if (score < anyD) { anyD = score; any = r; }
    });
    return spanning || any;
  };

  // The seat an arrow key moves to from `id` (ArrowLeft/Right: the seat
  // beside it in its row; ArrowUp/Down: the nearest seat of the row above or
  // below), or null at an edge. `usable(id)`, when given, skips seats that
  // cannot take focus.
  Geometry.prototype.neighbour = function (id, key, usable) {
    var r = this.seats.get(id);
    if (!r) return null;
    var row = this.rows[r.row], ok = usable || function () { return true; };
    if (key === "ArrowLeft" || key === "ArrowRight") {
      var step = key === "ArrowRight" ? 1 : -1;
      for (var i = r.pos + step; i >= 0 && i < row.ids.length; i += step) if (ok(row.ids[i])) return row.ids[i];
      return this.across(row, step, this.centre(id), ok);
    }
    if (key !== "ArrowUp" && key !== "ArrowDown") return null;
    var dir = key === "ArrowDown" ? 1 : -1, c = this.centre(id), target = row;
    for (var guard = 0; guard < this.rows.length; guard++) {
      target = this.rowToward(target, dir, c.x);
      if (!target) return null;
      var pick = this.nearestIn(target, c, ok);
      if (pick) return pick;
    }
    return null;
  };

  // Past a row's end: the nearest seat of another row level with it in
  // that direction (the next section across), or null.
  Geometry.prototype.across = function (row, step, c, ok) {
    var self = this, best = null, bestD = Infinity;
    this.rows.forEach(function (r) {
      if (r === row) return;
      var first = self.seats.get(r.ids[0]);
      if (Math.abs(r.cy - row.cy) > first.h) return;
      var d = step > 0 ? r.x0 - c.x : c.x - r.x1;
      if (d <= 0) return;
      var pick = self.nearestIn(r, c, ok);
      if (pick && d < bestD) { bestD = d; best = pick; }
    });
    return best;
  };

  // The seat of `row` nearest to point `c` (by its centre's distance across, then along).
  Geometry.prototype.nearestIn = function (row, c, ok) {
    var self = this, best = null, bestD = Infinity;
    row.ids.forEach(function (id) {
      if (!ok(id)) return;
      var o = self.centre(id), d = Math.abs(o.x - c.x) * 1000 + Math.abs(o.y - c.y);
      if (d < bestD) { bestD = d; best = id; }
    });
    return best;
  };

  // The first seat (in row order) of a section that `usable` accepts.
  Geometry.prototype.firstIn = function (section, usable) {
    for (var i = 0; i < this.rows.length; i++) {
      var row = this.rows[i];
      if (section !== null && row.section !== section) continue;
      for (var j = 0; j < row.ids.length; j++) if (!usable || usable(row.ids[j])) return row.ids[j];
    }
    return null;
  };

  return { Geometry: Geometry };
});
