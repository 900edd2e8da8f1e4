"use strict";
const load = require("./load-module.cjs");
const test = require("node:test");
const assert = require("node:assert/strict");
const { Checkout, secondsLeft, clock } = load("cart");

test("one checkout at a time: a second press while processing sends nothing", () => {
  const c = new Checkout();
  assert.equal(c.begin(2), true);
  assert.equal(c.state, "processing");
  assert.equal(c.begin(2), false);
  c.finish(false);
  assert.equal(c.begin(2), true, "a refused order may be tried again");
  c.finish(true);
  assert.equal(c.begin(2), false, "after the order, not again until a new cart");
  c.reset();
  assert.equal(c.begin(0), false, "an empty cart is not checked out");
});

test("the hold's clock starts at the hold time and never goes below zero", () => {
  const now = 1_000_000;
  assert.equal(clock(secondsLeft(now + 600_000, now, 0)), "10:00");
  assert.equal(clock(secondsLeft(now + 599_400, now, 0)), "9:59");
  assert.equal(clock(secondsLeft(now + 600_000, now, 1_500)), "9:58");
  assert.equal(secondsLeft(now - 5_000, now, 0), 0);
  assert.equal(clock(65), "1:05");
});
