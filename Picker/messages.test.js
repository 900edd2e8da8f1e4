"use strict";
const load = require("./load-module.cjs");
const test = require("node:test");
const assert = require("node:assert/strict");
const { fill, sentence, hostCommand } = load("messages");

const W = { "picker.offline": "offline", "picker.noShow": "no show", "picker.busy": "busy", "picker.refused": "refused" };

test("catalogue text is filled by name; unknown names stay", () => {
  assert.equal(fill("{seat} is gone ({n})", { seat: "A 5" }), "A 5 is gone ({n})");
  assert.equal(fill(undefined, {}), "");
});

test("a failure is a sentence of the catalogue, never the raw error", () => {
  assert.equal(sentence(W, new TypeError("Failed to fetch")), "offline");
  assert.equal(sentence(W, { status: 503, error: "store down" }), "offline");
  assert.equal(sentence(W, { status: 404, error: "{\"error\":\"no such show\"}" }), "no show");
  assert.equal(sentence(W, { status: 429, error: "too many tokens" }), "busy");
  assert.equal(sentence(W, { status: 409, error: "Seat taken" }, false), "refused");
  assert.equal(sentence(W, { status: 409, error: "Platz vergeben" }, true), "Platz vergeben");
});

test("host messages: listed origins only, members checked", () => {
  const o = ["https://shop.example"];
  assert.equal(hostCommand({ type: "seatmap:select", id: "1-1-1" }, "https://evil.example", o), null);
  assert.deepEqual(hostCommand({ type: "seatmap:select", id: 7 }, o[0], o), { type: "seatmap:select", id: "7" });
  assert.deepEqual(hostCommand({ type: "seatmap:ordered", orderId: "web-1" }, o[0], o), { type: "seatmap:ordered", orderId: "web-1" });
  assert.equal(hostCommand({ type: "seatmap:ordered" }, o[0], o), null);
  assert.deepEqual(hostCommand({ type: "seatmap:zoomTo", section: 2 }, o[0], o), { type: "seatmap:zoomTo", section: "2" });
  assert.deepEqual(hostCommand({ type: "seatmap:best", count: 2, section: "A", together: true, bogus: 1 }, o[0], o),
                   { type: "seatmap:best", count: 2, section: "A", together: true });
  assert.equal(hostCommand({ type: "seatmap:best", count: 0 }, o[0], o), null);
  assert.equal(hostCommand({ type: "seatmap:nope" }, o[0], o), null);
  assert.equal(hostCommand("seatmap:clear", o[0], o), null);
});
