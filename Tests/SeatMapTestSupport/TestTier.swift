import Foundation
import Testing

/// Which tier of the suite runs: `make test` runs the fast tier, `make
/// test-all` (SEATMAP_TESTS=all) adds the sweeps: every pixel, every
/// example under every flag, the documentation's snippets, PostgreSQL.
public enum TestTier {
    /// Whether this run is `make test-all`.
    public static let all = ProcessInfo.processInfo.environment["SEATMAP_TESTS"] == "all"
}

extension Trait where Self == ConditionTrait {
    /// A sweep: run by `make test-all` (SEATMAP_TESTS=all), skipped by the
    /// fast tier with a note saying so.
    public static var sweep: Self {
        .enabled(if: TestTier.all, "a sweep: make test-all runs it (SEATMAP_TESTS=all)")
    }
}

extension TestTier {
    /// The cases a sweep runs: all of them in `make test-all`; in the fast
    /// tier `count` of them spread evenly (the first and the last included),
    /// so the fast tier still exercises the sweep's code on real inputs.
    public static func sample<T>(_ cases: [T], fast count: Int) -> [T] {
        guard !all, count < cases.count else { return cases }
        guard count > 1 else { return Array(cases.prefix(count)) }
        return (0..<count).map { cases[$0 * (cases.count - 1) / (count - 1)] }
    }
}
