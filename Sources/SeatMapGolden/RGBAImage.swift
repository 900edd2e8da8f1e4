import CPNG
import Foundation
import SeatMapCore

/// A problem reading, comparing or writing images.
public struct GoldenError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An 8-bit RGBA image, one `UInt32` per pixel holding the bytes R, G, B, A
/// in memory order (little-endian: `r | g << 8 | b << 16 | a << 24`).
/// Rows are packed; pixel (x, y) is `pixels[y * width + x]`.
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: UInt32 = 0) {
        self.init(width: width, height: height, pixels: Array(repeating: fill, count: width * height))
    }

    /// Packs r, g, b, a bytes into a pixel.
    @inline(__always)
    public static func pack(_ r: UInt32, _ g: UInt32, _ b: UInt32, _ a: UInt32 = 255) -> UInt32 {
        r | g << 8 | b << 16 | a << 24
    }

    /// The width and height a PNG's header declares, without decoding it
    /// (nil when the bytes are not a PNG).
    /// (The header's IHDR chunk, read without libpng: lets callers refuse
    /// an image by its size before allocating it.)
    public static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func big(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        return (big(16), big(20))
    }

    /// Decodes a PNG (any bit depth or colour type: libpng's reference
    /// transforms, 16 bits scaled to 8 with rounding) through libpng. An
    /// image over `ImageLimits` is refused from its header, before decoding.
    public init(png bytes: [UInt8]) throws(GoldenError) {
        var w: Int32 = 0, h: Int32 = 0
        var out: UnsafeMutablePointer<UInt8>? = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buf in
            seatmap_png_decode(buf.baseAddress, buf.count, &w, &h, &out, &message, message.count,
                               UInt32(ImageLimits.maxSide), UInt64(ImageLimits.maxPixels))
        }
        guard status == 0, let out else {
            let text = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw GoldenError("not a readable PNG: \(text.isEmpty ? "unknown libpng error" : text)")
        }
        defer { free(out) }
        let count = Int(w) * Int(h)
        let pixels = out.withMemoryRebound(to: UInt32.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
        self.init(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// Reads a PNG file (at most `Files.maxInputBytes`).
    public init(contentsOf path: String) throws(GoldenError) {
        let bytes: [UInt8]
        do {
            bytes = try Files.read(path).bytes
        } catch {
            throw GoldenError(error.message)
        }
        do {
            try self.init(png: bytes)
        } catch {
            throw GoldenError("\(path): \(error.message)")
        }
    }

    /// Encodes as an RGBA PNG through libpng (zlib 6, adaptive filtering):
    /// the pixels are already the packed RGBA bytes a PNG row holds.
    public func pngData() throws(GoldenError) -> [UInt8] {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let status = pixels.withUnsafeBytes { raw in
            seatmap_png_encode(raw.bindMemory(to: UInt8.self).baseAddress, Int32(width), Int32(height), 6, 1, &out, &size)
        }
        guard status == 0, let out else { throw GoldenError("libpng failed to encode the image") }
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Writes a PNG (Foundation's atomic write: a temporary file, then a rename).
    public func write(to path: String) throws(GoldenError) {
        let bytes = try pngData()
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw GoldenError("\(path): cannot write: \(error.localizedDescription)")
        }
    }
}
