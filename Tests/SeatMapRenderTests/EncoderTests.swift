import CCairo
import CPNGStrips
import Foundation
import Testing
import SeatMapCore
import SeatMapGolden
import SeatMapLayout
import SeatMapTestSupport
@testable import SeatMapRender

/// SeatMap's PNG encoder (RGB when opaque, strips compressed on every core)
/// and the banded drawing of large renders: libpng reads back exactly the
/// pixels drawn, the bytes never depend on the number of cores, and a
/// banded render is the one-pass render pixel for pixel.
@Suite("PNG encoder")
struct EncoderTests {
    /// An image with translucent pixels (a render never has any).
    static func translucent() throws -> RasterImage {
        let image = try RasterImage(width: 700, height: 1500)
        let context = try CairoContext(image.surface)
        for i in 0..<40 {
            cairo_set_source_rgba(context.cr, Double(i % 7) / 7, Double(i % 3) / 3, 0.8, Double(i + 1) / 41)
            cairo_rectangle(context.cr, Double(i * 13), Double(i * 31), 300, 200)
            cairo_fill(context.cr)
        }
        return image
    }

    /// An opaque render with one translucent pixel, placed by the image's
    /// width and height: the encoder guesses RGB from the first pixel and
    /// must start again as RGBA when a strip finds this one.
    static func oneTranslucentPixel(_ place: (Int, Int) -> (x: Int, y: Int)) throws -> RasterImage {
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.search("light"), zoom: 3, scale: 2)
        let image = try Renderer.raster(scene)
        let (x, y) = place(image.width, image.height)
        let context = try CairoContext(image.surface)
        cairo_set_operator(context.cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(context.cr, 0.2, 0.4, 0.6, 0.5)
        cairo_rectangle(context.cr, Double(x), Double(y), 1, 1)
        cairo_fill(context.cr)
        cairo_surface_flush(image.surface.pointer)
        return image
    }

    static func pngcheck(_ bytes: [UInt8]) throws -> Bool? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/pngcheck") else { return nil }
        let file = try Fixtures.tempFolder().appendingPathComponent("c.png")
        try Data(bytes).write(to: file)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/pngcheck")
        p.arguments = ["-q", file.path]
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    @Test("libpng (and pngcheck) read back exactly the pixels drawn, opaque and translucent, at every level",
          arguments: TestTier.sample(PNGCompression.allCases, fast: 1))
    func roundTrip(level: PNGCompression) throws {
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: try Theme.search("dark"), zoom: 2, scale: 2)
        for image in [try Renderer.raster(scene), try EncoderTests.translucent(), try EncoderTests.oneTranslucentPixel { _, _ in (0, 0) },
                      try EncoderTests.oneTranslucentPixel { w, h in (w - 1, h - 1) }, try EncoderTests.oneTranslucentPixel { _, h in (300, h / 2) }] {
            let png = try image.pngData(compression: level)
            // Colour type 2 (RGB) for an opaque image, 6 (RGBA) otherwise.
            let opaque = image.rgbaPixels().allSatisfy { $0 >> 24 == 0xFF }
            #expect(png[25] == (opaque ? 2 : 6))
            let decoded = try RGBAImage(png: png)
            #expect(decoded.width == image.width && decoded.height == image.height)
            #expect(decoded.pixels == image.rgbaPixels())
            if let ok = try EncoderTests.pngcheck(png) { #expect(ok) }
        }
    }

    @Test("the bytes do not depend on the number of cores")
    func deterministic() throws {
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.search("light"), zoom: 3, scale: 2)
        let image = try Renderer.raster(scene)
        let filtered = (image.width * 3 + 1) * image.height
        #expect(filtered > 2 * PNGEncoder.stripBytes(filtered: filtered), "several strips")
        for level in PNGCompression.allCases {
            let one = try image.pngData(compression: level, workers: 1)
            #expect(try image.pngData(compression: level, workers: 2) == one)
            #expect(try image.pngData(compression: level, workers: 7) == one)
        }
        // Found translucent by a strip after others were encoded as RGB.
        let last = try EncoderTests.oneTranslucentPixel { w, h in (w - 1, h - 1) }
        let one = try last.pngData(compression: .default, workers: 1)
        #expect(one[25] == 6)
        #expect(try last.pngData(compression: .default, workers: 2) == one)
        #expect(try last.pngData(compression: .default, workers: 7) == one)
    }

    /// An opaque image `width` wide: rects of several colours, some
    /// differences of exactly 128 between neighbours and rows (|-128| is
    /// the one magnitude a signed-byte slip gets wrong).
    static func opaque(width: Int) throws -> RasterImage {
        let image = try RasterImage(width: width, height: 240)
        let context = try CairoContext(image.surface)
        cairo_set_source_rgb(context.cr, 0, 0, 0)
        cairo_paint(context.cr)
        for i in 0..<30 {
            let v = Double(i % 2 == 0 ? 128 : 255) / 255
            cairo_set_source_rgb(context.cr, v, Double(i % 5) / 5, Double((i * 128) % 256) / 255)
            cairo_rectangle(context.cr, Double(i * 23 % width), Double(i * 7), Double(17 + i % 9), 40)
            cairo_fill(context.cr)
        }
        return image
    }

    @Test("the AVX2 paths (RGB conversion, the Sub-or-Up sums) write the bytes of the plain C ones at every level, every width remainder")
    func simdSameBytes() throws {
        if seatmap_strips_has_simd() == 0 { print("note: no AVX2 here: both encodings take the plain C paths") }
        // Widths leaving every remainder of the 4-pixel and 32-byte steps, opaque (RGB) and translucent (RGBA).
        var images = try [701, 702, 703, 704, 705, 715].map { try EncoderTests.opaque(width: $0) }
        images.append(try EncoderTests.translucent())
        for (hall, zoom, scale) in [("cinema-12x18", 1.0, 2.0), ("imax-3-sections", 1.37, 1.0), ("theatre-curved", 0.77, 3.0)] {
            images.append(try Renderer.raster(try Scene(hall: try Fixtures.example(hall + ".json"), theme: try Theme.search("dark"),
                                                        zoom: zoom, scale: scale)))
        }
        #expect(Set(images.map { $0.width % 4 }).count == 4, "every remainder of four pixels")
        // The switch is process-wide: another test encoding meanwhile takes the plain paths, which give the same bytes.
        defer { seatmap_strips_allow_simd(1) }
        for image in images {
            for level in PNGCompression.allCases {
                seatmap_strips_allow_simd(1)
                let vector = try image.pngData(compression: level)
                seatmap_strips_allow_simd(0)
                let plain = try image.pngData(compression: level)
                seatmap_strips_allow_simd(1)
                #expect(vector == plain, "\(image.width)×\(image.height) at \(level)")
            }
        }
    }

    @Test("the default level is no larger than libpng's defaults (zlib 6, adaptive filtering) for the same pixels",
          arguments: ["cinema-12x18", "imax-3-sections", "arena-blocks"])
    func size(hall: String) throws {
        let image = try Renderer.raster(try Scene(hall: try Fixtures.example(hall + ".json"), theme: try Theme.search("light"), zoom: 1, scale: 2))
        let ours = try image.pngData(compression: .default).count, libpng = try image.libpngData().count
        #expect(ours <= libpng, "\(ours) > \(libpng)")
        #expect(try image.pngData(compression: .best).count <= ours)
    }

    @Test("a view reaching the layout's edges and a view at Cairo's size limit render; a larger one is refused")
    func marginsAtEdges() throws {
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.search("light"), zoom: 1, scale: 1)
        let l = scene.layout
        // Tiles stop at the layout's edges.
        let tiles = Renderer.tiles(PixelRect(x: -50, y: -50, w: l.width + 100, h: l.height + 100), l)
        #expect(tiles.allSatisfy { $0.intersection(l.bounds) == $0 } && tiles.reduce(0) { $0 + $1.w * $1.h } == l.width * l.height)
        // A viewport 32767 px wide (the limit) over a small hall: drawn, not refused.
        let t = ViewTransform(layout: l, viewportWidth: Double(CairoLibrary.maxSide), viewportHeight: 40, offsetX: 0, offsetY: 200)
        let image = try Renderer.raster(scene, viewport: t)
        #expect(image.width == CairoLibrary.maxSide)
    }

    @Test("a large render drawn in tiles on several cores is the same drawn on one core, pixel for pixel")
    func tilesOnCores() throws {
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: try Theme.search("light"), zoom: 2.37, scale: 2,
                              selected: ["2-5-8"], highlighted: ["2-4-8"])
        #expect(Renderer.tiles(scene.layout.bounds, scene.layout).count > 1)
        let many = try Renderer.$cores.withValue(4) { try Renderer.raster(scene) }
        let one = try Renderer.$cores.withValue(1) { try Renderer.raster(scene) }
        #expect(many.rgbaPixels() == one.rgbaPixels())
    }
}
