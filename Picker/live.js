// Live statuses: what a seats answer (the whole show, or the changes after a
// sequence) does to the page. Pure: it says what to paint and what became of
// the cart; the page does it.
SeatMapPicker.module("live", function () {
  "use strict";

  // answer: {seats: {ID: status}} or {changes: {ID: status}, orders?: [{orderId, seats}]}
  // status(id): the status the page shows now; cartIds: the seats in the cart.
  // Returns {paint: [[id, status]], ordered: [{orderId, seats}], taken: [ids], kept: [ids], sequence}:
  // - a seat of the buyer's own order (`orders`, the delta as this token sees it) is "ordered",
  //   never released;
  // - a cart seat now sold or locked by someone else is `taken`;
  // - `kept`: the cart seats still the buyer's.
  function apply(answer, status, cartIds) {
    var seats = answer.changes || answer.seats || {};
    var mine = new Map();
    var ordered = (answer.orders || []).map(function (o) {
      (o.seats || []).forEach(function (id) { mine.set(id, o.orderId); });
      return { orderId: o.orderId, seats: (o.seats || []).slice() };
    });
    var paint = [], taken = [], cart = new Set(cartIds || []);
    Object.keys(seats).forEach(function (id) {
      var st = mine.has(id) ? "ordered" : seats[id];
      // A seat this page knows is the buyer's stays so (still held while the
      // host's back end places the order, then sold).
      if (status(id) === "ordered" && (st === "sold" || st === "held")) st = "ordered";
      if (cart.has(id) && st !== "selected") {
        cart.delete(id);
        if (st === "sold" || st === "locked" || st === "held") taken.push(id);
      }
      if (status(id) !== st) paint.push([id, st]);
    });
    return { paint: paint, ordered: ordered, taken: taken, kept: Array.from(cart),
             sequence: typeof answer.sequence === "number" ? answer.sequence : null };
  }

  // The seats URL for a poll: the token's view, after a sequence, waited for.
  function seatsURL(base, token, since, wait) {
    var q = [];
    if (token) q.push("token=" + encodeURIComponent(token));
    if (since !== null && since !== undefined) {
      q.push("since=" + since);
      if (wait) q.push("wait=25");
    }
    return q.length ? base + "?" + q.join("&") : base;
  }

  return { apply: apply, seatsURL: seatsURL };
});
