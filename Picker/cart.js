// The cart's clock and checkout: one checkout at a time, a processing state
// the page shows, and the hold's time left as the buyer reads it.
SeatMapPicker.module("cart", function () {
  "use strict";

  // idle → processing (one checkout sent) → idle (refused: the buyer may try again) or done (ordered).
  function Checkout() { this.state = "idle"; }
  // Whether a checkout may be sent now (and it is then processing).
  Checkout.prototype.begin = function (items) {
    if (this.state !== "idle" || !items) return false;
    this.state = "processing";
    return true;
  };
  Checkout.prototype.finish = function (ordered) { this.state = ordered ? "done" : "idle"; };
  // A new cart after an order: checkout can be used again.
  Checkout.prototype.reset = function () { this.state = "idle"; };

  // Whole seconds left of a hold expiring at `expiresAt` (ms), by the
  // service's clock (`skew` ms ahead of this one): never more than the hold
  // time (a 600 s hold reads 10:00, not 10:01).
  function secondsLeft(expiresAt, now, skew) {
    return Math.max(0, Math.floor((expiresAt - (now + (skew || 0))) / 1000));
  }

  function clock(seconds) { return Math.floor(seconds / 60) + ":" + ("0" + (seconds % 60)).slice(-2); }

  return { Checkout: Checkout, secondsLeft: secondsLeft, clock: clock };
});
