// Keys: what a key press asks of the map (pure; the page does it).
SeatMapPicker.module("keyboard", function () {
  "use strict";
  var ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  // on: what has focus ("seat", "section", "map" for the stage itself, or
  // "other"). Returns {zoom: factor} | {fit: true} | {pan: [dx, dy]} |
  // {move: key} | {toggle: true} | {open: true} | null (not the map's key).
  function action(key, shift, on) {
    if (on === "other") return null;
    if (key === "+" || key === "=") return { zoom: 1.6 };
    if (key === "-" || key === "_") return { zoom: 1 / 1.6 };
    if (key === "0") return { fit: true };
    var dir = ARROWS[key];
    if (dir && (shift || on === "map")) return { pan: [-dir[0], -dir[1]] };
    if (dir) return { move: key };
    if (key === "Enter" || key === " ") return on === "section" ? { open: true } : on === "seat" ? { toggle: true } : null;
    return null;
  }

  return { action: action };
});
