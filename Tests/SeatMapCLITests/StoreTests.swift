import Foundation
import Testing
import SeatMapCLI
import SeatMapCore
import SeatMapStore
import SeatMapTestSupport

/// The SQLite store: concurrent commands lose nothing, holds expire,
/// applied batches are remembered across runs, old JSON stores migrate and
/// unreadable files are kept aside, never overwritten.
@Suite("Selection store (SQLite)")
struct StoreTests {
    /// One row of 20 seats, at most 20 selected.
    static func wideHall(_ dir: URL) throws -> String {
        let seats = (1...20).map { #"{"column":\#($0),"status":0}"# }.joined(separator: ",")
        let path = try Fixtures.write(#"{"maxSelectCount":20,"rows":[{"row":1,"price":10,"seats":[\#(seats)]}]}"#, to: "wide.json", in: dir)
        return path
    }

    /// Starts `seatmap select HALL --toggle 1-1-N --store DB --show S` as a process.
    static func startSelect(_ exe: URL, hall: String, db: String, seat n: Int) throws -> Process {
        let p = Process()
        p.executableURL = exe
        p.arguments = ["select", hall, "--toggle", "1-1-\(n)", "--store", db, "--show", "S", "--no-single-seat-rule"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    @Test("20 concurrent select processes on one show: all 20 seats end selected")
    func concurrent() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        let hall = try StoreTests.wideHall(dir)
        let db = dir.appendingPathComponent("store.db").path
        let processes = try (1...20).map { try StoreTests.startSelect(exe, hall: hall, db: db, seat: $0) }
        for p in processes { p.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let held = try SeatStore(path: db).heldSeats(show: "S")
        #expect(Set(held) == Set((1...20).map { "1-1-\($0)" }), "held: \(held.count) of 20")
    }

    @Test("processes killed with SIGKILL mid-way leave a store that opens and keeps committed seats")
    func killed() throws {
        guard let exe = SeatmapProcess.executable else { Issue.record("no seatmap binary"); return }
        let dir = try Fixtures.tempFolder()
        let hall = try StoreTests.wideHall(dir)
        let db = dir.appendingPathComponent("store.db").path
        #expect(seatmap("select", hall, "--toggle", "1-1-1", "--store", db, "--show", "S").code == 0)
        let processes = try (2...12).map { try StoreTests.startSelect(exe, hall: hall, db: db, seat: $0) }
        usleep(30_000)
        for p in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for p in processes { p.waitUntilExit() }
        let store = try SeatStore(path: db)
        #expect(store.notes.isEmpty, "\(store.notes)")
        let held = try store.heldSeats(show: "S")
        #expect(held.contains("1-1-1"), "a committed seat survives")
        let finished = processes.enumerated().filter { $0.element.terminationReason == .exit && $0.element.terminationStatus == 0 }
        for (k, _) in finished { #expect(held.contains("1-1-\(k + 2)"), "a process that finished kept its seat") }
        #expect(seatmap("select", hall, "--toggle", "1-1-20", "--store", db, "--show", "S").code == 0, "the store still works")
    }

    @Test("a hold expires after its time; each select renews it")
    func expiry() throws {
        let dir = try Fixtures.tempFolder()
        let store = try SeatStore(path: dir.appendingPathComponent("s.db").path)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        try store.transaction { try store.hold(show: "A", seats: ["1-1-1", "1-1-2"], until: t0.addingTimeInterval(600)) }
        #expect(try store.heldSeats(show: "A", now: t0.addingTimeInterval(599)) == ["1-1-1", "1-1-2"])
        #expect(try store.heldSeats(show: "A", now: t0.addingTimeInterval(600)).isEmpty, "expired")
        #expect(try store.heldSeats(show: "A", now: t0).isEmpty, "an expired hold is released, not hidden")
        // Through the command line: a hold of 1 s, held when the command
        // started and gone 2 s after it ended (however long it took).
        let db = dir.appendingPathComponent("cli.db").path
        let hall = Fixtures.examplePath("seed.json")
        let before = Date()
        #expect(seatmap("select", hall, "--toggle", "1-1-1", "--store", db, "--show", "B", "--hold-ttl", "1").code == 0)
        let after = Date()
        #expect(try SeatStore(path: db).heldSeats(show: "B", now: before) == ["1-1-1"])
        #expect(try SeatStore(path: db).heldSeats(show: "B", now: after.addingTimeInterval(2)).isEmpty)
    }

    @Test("a first-round JSON store is migrated once and kept as a backup")
    func migration() throws {
        let dir = try Fixtures.tempFolder()
        let path = try Fixtures.write(#"{"shows":{"A":["1-1-1"],"B":["1-2-2","1-2-3"]}}"#, to: "store.json", in: dir)
        let r = seatmap("select", Fixtures.examplePath("seed.json"), "--toggle", "1-1-3", "--store", path, "--show", "A", "--json")
        #expect(r.code == 0)
        #expect(r.err.contains("migrated the JSON selection store to SQLite (2 show(s))"), "\(r.err)")
        #expect(try parseJSON(r.out)["selected"] == .array([.string("1-1-1"), .string("1-1-3")]))
        let backups = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("store.json.json-backup-") }
        #expect(backups.count == 1)
        #expect(try SeatStore(path: path).heldSeats(show: "B") == ["1-2-2", "1-2-3"])
        let again = seatmap("select", Fixtures.examplePath("seed.json"), "--toggle", "1-1-3", "--store", path, "--show", "A")
        #expect(again.code == 0 && !again.err.contains("migrated"), "only once")
    }

    @Test("unreadable store files are moved aside under names that never overwrite each other")
    func corrupt() throws {
        let dir = try Fixtures.tempFolder()
        let path = dir.appendingPathComponent("store.db").path
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for garbage in ["{ not json", "\u{1}\u{2}garbage bytes that are not a database"] {
            try garbage.write(toFile: path, atomically: true, encoding: .utf8)
            let store = try SeatStore(path: path, now: now)
            #expect(store.notes.count == 1 && store.notes[0].contains("moved it to"), "\(store.notes)")
            #expect(try store.heldSeats(show: "A").isEmpty)
            try FileManager.default.removeItem(atPath: path)
        }
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("store.db.corrupt-1700000000-") }
        #expect(aside.count == 2, "two recoveries in the same second keep both files: \(aside)")
    }

    @Test("apply with a store remembers applied batches and sequences across runs")
    func applyAcrossRuns() throws {
        let dir = try Fixtures.tempFolder()
        let db = dir.appendingPathComponent("s.db").path
        let out = dir.appendingPathComponent("new.json").path
        let first = dir.appendingPathComponent("a.json").path, stale = dir.appendingPathComponent("b.json").path
        try #"{"batchId":"a","sequence":5,"changes":[{"id":"1-1-1","status":2}]}"#.write(toFile: first, atomically: true, encoding: .utf8)
        try #"{"batchId":"b","sequence":4,"changes":[{"id":"1-1-3","status":2}]}"#.write(toFile: stale, atomically: true, encoding: .utf8)
        let seed = Fixtures.examplePath("seed.json")
        let run1 = seatmap("apply", seed, first, "-o", out, "--store", db, "--show", "S")
        #expect(run1.code == 0 && run1.out.contains("a: 1-1-1"))
        let run2 = seatmap("apply", seed, first, "-o", out, "--store", db, "--show", "S")
        #expect(run2.code == 0 && run2.out.contains("a: already applied (no-op)"), "\(run2.out)")
        let run3 = seatmap("apply", seed, stale, "-o", out, "--store", db, "--show", "S")
        #expect(run3.out.contains("b: stale sequence 4 (last applied 5), ignored"), "\(run3.out)")
        let other = seatmap("apply", seed, first, "-o", out, "--store", db, "--show", "T")
        #expect(other.out.contains("a: 1-1-1"), "batches are per show")
        // An output that cannot be written records nothing.
        let failed = seatmap("apply", seed, stale, "-o", dir.appendingPathComponent("no/such.json").path, "--store", db, "--show", "U")
        #expect(failed.code == 1)
        #expect(seatmap("apply", seed, stale, "-o", out, "--store", db, "--show", "U").out.contains("b: 1-1-3"))
    }
}
