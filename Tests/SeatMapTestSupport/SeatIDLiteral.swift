import SeatMapCore

/// Seat ids as literals (`"1-3-5"`) in this package's tests only: the
/// library builds them with `SeatID(_:)`, which is failable, so a typo in a
/// program is a nil to handle, never a trap at run time.
extension SeatID: ExpressibleByStringLiteral {
    public init(stringLiteral text: String) {
        // invariant: a literal in a test is source code, never input.
        guard let id = SeatID(text) else { preconditionFailure("\"\(text)\" is not a seat id literal (SECTION-ROW-COLUMN)") }
        self = id
    }
}
