import CCairo
import CPNG
import CPNGStrips
import Foundation
import SeatMapCore

/// A rendered raster image (premultiplied ARGB32, Cairo's format).
public final class RasterImage {
    let surface: CairoSurface
    public let width: Int
    public let height: Int

    init(surface: CairoSurface, width: Int, height: Int) {
        self.surface = surface
        self.width = width
        self.height = height
    }

    /// A blank image of the given size (for tests and incremental redraw).
    public convenience init(width: Int, height: Int) throws(SeatMapError) {
        try self.init(surface: CairoSurface(width: width, height: height), width: width, height: height)
    }

    /// Decodes a PNG (through Cairo) to redraw it in place.
    public convenience init(png bytes: [UInt8]) throws(SeatMapError) {
        let source = ByteSource(bytes)
        // Cairo reads through the pointer: `source` must outlive every read.
        defer { withExtendedLifetime(source) {} }
        let closure = Unmanaged.passUnretained(source).toOpaque()
        let created = cairo_image_surface_create_from_png_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
            return Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue().read(into: data, Int(length))
                ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
        }, closure)
        let surface = try CairoSurface(adopting: created, what: "an image from the PNG (is it a PNG?)")
        guard cairo_image_surface_get_format(surface.pointer) == CAIRO_FORMAT_ARGB32 || cairo_image_surface_get_format(surface.pointer) == CAIRO_FORMAT_RGB24 else {
            throw SeatMapError("the PNG has a pixel format SeatMap cannot redraw")
        }
        let w = Int(cairo_image_surface_get_width(surface.pointer)), h = Int(cairo_image_surface_get_height(surface.pointer))
        // Copy into an ARGB32 surface so redraws match fresh renders.
        let image = try RasterImage(width: w, height: h)
        let context = try CairoContext(image.surface)
        cairo_set_operator(context.cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(context.cr, surface.pointer, 0, 0)
        cairo_paint(context.cr)
        try context.check("reading the PNG")
        self.init(surface: image.surface, width: w, height: h)
    }

    /// Bytes per row.
    public var stride: Int { Int(cairo_image_surface_get_stride(surface.pointer)) }

    /// The pixel at (x, y) as 0xAARRGGBB (premultiplied), or nil outside.
    public func pixel(_ x: Int, _ y: Int) -> UInt32? {
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(surface.pointer) else { return nil }
        cairo_surface_flush(surface.pointer)
        return data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
    }

    /// Every row's pixels, `width` values each (no stride padding).
    public func rows() -> [[UInt32]] {
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return [] }
        return (0..<height).map { y in
            data.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) {
                Array(UnsafeBufferPointer(start: $0, count: width))
            }
        }
    }

    /// Writes `byte` into every byte of the pixels (the benchmark's floor:
    /// an image allocated as a render allocates it, then filled).
    package func fillBytes(_ byte: UInt8) {
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return }
        memset(data, Int32(byte), stride * height)
        cairo_surface_mark_dirty(surface.pointer)
    }

    /// How many pixels differ from `other`'s (rows compared as bytes
    /// first); nil when the sizes differ.
    package func differingPixels(from other: RasterImage) -> Int? {
        guard width == other.width, height == other.height else { return nil }
        cairo_surface_flush(surface.pointer)
        cairo_surface_flush(other.surface.pointer)
        guard let a = cairo_image_surface_get_data(surface.pointer), let b = cairo_image_surface_get_data(other.surface.pointer) else { return nil }
        var n = 0
        for y in 0..<height {
            let ra = a.advanced(by: y * stride), rb = b.advanced(by: y * other.stride)
            if memcmp(ra, rb, width * 4) == 0 { continue }
            for x in 0..<width where memcmp(ra.advanced(by: x * 4), rb.advanced(by: x * 4), 4) != 0 { n += 1 }
        }
        return n
    }

    /// Every pixel as non-premultiplied RGBA bytes packed `r | g << 8 | b << 16 | a << 24`
    /// (what decoding this image's PNG gives), rows packed.
    public func rgbaPixels() -> [UInt32] {
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return [] }
        var out = [UInt32](repeating: 0, count: width * height)
        out.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in 0..<height {
                data.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                    seatmap_strips_argb_to_rgba(row, base + y * width * 4, Int32(width))
                }
            }
        }
        return out
    }

    /// Encodes the image as PNG (see `PNGEncoder`: RGB when opaque, strips
    /// compressed on every core). Deterministic: the same pixels and level
    /// give the same bytes on any machine.
    public func pngData(compression: PNGCompression = .default) throws(SeatMapError) -> [UInt8] {
        try pngData(compression: compression, workers: nil)
    }

    /// As `pngData(compression:)`, with at most `workers` strips at once.
    public func pngData(compression: PNGCompression, workers: Int?) throws(SeatMapError) -> [UInt8] {
        cairo_surface_flush(surface.pointer)
        guard let data = cairo_image_surface_get_data(surface.pointer) else {
            throw SeatMapError("the image has no pixel data")
        }
        return try PNGEncoder.encode(data, width: width, height: height, stride: stride, compression: compression, workers: workers)
    }

    /// The image as libpng writes it with its defaults (RGBA, zlib level 6,
    /// adaptive filtering), one row at a time on one core: the benchmark's
    /// reference for file size and the encoder SeatMap used before.
    public func libpngData() throws(SeatMapError) -> [UInt8] {
        let rgba = rgbaPixels()
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let status = rgba.withUnsafeBytes { raw in
            seatmap_png_encode(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), 6, 1, &out, &size)
        }
        guard status == 0, let out else { throw SeatMapError("libpng failed to encode the image") }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
