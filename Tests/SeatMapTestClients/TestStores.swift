import Foundation
import Testing
import SeatMapCore
@testable import SeatMapStore
import SeatMapTestSupport

/// Where a test's store lives: a SQLite file, or a fresh database on the
/// PostgreSQL server `make test-all` starts (SEATMAP_TEST_POSTGRES; without
/// it the PostgreSQL cases are not run, and say so).
public enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    public var testDescription: String { rawValue }

    public static var postgresURL: String? {
        let url = ProcessInfo.processInfo.environment["SEATMAP_TEST_POSTGRES"] ?? ""
        return url.isEmpty ? nil : url
    }

    /// The backends this run can test.
    public static var available: [Backend] {
        if postgresURL == nil { print("note: SEATMAP_TEST_POSTGRES is not set: the PostgreSQL store is not tested (make test-all sets it)") }
        return postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// A new, empty store location (`--store` text) for one test.
    public func fresh(_ dir: URL) throws -> String {
        switch self {
        case .sqlite: return dir.appendingPathComponent("s.db").path
        case .postgres:
            guard let url = Backend.postgresURL, let slash = url.range(of: "/", options: .backwards) else { throw SeatMapError("no PostgreSQL") }
            let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let admin = try PGConnection(conninfo: url, location: "test")
            try admin.exec("CREATE DATABASE \(name)")
            return String(url[..<slash.upperBound]) + name
        }
    }
}

/// A store implementation under test.
public enum StoreKind: String, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres
    public var testDescription: String { rawValue }
    public static var available: [StoreKind] { [.memory] + Backend.available.map { $0 == .sqlite ? .sqlite : .postgres } }

    public func open() throws -> any InventoryStore {
        switch self {
        case .memory: return MemoryInventoryStore()
        case .sqlite: return try InventoryStores.open(Backend.sqlite.fresh(try Fixtures.tempFolder()))
        case .postgres: return try InventoryStores.open(Backend.postgres.fresh(try Fixtures.tempFolder()))
        }
    }
}
