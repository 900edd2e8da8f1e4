/// SeatMap itself.
public enum SeatMap {
    /// The version of SeatMap: this line is the one place it is written
    /// (`seatmap --version` prints it).
    public static let version = "0.3.0"
}
