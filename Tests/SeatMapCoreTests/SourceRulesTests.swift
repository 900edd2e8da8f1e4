import Foundation
import Testing
import SeatMapTestSupport

@Suite("Source rules")
struct SourceRulesTests {
    /// No `try!`, `as!`, force unwrap, `fatalError` or `preconditionFailure`
    /// in Sources/: nothing input can reach may trap. A documented invariant
    /// says so on the line before (`// invariant: …`).
    @Test("nothing in Sources/ traps on input: no try!, as!, force unwraps or fatalError outside documented invariants")
    func noTraps() throws {
        let sources = Fixtures.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 30)
        let pattern = try Regex(#"try!|as!|fatalError\(|preconditionFailure\(|[A-Za-z0-9_)\]]!(?!=)"#)
        var found: [String] = []
        for file in files {
            let lines = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            for (n, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), !code.hasPrefix("///"), code.contains(pattern) else { continue }
                if n > 0, lines[n - 1].contains("// invariant:") { continue }
                found.append("\(file):\(n + 1): \(code)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
