import Foundation

/// A seat category (a pretix category): a name seats refer to, an optional
/// price (seats of the category without a price of their own take it) and an
/// optional colour for its price tier (the theme's where absent).
public struct SeatCategory: Sendable, Equatable {
    public var name: String
    public var price: Decimal?
    public var color: String?
    /// The kinds of ticket its seats are sold as (adult, child, concession),
    /// each with its price; a selected seat is the first unless the buyer
    /// picks another. Empty: one kind, at the seat's price.
    public var ticketTypes: [TicketType] = []
    /// What the plan it came from wrote on it besides (kept for export).
    public var pretix: PlanMembers? = nil

    public init(name: String, price: Decimal? = nil, color: String? = nil) {
        self.name = name
        self.price = price
        self.color = color
    }
}

/// A kind of ticket a category's seats are sold as: its name and price.
public struct TicketType: Sendable, Equatable {
    public var name: String
    public var price: Decimal

    public init(name: String, price: Decimal) {
        self.name = name
        self.price = price
    }
}

extension SeatCategory {
    /// The lowest and highest price its seats sell at: over its ticket
    /// types when it has them, else its price; nil when it has neither.
    public var priceRange: ClosedRange<Decimal>? {
        let prices = ticketTypes.isEmpty ? (price.map { [$0] } ?? []) : ticketTypes.map(\.price)
        guard let low = prices.min(), let high = prices.max() else { return nil }
        return low...high
    }

    /// Rows with every seat of a priced category that sets no price of its
    /// own given the category's price (done before validation, so a seat's
    /// price is always its own or its row's).
    public static func resolvePrices(_ rows: [Row], _ categories: [SeatCategory]) -> [Row] {
        guard !categories.isEmpty else { return rows }
        var prices: [String: Decimal] = [:]
        // A category with ticket types sells at its first type's price by default.
        for c in categories where prices[c.name] == nil { if let p = c.ticketTypes.first?.price ?? c.price { prices[c.name] = p } }
        guard !prices.isEmpty else { return rows }
        return rows.map { row in
            var r = row
            for j in r.seats.indices where r.seats[j].price == nil {
                if let name = r.seats[j].category, let p = prices[name] { r.seats[j].price = p }
            }
            return r
        }
    }
}
