"use strict";
const load = require("./load-module.cjs");
const test = require("node:test");
const assert = require("node:assert/strict");
const view = load("view");

const stage = { width: 400, height: 300 };

test("fitted, the whole drawing shows, centred", () => {
  const k = view.fitScale(stage, 800, 300);
  assert.ok(Math.abs(k - 0.49) < 1e-9);
  const v = view.clamp({ k, tx: 0, ty: 0 }, stage, 800, 300);
  assert.ok(Math.abs(v.tx - (400 - 800 * k) / 2) < 1e-9 && Math.abs(v.ty - (300 - 300 * k) / 2) < 1e-9);
});

test("a zoom keeps the point under the pointer where it is, within the limits", () => {
  const v = view.zoomAt({ k: 1, tx: 10, ty: 20 }, 100, 100, 2, 0.5, 4);
  assert.equal(v.k, 2);
  // Drawing point under (100, 100) before: (90, 80); after: the same.
  assert.equal((100 - v.tx) / v.k, 90);
  assert.equal((100 - v.ty) / v.k, 80);
  assert.equal(view.zoomAt({ k: 3, tx: 0, ty: 0 }, 0, 0, 10, 0.5, 4).k, 4);
});

test("a pan never takes the drawing's edge past the stage's centre", () => {
  const v = view.clamp({ k: 2, tx: 5000, ty: -5000 }, stage, 800, 600);
  assert.equal(v.tx, 200);
  assert.equal(v.ty, 150 - 1200);
});

test("a seat under the inset corner is revealed; one in view stays put", () => {
  const v = { k: 1, tx: 0, ty: 0 };
  const inset = { left: 0, top: 0, right: 120, bottom: 0 };
  assert.equal(view.reveal(v, stage, { x: 10, y: 10, w: 10, h: 10 }, inset), v);
  const moved = view.reveal(v, stage, { x: 350, y: 10, w: 10, h: 10 }, inset);
  assert.deepEqual(moved, { k: 1, tx: 200 - 355, ty: 150 - 15 });
  assert.deepEqual(view.visible({ k: 2, tx: -100, ty: -50 }, stage), { x: 50, y: 25, w: 200, h: 150 });
});
