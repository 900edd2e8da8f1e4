#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// A phone-sized window onto the drawing: its size and the content offset, in points.
public struct SnapshotViewport: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var x: Double
    public var y: Double
    public init(width: Double, height: Double, x: Double = 0, y: Double = 0) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
    }
}
