import Foundation
import Testing
import SeatMapCore
import SeatMapService
@testable import SeatMapStore
import SeatMapTestClients
import SeatMapTestSupport

/// The SQLite store's file: older schemas and stores migrated once, files
/// that are not databases moved aside.
@Suite("SQLite store files: migrations and damaged files")
struct SQLiteStoreFileTests {
    @Test("a round-2 store migrates: its migrations recorded once, its applied batch ids kept for the show")
    func migratesRoundTwo() throws {
        let dir = try Fixtures.tempFolder()
        let db = dir.appendingPathComponent("old.db").path
        // The round-2 schema and rows, written with the sqlite3 library as round 2 did.
        do {
            let old = try SQLiteConnection(path: db)
            try old.exec(InventorySchema.migrations[0].sql)
            try old.rows("INSERT INTO holds(show, seat, position) VALUES ('S', '1-1-1', 0)")
            try old.rows("INSERT INTO hold_expiry(show, expires_at) VALUES ('S', 4000000000)")
            try old.rows("INSERT INTO applied_batches(show, batch_id) VALUES ('S', 'feed-7')")
            try old.rows("INSERT INTO last_sequence(show, sequence) VALUES ('S', 7)")
        }
        let hall = try TestHalls.wideRow(dir)
        let store = try SQLiteInventoryStore(path: db)
        #expect(try store.appliedMigrations() == InventorySchema.migrations.map(\.name))
        _ = try ShowService(store: store).create(show: "S", plan: HallPlan(name: "wide", hall: try Files.readHall(hall)))
        let updates = try Fixtures.write(#"{"batchId":"feed-7","sequence":7,"changes":[{"id":"1-1-2","status":2}]}"#, to: "u.json", in: dir)
        let r = seatmap("apply", hall, updates, "--store", db, "--show", "S")
        #expect(r.code == 0 && r.out.contains("already applied"), "\(r.out) \(r.err)")
        // Opening again applies nothing twice.
        #expect(try SQLiteInventoryStore(path: db).appliedMigrations() == InventorySchema.migrations.map(\.name))
    }

    @Test("a first-round JSON store is migrated once and kept as a backup")
    func jsonMigration() throws {
        let dir = try Fixtures.tempFolder()
        let path = try Fixtures.write(#"{"shows":{"B":["1-2-2","1-2-3"]}}"#, to: "store.json", in: dir)
        let store = try SQLiteInventoryStore(path: path)
        #expect(store.notes.first?.contains("migrated the JSON selection store") == true)
        let backups = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("json-backup") }
        #expect(backups.count == 1)
        #expect(try store.appliedMigrations() == InventorySchema.migrations.map(\.name))
        #expect(try SQLiteInventoryStore(path: path).notes.isEmpty, "migrated once")
    }

    @Test("unreadable store files are moved aside under names that never overwrite each other")
    func corruptStores() throws {
        let dir = try Fixtures.tempFolder()
        let path = dir.appendingPathComponent("s.db").path
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for k in 0..<3 {
            try Data("not a database \(k)".utf8).write(to: URL(fileURLWithPath: path))
            let store = try SQLiteInventoryStore(path: path, now: now)
            #expect(store.notes.contains { $0.contains("moved it to") }, "\(store.notes)")
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("corrupt") }
        #expect(aside.count == 3)
    }
}
