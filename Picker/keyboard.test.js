"use strict";
const load = require("./load-module.cjs");
const test = require("node:test");
const assert = require("node:assert/strict");
const { action } = load("keyboard");

test("arrows move between seats and sections; with Shift, or on the map itself, they pan", () => {
  assert.deepEqual(action("ArrowDown", false, "seat"), { move: "ArrowDown" });
  assert.deepEqual(action("ArrowRight", false, "section"), { move: "ArrowRight" });
  assert.deepEqual(action("ArrowDown", true, "seat"), { pan: [-0, -1] });
  assert.deepEqual(action("ArrowLeft", false, "map"), { pan: [1, -0] });
});

test("Enter and Space toggle a seat and open a section; + - 0 zoom and fit; other keys and other controls are left alone", () => {
  assert.deepEqual(action("Enter", false, "seat"), { toggle: true });
  assert.deepEqual(action(" ", false, "section"), { open: true });
  assert.equal(action("Enter", false, "map"), null);
  assert.deepEqual(action("+", false, "seat"), { zoom: 1.6 });
  assert.deepEqual(action("0", false, "map"), { fit: true });
  assert.equal(action("a", false, "seat"), null);
  assert.equal(action("ArrowDown", false, "other"), null);
});
