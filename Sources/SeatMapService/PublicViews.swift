import Foundation
import SeatMapCore
import SeatMapInventory

/// The hall as every buyer of a show sees it (holds and other channels'
/// seats locked), built once from the whole show and then kept current
/// from the show's change log: a reader after sequence N reads the seats
/// changed since N, never the whole show again. Shared by every request
/// of the process (best available, the seats' full answer).
final class PublicViews: @unchecked Sendable {
    /// One show's view as of a sequence of its change log.
    struct View: Sendable {
        var sequence: Int
        /// The hall with the show's statuses as the public sees them.
        var hall: Hall
        /// The seats held by a buyer (drawn locked in `hall`; `held` to others).
        var held: Set<SeatID>
        var planName: String
    }

    private let lock = NSLock()
    private var views: [String: View] = [:]
    /// Shows kept at most (the oldest forgotten first is not tracked: all
    /// are forgotten when this many are kept).
    private let capacity = 16

    /// The show's public view now. Holds that expired are released first
    /// (a bounded sweep, logged), so they come in as changes.
    func view(of show: String, plan: HallPlan, store: any InventoryStore, now: Date) throws -> View? {
        _ = try store.sweep(show: show, now: now)
        lock.lock()
        let cached = views[show]
        lock.unlock()
        if let cached, cached.planName == plan.name,
           let log = try store.changes(show: show, since: cached.sequence, limit: ShowService.deltaLimit), let seats = log.seats {
            if log.sequence == cached.sequence { return cached }
            guard let patched = try store.read(show: show, now: now, { tx -> View in
                try tx.read(seats: seats)
                var view = cached
                view.sequence = log.sequence
                for id in seats {
                    let word = tx.inventory.statusWord(of: id, for: nil)
                    view.hall.setStatus(word == "sold" ? .sold : word == "available" ? .available : .locked, of: id)
                    if word == "held" { view.held.insert(id) } else { view.held.remove(id) }
                }
                return view
            }) else { return nil }
            keep(show, patched)
            return patched
        }
        guard let inv = try store.show(show, now: now) else { return nil }
        var held = Set<SeatID>()
        for (id, state) in inv.seats { if case .held = state { held.insert(id) } }
        let view = View(sequence: inv.changeSequence, hall: inv.hall(plan.hall, for: nil), held: held, planName: plan.name)
        keep(show, view)
        return view
    }

    private func keep(_ show: String, _ view: View) {
        lock.lock()
        defer { lock.unlock() }
        // A slower reader must not put back an older view.
        if let current = views[show], current.sequence > view.sequence { return }
        if views.count >= capacity && views[show] == nil { views.removeAll() }
        views[show] = view
    }
}
