import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestSupport
@testable import SeatMapRender

/// Named sections of a grid hall: each named in an empty row above its
/// block, the block outlined, listed in the legend, named in seat titles.
@Suite("Sections")
struct SectionTests {
    @Test("each named section's name is drawn above its block, which is outlined", arguments: Theme.shippedNames)
    func drawn(themeName: String) throws {
        let theme = try Theme.search(themeName)
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: theme, zoom: 1.37, scale: 2)
        let l = scene.layout
        #expect(l.zones.map { $0.name?.text } == ["A区", "B区", "C区"])
        let image = try Renderer.raster(scene)
        let bg = TicketTests.argb(theme.background)
        for zone in l.zones {
            let name = try #require(zone.name), box = try #require(name.placement.box)
            let block = try #require(l.sections.first { $0.id == zone.section })
            // In the row above the block, on no cell, and inked.
            #expect(box.maxY <= block.rect.y)
            #expect(l.cellIndexes(intersecting: box).isEmpty)
            var inked = 0
            for y in box.y..<box.maxY { for x in box.x..<min(box.maxX, box.x + 80) where image.pixel(x, y) != bg { inked += 1 } }
            #expect(inked > 30, "\(name.text): \(inked) inked pixels")
            // The outline runs half a gap left of the block, down its middle.
            let x = block.rect.x - l.gapX / 2
            let hits = (x - 1...x).filter { image.pixel($0, Int(block.rect.centerY)) != bg }
            #expect(!hits.isEmpty, "\(name.text): no outline at x \(x)")
            // A tap on the name is on no seat.
            #expect(HitTester(layout: l).hit(pixelX: box.centerX, pixelY: box.centerY) == .gap)
        }
        // Seat titles name the section.
        let seat = try #require(l.seats.first { $0.section == 2 })
        #expect(l.describe(seat).hasPrefix("B区"))
    }

    @Test("the legend lists the sections with the outline as swatch")
    func legend() throws {
        let theme = try Theme.search("light")
        let scene = try Scene(hall: try Fixtures.example("imax-3-sections.json"), theme: theme, zoom: 1, scale: 2)
        let entries = scene.layout.legendItems.filter { if case .section = $0.kind { return true } else { return false } }
        #expect(entries.count == 3)
        let image = try Renderer.raster(scene)
        for e in entries {
            // The swatch's left edge is drawn in the outline colour; its inside is background.
            let b = e.markBox
            let edge = (b.x - 1...b.x + 1).compactMap { image.pixel($0, Int(b.centerY)) }
            #expect(edge.contains(TicketTests.argb(theme.outline)), "\(e.kind)")
            #expect(image.pixel(Int(b.centerX), Int(b.centerY)) == TicketTests.argb(theme.background))
        }
        // One section, or none named: no name rows, no entries.
        var style = theme.style
        style.sectionNames = false
        let plain = try Layout(hall: try Fixtures.example("imax-3-sections.json"), style: style, zoom: 1, scale: 2)
        #expect(plain.zones.isEmpty && plain.height < scene.layout.height)
        #expect(try Layout(hall: try Fixtures.example("cinema-12x18.json"), zoom: 1, scale: 2).zones.isEmpty)
        // Sections whose rows interleave have no block to name or outline.
        var text = try String(contentsOfFile: Fixtures.examplePath("imax-3-sections.json"), encoding: .utf8)
        for row in 1...14 {
            for section in 1...3 {
                text = text.replacingOccurrences(of: "{\"row\": \(row), \"section\": \(section),", with: "{\"row\": \(row), \"section\": \(row % 2 + 1),")
            }
        }
        let mixed = try HallFormat.decode(SourceText(name: "mixed.json", bytes: Array(text.utf8))).hall
        #expect(Set(mixed.rows.map(\.section)) == [1, 2])
        let interleaved = try Layout(hall: mixed, zoom: 1, scale: 2)
        #expect(interleaved.zones.isEmpty && interleaved.height == plain.height)
    }
}
