/// The largest image SeatMap makes or reads: Cairo's limit of 32767 px a
/// side, and 400 megapixels (1.6 GB of RGBA), for renders and for PNGs
/// read by `diff` and `apply --image` alike (checked from the PNG header
/// before anything is decoded).
public enum ImageLimits {
    public static let maxSide = 32767
    public static let maxPixels = 400_000_000

    /// Whether a width × height image is within the limits.
    public static func allows(width: Int, height: Int) -> Bool {
        width <= maxSide && height <= maxSide && width * height <= maxPixels
    }
}
