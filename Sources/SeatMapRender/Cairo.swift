import CCairo

/// Facts about the Cairo library SeatMap renders with.
public enum CairoLibrary {
    /// The version of the linked Cairo, e.g. "1.16.0".
    public static var version: String { String(cString: cairo_version_string()) }
}
