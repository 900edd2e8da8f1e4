import CCairo
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
          arguments: PNGCompression.allCases)
    func roundTrip(level: PNGCompression) throws {
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: try Theme.load("dark"), zoom: 2, scale: 2)
        for image in [try Renderer.raster(scene), try EncoderTests.translucent()] {
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
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.load("light"), zoom: 3, scale: 2)
        let image = try Renderer.raster(scene)
        #expect(image.width * image.height * 3 > 2 * PNGEncoder.stripBytes, "several strips")
        for level in PNGCompression.allCases {
            let one = try image.pngData(compression: level, workers: 1)
            #expect(try image.pngData(compression: level, workers: 2) == one)
            #expect(try image.pngData(compression: level, workers: 7) == one)
        }
    }

    @Test("the default level is no larger than libpng's defaults (zlib 6, adaptive filtering) for the same pixels",
          arguments: ["cinema-12x18", "imax-3-sections", "arena-blocks"])
    func size(hall: String) throws {
        let image = try Renderer.raster(try Scene(hall: try Fixtures.example(hall + ".json"), theme: try Theme.load("light"), zoom: 1, scale: 2))
        let ours = try image.pngData(compression: .default).count, libpng = try image.libpngData().count
        #expect(ours <= libpng, "\(ours) > \(libpng)")
        #expect(try image.pngData(compression: .best).count <= ours)
    }

    @Test("a region's margin stops at the layout's edges: a band is never wider than the image, a view at Cairo's size limit renders")
    func marginsAtEdges() throws {
        let scene = try Scene(hall: try Fixtures.example("cinema-12x18.json"), theme: try Theme.load("light"), zoom: 1, scale: 1)
        let l = scene.layout
        let band = PixelRect(x: 0, y: 100, w: l.width, h: 50)
        let padded = try Renderer.padded(band, l)
        #expect(padded.x == 0 && padded.w == l.width && padded.y == 100 - l.regionPadding && padded.h == 50 + 2 * l.regionPadding)
        // A viewport 32767 px wide (the limit) over a small hall: drawn, not refused.
        let t = ViewTransform(layout: l, viewportWidth: Double(CairoLibrary.maxSide), viewportHeight: 40, offsetX: 0, offsetY: 200)
        let image = try Renderer.raster(scene, viewport: t)
        #expect(image.width == CairoLibrary.maxSide)
        // One that cannot be drawn is refused with the documented advice.
        #expect(throws: SeatMapError.self) { try Renderer.padded(PixelRect(x: -100, y: 0, w: CairoLibrary.maxSide + 1, h: 10), l) }
    }

    @Test("a large render drawn in bands on several cores is the one-pass render, pixel for pixel")
    func bands() throws {
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: try Theme.load("light"), zoom: 2.37, scale: 2,
                              selected: ["2-5-8"], highlighted: ["2-4-8"])
        let visible = scene.layout.bounds
        let bands = try #require(Renderer.parallelBands(visible) ?? [PixelRect(x: 0, y: 0, w: visible.w, h: visible.h / 2),
                                                                      PixelRect(x: 0, y: visible.h / 2, w: visible.w, h: visible.h - visible.h / 2)])
        let banded = try RasterImage(width: visible.w, height: visible.h)
        try Renderer.drawBands(scene, bands, into: banded)
        // One pass: the whole layout as one region of one context.
        let single = try RasterImage(width: visible.w, height: visible.h)
        let context = try CairoContext(single.surface)
        Renderer.draw(scene, on: CairoCanvas(context, text: try PangoText(scene.theme, locale: scene.layout.locale)))
        #expect(banded.rgbaPixels() == single.rgbaPixels())
    }
}
