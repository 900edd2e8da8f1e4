import Foundation
import SeatMapCore
import SeatMapLayout

/// One run of status batches, applied in order through a `StatusSync`: the
/// report per batch (text and JSON, shaped here for every face), the seats
/// and areas that changed, and the hall after.
public struct BatchRun: Sendable {
    public var applied: [StatusBatch] = []
    public var changed: [SeatID] = []
    public var changedAreas: [String] = []
    public var lines: [String] = []
    public var reports: [JSONNode] = []
    /// The hall with every applied batch's statuses.
    public var hall: Hall

    /// Applies `batches`; `onApplied` is told each applied batch's changed
    /// seats and areas with the hall after it, and returns the holds it
    /// took away (a show's), reported as dropped. A bad batch throws,
    /// naming it in `updatesFile`, before anything is kept.
    init(_ batches: [StatusBatch], sync: inout StatusSync, layout: Layout, updatesFile: String,
         onApplied: ([SeatID], [String], Hall) throws -> [ShowInventory.Dropped] = { _, _, _ in [] }) throws {
        hall = sync.hall
        var selection = Selection()
        for (k, batch) in batches.enumerated() {
            let outcome: StatusSync.Outcome
            do {
                outcome = try sync.apply(batch, selection: &selection)
            } catch {
                // Paths name the batch in a file of several.
                let prefix = batches.count > 1 ? "[\(k)]." : ""
                throw SeatMapError(file: updatesFile, diagnostics: error.diagnostics.map {
                    Diagnostic(path: prefix + $0.path, message: $0.text, line: $0.line, column: $0.column)
                })
            }
            var report: [(String, JSONNode)] = [("batchId", .string(batch.batchId))]
            let none: [(String, JSONNode)] = [("changed", .array([])), ("dirty", .array([])), ("dropped", .array([]))]
            switch outcome {
            case .applied(let seats, _):
                applied.append(batch)
                changed += seats
                changedAreas += sync.changedAreas
                let dropped = try onApplied(seats, sync.changedAreas, sync.hall)
                let names = seats.map(\.description) + sync.changedAreas.map { "area:\($0)" }
                lines.append("\(batch.batchId): \(names.isEmpty ? "no change" : names.joined(separator: " "))")
                lines += dropped.map { "  \($0.id): held by token \($0.token), dropped" }
                var dirty: [JSONNode] = seats.compactMap { id in
                    layout.cell(id: id).map { .object([("id", .string(id.description))] + ResultJSON.rectMembers($0.rect)) }
                }
                for id in sync.changedAreas {
                    if let a = layout.areas.first(where: { $0.id == id }) {
                        dirty.append(.object([("id", .string("area:\(id)"))] + ResultJSON.rectMembers(a.rect)))
                    }
                }
                report += [("outcome", .string("applied")), ("changed", .array(seats.map { .string($0.description) })),
                           ("dirty", .array(dirty)),
                           ("dropped", .array(dropped.map { .object([("id", .string($0.id)), ("token", .string($0.token))]) }))]
                if !sync.changedAreas.isEmpty { report.append(("areas", .array(sync.changedAreas.map { .string($0) }))) }
            case .duplicate:
                lines.append("\(batch.batchId): already applied (no-op)")
                report += [("outcome", .string("duplicate"))] + none
            case .stale(let last):
                lines.append("\(batch.batchId): stale sequence \(batch.sequence) (last applied \(last)), ignored")
                report += [("outcome", .string("stale"))] + none
            }
            reports.append(.object(report))
        }
        hall = sync.hall
    }

    /// Applies batches to a hall file's plan (no show).
    public static func plan(_ batches: [StatusBatch], hall: Hall, layout: Layout, updatesFile: String) throws -> BatchRun {
        var sync = StatusSync(hall: hall, locale: layout.locale)
        return try BatchRun(batches, sync: &sync, layout: layout, updatesFile: updatesFile)
    }

    /// The report: JSON (one object per batch) or lines.
    public func report(json: Bool) -> String {
        json ? JSONWriter.write(.array(reports), pretty: false) : lines.joined(separator: "\n")
    }
}
