import SeatMapCore

/// A point in view coordinates (points), as a touch reports it.
public struct ViewPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// A rectangle in view coordinates (points).
public struct ViewRect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var w: Double
    public var h: Double
}

/// What a zooming scroll view shows: a viewport of the content at one zoom
/// and scale, scrolled by a content offset (as `UIScrollView.contentOffset`).
///
/// A view point `(px, py)` lands on content pixel
/// `((px + offsetX) × scale, (py + offsetY) × scale)`: the layout is already
/// built at this zoom, so zoom enters through the layout, never by scaling
/// an unzoomed layout (the seed's "tap hits the neighbour" bug).
///
/// The offset is snapped to whole device pixels, as scroll views do, so a
/// viewport image is an exact crop of the full render.
public struct ViewTransform: Sendable, Equatable {
    public let viewportWidth: Double
    public let viewportHeight: Double
    public let offsetX: Double
    public let offsetY: Double
    public let zoom: Double
    public let scale: Double

    public init(viewportWidth: Double, viewportHeight: Double, offsetX: Double = 0, offsetY: Double = 0,
                zoom: Double, scale: Double) {
        self.viewportWidth = viewportWidth
        self.viewportHeight = viewportHeight
        self.offsetX = (offsetX * scale).rounded() / scale
        self.offsetY = (offsetY * scale).rounded() / scale
        self.zoom = zoom
        self.scale = scale
    }

    /// A transform matching a layout's zoom and scale.
    public init(layout: Layout, viewportWidth: Double? = nil, viewportHeight: Double? = nil,
                offsetX: Double = 0, offsetY: Double = 0) {
        self.init(viewportWidth: viewportWidth ?? Double(layout.width) / layout.scale,
                  viewportHeight: viewportHeight ?? Double(layout.height) / layout.scale,
                  offsetX: offsetX, offsetY: offsetY, zoom: layout.zoom, scale: layout.scale)
    }

    /// View point → content pixel (continuous coordinates).
    public func contentPixel(of p: ViewPoint) -> (x: Double, y: Double) {
        ((p.x + offsetX) * scale, (p.y + offsetY) * scale)
    }

    /// Content pixel → view point: the inverse of `contentPixel(of:)`.
    public func viewPoint(ofContentPixel x: Double, _ y: Double) -> ViewPoint {
        ViewPoint(x / scale - offsetX, y / scale - offsetY)
    }

    /// Where a layout rect appears in the view, in points.
    public func viewRect(of r: PixelRect) -> ViewRect {
        let o = viewPoint(ofContentPixel: Double(r.x), Double(r.y))
        return ViewRect(x: o.x, y: o.y, w: Double(r.w) / scale, h: Double(r.h) / scale)
    }

    /// The content pixels the viewport shows (its image size and origin).
    public var visiblePixels: PixelRect {
        /// Whole pixels, clamped so that no input can overflow an `Int`.
        func px(_ v: Double, _ rule: FloatingPointRoundingRule) -> Int {
            guard v.isFinite else { return 0 }
            return Int(min(max(v.rounded(rule), -1e12), 1e12))
        }
        return PixelRect(x: px(offsetX * scale, .toNearestOrAwayFromZero), y: px(offsetY * scale, .toNearestOrAwayFromZero),
                         w: px(viewportWidth * scale - 1e-9, .up), h: px(viewportHeight * scale - 1e-9, .up))
    }

    /// Checks that a layout was built for this transform's zoom and scale.
    public func check(_ layout: Layout) throws(SeatMapError) {
        guard layout.zoom == zoom, layout.scale == scale else {
            throw SeatMapError("the view transform (zoom \(zoom), scale \(scale)) does not match the layout (zoom \(layout.zoom), scale \(layout.scale)); build the layout at the view's zoom")
        }
    }
}
