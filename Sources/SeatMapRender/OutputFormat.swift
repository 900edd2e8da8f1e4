import SeatMapCore
import SeatMapLayout

/// How a render is written besides its scene: what part, and the format's
/// own settings (each format reads the ones it has).
public struct RenderOptions: Sendable {
    /// A phone viewport: the image is exactly that region of the full render.
    public var viewport: ViewTransform?
    public var minimap: Bool
    public var compression: PNGCompression
    public var page: PageSize
    /// SVG: text as outlined paths (the same glyphs as the PNG on a machine
    /// without the fonts), each with its text as title and label.
    public var svgTextAsPaths: Bool
    /// HTML: where the picker page sends toggles (nil: it emits
    /// `seatmap:toggle` events only, as a page opened from a file).
    public var picker: PickerEndpoint?

    public init(viewport: ViewTransform? = nil, minimap: Bool = false, compression: PNGCompression = .default,
                page: PageSize = .fit, svgTextAsPaths: Bool = false, picker: PickerEndpoint? = nil) {
        self.viewport = viewport
        self.minimap = minimap
        self.compression = compression
        self.page = page
        self.svgTextAsPaths = svgTextAsPaths
        self.picker = picker
    }
}

/// One output format: its name (which is also its file extension), a line
/// for `--help`, and how a scene becomes its bytes. `OutputFormat.all` is
/// the table `render`, `--format` and the help text read, so a new format
/// is one more entry.
public struct OutputFormat: Sendable, Equatable, CaseIterable, CustomStringConvertible {
    public let name: String
    public let summary: String
    /// The media type an HTTP response gives it.
    public let mimeType: String
    let encode: @Sendable (Scene, RenderOptions) throws(SeatMapError) -> [UInt8]

    public static func == (a: OutputFormat, b: OutputFormat) -> Bool { a.name == b.name }
    public var description: String { name }

    /// Encodes a scene.
    public func bytes(_ scene: Scene, _ options: RenderOptions = RenderOptions()) throws(SeatMapError) -> [UInt8] {
        try encode(scene, options)
    }

    public static let png = OutputFormat(name: "png", summary: "raster image (RGB when opaque; compressed on every core)", mimeType: "image/png") { scene, o throws(SeatMapError) in
        try Renderer.png(scene, viewport: o.viewport, minimap: o.minimap, compression: o.compression)
    }
    public static let svg = OutputFormat(name: "svg", summary: "vector for the web, one <g id=\"seat-…\"> per seat", mimeType: "image/svg+xml") { scene, o throws(SeatMapError) in
        Array(try Renderer.svg(scene, viewport: o.viewport, minimap: o.minimap, textAsPaths: o.svgTextAsPaths).utf8)
    }
    public static let pdf = OutputFormat(name: "pdf", summary: "vector page for print", mimeType: "application/pdf") { scene, o throws(SeatMapError) in
        try Renderer.pdf(scene, page: o.page, viewport: o.viewport, minimap: o.minimap)
    }

    public static let html = OutputFormat(name: "html", summary: "interactive seat-picker page (the SVG with pan, zoom, keyboard and tap-to-toggle; self-contained)",
                                          mimeType: "text/html; charset=utf-8") { scene, o throws(SeatMapError) in
        let svg = try Renderer.svg(scene, viewport: o.viewport, minimap: o.minimap, textAsPaths: o.svgTextAsPaths)
        return Array(PickerPage.html(svg: svg, scene: scene, endpoint: o.picker).utf8)
    }

    /// Every format, in the order help lists them.
    public static let all: [OutputFormat] = [png, svg, pdf, html]
    public static var allCases: [OutputFormat] { all }

    public static func named(_ name: String) -> OutputFormat? {
        all.first { $0.name == name.lowercased() }
    }

    /// The format a file name's extension names.
    public static func forPath(_ path: String) -> OutputFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        return named(String(path[path.index(after: dot)...]))
    }

    /// "png, svg or pdf" (with `prefix` before each name, e.g. ".").
    public static func list(prefix: String = "") -> String {
        let names = all.map { prefix + $0.name }
        guard names.count > 1, let last = names.last else { return names.joined() }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
