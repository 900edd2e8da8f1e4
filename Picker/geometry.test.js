"use strict";
const load = require("./load-module.cjs");
const test = require("node:test");
const assert = require("node:assert/strict");
const { Geometry } = load("geometry");

// Two sections side by side (1 on the left, 2 on the right), three rows
// each; section 1's second row is curved (its ends lower) and shorter.
const g = new Geometry({
  size: [10, 10],
  rows: [
    [1, 1, "A", [[1, 0, 0], [2, 12, 0], [3, 24, 0], [4, 36, 0]]],
    [1, 2, "B", [[1, 6, 16], [2, 18, 14], [3, 30, 16]]],
    [1, 3, "C", [[1, 0, 30], [2, 12, 30], [3, 24, 30], [4, 36, 30]]],
    [2, 1, "A", [[1, 100, 0], [2, 112, 0]]],
    [2, 2, "B", [[2, 112, 15, 20, 10]]],
  ],
});

test("ArrowDown and ArrowUp move to the next row's nearest seat, within the section", () => {
  assert.equal(g.neighbour("1-1-1", "ArrowDown"), "1-2-1");
  assert.equal(g.neighbour("1-1-4", "ArrowDown"), "1-2-3");
  assert.equal(g.neighbour("1-2-2", "ArrowDown"), "1-3-2");
  assert.equal(g.neighbour("1-3-4", "ArrowUp"), "1-2-3");
  assert.equal(g.neighbour("1-2-1", "ArrowUp"), "1-1-1");
});

test("ArrowLeft and ArrowRight move along the row as drawn and stop at its ends", () => {
  assert.equal(g.neighbour("1-1-2", "ArrowRight"), "1-1-3");
  assert.equal(g.neighbour("1-1-2", "ArrowLeft"), "1-1-1");
  assert.equal(g.neighbour("1-1-1", "ArrowLeft"), null);
  assert.equal(g.neighbour("1-3-4", "ArrowRight"), null);
});

test("past a section's last row or a row's end, the arrow goes on to the nearest seat that way, else stays", () => {
  assert.equal(g.neighbour("2-1-1", "ArrowDown"), "2-2-2");
  // Below section 2 nothing spans x = 117: the nearest row below, in section 1.
  assert.equal(g.neighbour("2-2-2", "ArrowDown"), "1-3-4");
  assert.equal(g.neighbour("1-3-1", "ArrowDown"), null);
  // Across the gap between the sections, level rows only.
  assert.equal(g.neighbour("1-1-4", "ArrowRight"), "2-1-1");
  assert.equal(g.neighbour("2-1-1", "ArrowLeft"), "1-1-4");
  assert.equal(g.neighbour("1-3-4", "ArrowRight"), null);
});

test("seats that cannot take focus are skipped", () => {
  const free = (id) => id !== "1-2-1" && id !== "1-1-3";
  assert.equal(g.neighbour("1-1-1", "ArrowDown", free), "1-2-2");
  assert.equal(g.neighbour("1-1-2", "ArrowRight", free), "1-1-4");
});

test("rects default to the layout's seat size; a seat may have its own", () => {
  assert.deepEqual(g.rect("1-1-2"), { id: "1-1-2", x: 12, y: 0, w: 10, h: 10, row: 0, pos: 1 });
  assert.equal(g.rect("2-2-2").w, 20);
  assert.equal(g.rect("9-9-9"), null);
  assert.equal(g.firstIn(2), "2-1-1");
  assert.equal(g.firstIn(2, (id) => id !== "2-1-1"), "2-1-2");
});
