// Sentences and messages: catalogue text filled in, what the buyer is told
// for each state (never a raw error), and what a host page may ask.
SeatMapPicker.module("messages", function () {
  "use strict";

  // "{seat} is sold" with {seat: "Row 3, Seat 5"}; unknown names are left as they are.
  function fill(t, v) {
    return String(t || "").replace(/\{(\w+)\}/g, function (m, k) { return Object.prototype.hasOwnProperty.call(v || {}, k) ? String(v[k]) : m; });
  }

  // The sentence for a failed request: the service's own sentence when it
  // answered in the page's language (a 4xx with a JSON error), else the
  // catalogue's for the kind of failure. `failure` is {status, error} or a thrown error.
  function sentence(W, failure, sameLanguage) {
    if (!failure || failure.status === undefined || failure.status === 0) return W["picker.offline"];
    if (failure.status === 404) return W["picker.noShow"];
    if (failure.status === 429) return W["picker.busy"];
    if (failure.status >= 500) return W["picker.offline"];
    if (sameLanguage && typeof failure.error === "string" && failure.error) return failure.error;
    return W["picker.refused"];
  }

  // A message from a host page, checked: its origin must be listed and its
  // members of the right types; anything else is null (ignored).
  function hostCommand(data, origin, origins) {
    if (origins.indexOf(origin) < 0 || !data || typeof data !== "object" || typeof data.type !== "string") return null;
    switch (data.type) {
      case "seatmap:select":
      case "seatmap:focus":
        return typeof data.id === "string" || typeof data.id === "number" ? { type: data.type, id: String(data.id) } : null;
      case "seatmap:zoomTo":
        if (typeof data.section === "string" || typeof data.section === "number") return { type: data.type, section: String(data.section) };
        if (typeof data.seat === "string" || typeof data.seat === "number") return { type: data.type, seat: String(data.seat) };
        return null;
      case "seatmap:best":
        if (typeof data.count !== "number" || data.count < 1 || data.count % 1 !== 0) return null;
        var best = { type: data.type, count: data.count };
        ["section", "category"].forEach(function (k) { if (typeof data[k] === "string") best[k] = data[k]; });
        if (typeof data.priceMax === "number" || typeof data.priceMax === "string") best.priceMax = data.priceMax;
        if (typeof data.together === "boolean") best.together = data.together;
        return best;
      case "seatmap:ordered":
        return typeof data.orderId === "string" && data.orderId ? { type: data.type, orderId: data.orderId } : null;
      case "seatmap:locale":
        return typeof data.locale === "string" ? { type: data.type, locale: data.locale } : null;
      case "seatmap:clear":
        return { type: data.type };
      default:
        return null;
    }
  }

  return { fill: fill, sentence: sentence, hostCommand: hostCommand };
});
