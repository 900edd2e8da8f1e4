import Foundation
import Testing
import SeatMapGolden
import SeatMapTestSupport

@Suite("PNG decoding")
struct PNGDecodeTests {
    @Test("a 16-bit PNG decodes like its 8-bit copy (16 bits scaled to 8 with rounding, no gamma change)")
    func sixteenBit() throws {
        let wide = try RGBAImage(contentsOf: Fixtures.imagePath("gray16.png"))
        let narrow = try RGBAImage(contentsOf: Fixtures.imagePath("gray8.png"))
        #expect(wide == narrow)
        #expect(wide.pixels[1] == RGBAImage.pack(128, 128, 128), "grey 0x8080 is 128, not 186")
    }

    @Test("a palette PNG with transparency decodes like the RGBA image it shows")
    func palette() throws {
        #expect(try RGBAImage(contentsOf: Fixtures.imagePath("palette.png")) == RGBAImage(contentsOf: Fixtures.imagePath("palette-rgba.png")))
    }

    @Test("an interlaced (Adam7) PNG decodes like the same pixels written plainly")
    func interlaced() throws {
        let a = try RGBAImage(contentsOf: Fixtures.imagePath("interlaced.png"))
        #expect(a.width == 13 && a.height == 11)
        #expect(a == (try RGBAImage(contentsOf: Fixtures.imagePath("plain-rgb.png"))))
        #expect(a.pixels[3 * 13 + 5] == RGBAImage.pack(95, 69, 15), "pixel (5, 3)")
    }

    @Test("an image whose header is over the limits is refused before decoding")
    func bomb() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.imagePath("bomb.png"))))
        let size = try #require(RGBAImage.pngSize(bytes))
        #expect(size == (40000, 40000))
        #expect {
            try RGBAImage(png: bytes)
        } throws: { error in
            "\(error)".contains("the image is 40000×40000 px, over the limit of 32767 px a side")
        }
        #expect(RGBAImage.pngSize(Array("not a png at all, longer than 24 bytes".utf8)) == nil)
    }
}
