// Loads one of the picker's modules for Node's test runner as the page
// loads it: the file calls SeatMapPicker.module(name, make), and what make
// returns is the module. (Not embedded in the page: only *.js and *.css are.)
"use strict";
const fs = require("node:fs");
const path = require("node:path");

module.exports = function load(name) {
  const registry = {};
  const SeatMapPicker = { module(n, make) { registry[n] = make(); } };
  const source = fs.readFileSync(path.join(__dirname, name + ".js"), "utf8");
  new Function("SeatMapPicker", source + "\n//# sourceURL=" + name + ".js")(SeatMapPicker);
  return registry[name];
};
