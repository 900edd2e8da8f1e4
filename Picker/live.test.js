"use strict";
const load = require("./load-module.cjs");
const test = require("node:test");
const assert = require("node:assert/strict");
const { apply, seatsURL } = load("live");

const shown = (map) => (id) => map[id] || "available";

test("a buyer's own order is 'ordered': never taken, never released", () => {
  const r = apply({ sequence: 9, changes: { "1-1-1": "sold", "1-1-2": "sold" }, orders: [{ orderId: "web-1", seats: ["1-1-1", "1-1-2"] }] },
                  shown({ "1-1-1": "selected", "1-1-2": "selected" }), ["1-1-1", "1-1-2"]);
  assert.deepEqual(r.paint, [["1-1-1", "ordered"], ["1-1-2", "ordered"]]);
  assert.deepEqual(r.ordered, [{ orderId: "web-1", seats: ["1-1-1", "1-1-2"] }]);
  assert.deepEqual(r.taken, []);
  assert.deepEqual(r.kept, []);
  assert.equal(r.sequence, 9);
});

test("a cart seat sold to someone else is taken; the rest of the cart is kept", () => {
  const r = apply({ changes: { "1-1-1": "sold", "1-1-5": "held" } }, shown({ "1-1-1": "selected", "1-1-2": "selected" }), ["1-1-1", "1-1-2"]);
  assert.deepEqual(r.taken, ["1-1-1"]);
  assert.deepEqual(r.kept, ["1-1-2"]);
  assert.deepEqual(r.paint, [["1-1-1", "sold"], ["1-1-5", "held"]]);
  assert.equal(r.sequence, null);
});

test("seats already shown as they are are not painted again; an ordered seat stays the buyer's in a later whole answer", () => {
  const r = apply({ seats: { "1-1-1": "sold", "1-1-2": "available", "1-1-3": "held" } }, shown({ "1-1-1": "ordered", "1-1-3": "ordered" }), []);
  assert.deepEqual(r.paint, []);
});

test("the poll's address: token, since and wait only with since", () => {
  assert.equal(seatsURL("/shows/a/seats", null, null, true), "/shows/a/seats");
  assert.equal(seatsURL("/shows/a/seats", "t 1", null, true), "/shows/a/seats?token=t%201");
  assert.equal(seatsURL("/shows/a/seats", "t", 4, true), "/shows/a/seats?token=t&since=4&wait=25");
  assert.equal(seatsURL("/shows/a/seats", null, 0, false), "/shows/a/seats?since=0");
});
