import Foundation

/// How long a token's holds last after its last select: one default and
/// one range for every face (the CLI's `--hold-ttl`, `seatmap serve
/// --hold-ttl`, and an HTTP request's `holdSeconds`, which may shorten the
/// service's hold time but not lengthen it).
public enum HoldTime {
    /// Ten minutes, unless the store's user says otherwise.
    public static let defaultSeconds: TimeInterval = 600
    /// From a second to a day.
    public static let range: ClosedRange<TimeInterval> = 1...86_400
}
