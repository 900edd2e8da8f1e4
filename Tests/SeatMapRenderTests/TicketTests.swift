import Foundation
import Testing
import SeatMapCore
import SeatMapLayout
import SeatMapTestSupport
@testable import SeatMapRender

/// E-tickets (`render --ticket`): the buyer's seats stand out and are named,
/// everyone else's occupancy is hidden, the crop is the full render's pixels,
/// and the screen's direction is shown when the screen is off the crop.
@Suite("E-tickets")
struct TicketTests {
    static func argb(_ c: Color) -> UInt32 {
        0xFF00_0000 | UInt32((c.r * 255).rounded()) << 16 | UInt32((c.g * 255).rounded()) << 8 | UInt32((c.b * 255).rounded())
    }

    static func plain(_ hall: String, theme: String = "light", zoom: Double = 1, scale: Double = 1,
                      locale: String? = nil) throws -> Scene {
        let t = try Theme.search(theme)
        var style = t.style.with(header: true, legend: false)
        style.locale = try locale.map(SeatMapLocale.named)
        return try Scene(layout: Layout(hall: try Fixtures.example(hall + ".json"), style: style, zoom: zoom, scale: scale), theme: t)
    }

    /// Two neighbouring seats in the middle of the hall.
    static func pair(_ layout: Layout) throws -> [SeatID] {
        let seats = layout.seats
        let mid = seats[seats.count / 2]
        let next = seats.first { $0.row == mid.row && $0.section == mid.section && $0.column == mid.column + 1 }
        return [mid.id] + (next.map { [$0.id] } ?? [])
    }

    /// A point inside a seat away from its number, mark and outline.
    static func probe(_ c: LaidOutCell) -> (Int, Int) {
        (c.seatRect.x + c.seatRect.w / 5, c.seatRect.y + c.seatRect.h * 4 / 5)
    }

    static let halls = ["cinema-12x18", "imax-3-sections", "arena-blocks", "theatre-curved", "dinner-tables"]

    @Test("with occupancy shown, the crop is the full render's pixels except the buyer's seats and the callout", arguments: halls)
    func cropIsExact(hall: String) throws {
        let full = try TicketTests.plain(hall, zoom: 1.37, scale: 2)
        var ticket = full
        try ticket.makeTicket(for: TicketTests.pair(full.layout), showOccupancy: true)
        let t = try #require(ticket.ticket)
        let a = try Renderer.raster(full), b = try Renderer.raster(ticket)
        #expect(b.width == t.frame.w && b.height == t.frame.h)
        let crop = t.crop
        #expect(crop.intersection(full.layout.bounds) == crop)
        let pointer = t.callout.pointer.bounds
        var same = 0, different = 0
        for y in crop.y..<crop.maxY {
            for x in crop.x..<crop.maxX {
                if t.callout.pill.contains(x, y) || pointer.contains(x, y) || t.group.contains(x, y) { continue }
                if a.pixel(x, y) == b.pixel(x - t.frame.x, y - t.frame.y) { same += 1 } else { different += 1 }
            }
        }
        #expect(different == 0, "\(hall): \(different) of \(same + different) pixels differ from the full render")
    }

    @Test("the buyer's seats are drawn selected and outlined, every other seat neutral, without marks",
          arguments: Theme.shippedNames)
    func neutral(themeName: String) throws {
        var scene = try TicketTests.plain("cinema-12x18", theme: themeName)
        let ids = try TicketTests.pair(scene.layout)
        try scene.makeTicket(for: ids)
        let t = try #require(scene.ticket)
        let image = try Renderer.raster(scene)
        let theme = scene.theme
        var others = 0
        for cell in scene.layout.seats where t.crop.contains(cell.rect.x, cell.rect.y) && t.crop.contains(cell.rect.maxX - 1, cell.rect.maxY - 1) {
            let (x, y) = TicketTests.probe(cell)
            if t.callout.pill.contains(x, y) || t.callout.pointer.bounds.contains(x, y) { continue }
            let px = image.pixel(x - t.frame.x, y - t.frame.y)
            if ids.contains(cell.id) {
                #expect(px == TicketTests.argb(theme.selected), "\(cell.id)")
            } else {
                #expect(px == TicketTests.argb(theme.neutralFill), "\(cell.id) (\(cell.kind.name))")
                others += 1
                // No cross or hatch: the seat's whole lower-left quarter is one colour.
                let r = cell.seatRect
                for dy in r.h / 2 ..< r.h - r.h / 8 {
                    for dx in r.w / 8 ..< r.w / 3 {
                        #expect(image.pixel(r.x + dx - t.frame.x, r.y + dy - t.frame.y) == px, "\(cell.id) is marked")
                    }
                }
            }
        }
        #expect(others > 20)
        // The highlight outline is drawn round the buyer's seats.
        let c = try #require(scene.layout.cell(id: ids[0]))
        let ring = scene.layout.highlightRings(of: c)
        #expect(!ring.isEmpty)
        #expect(image.pixel(c.rect.x + 1 - t.frame.x, Int(c.rect.centerY) - t.frame.y) != TicketTests.argb(theme.selected))
    }

    @Test("the callout names the buyer's seats in the locale; the SVG hides occupancy and marks the buyer's seats",
          arguments: ["zh-Hans", "en", "ar"])
    func words(locale: String) throws {
        var scene = try TicketTests.plain("cinema-12x18", locale: locale)
        let ids = try TicketTests.pair(scene.layout)
        try scene.makeTicket(for: ids)
        let t = try #require(scene.ticket)
        let words = scene.layout.locale
        let names = ids.compactMap { scene.layout.cell(id: $0) }.map(scene.layout.describe)
        #expect(t.calloutText == words.text("ticket.callout", ["seats": words.list(names)]))
        #expect(names.allSatisfy { t.calloutText.contains($0) })
        let svg = try Renderer.svg(scene)
        #expect(svg.contains(t.calloutText))
        #expect(!svg.contains(words.status(.sold)) && !svg.contains(words.status(.locked)))
        #expect(!svg.contains("class=\"sold") && !svg.contains("class=\"locked"))
        let yours = try NSRegularExpression(pattern: #"<g id="seat-[^"]*" class="[^"]*\byours\b"#)
        #expect(yours.numberOfMatches(in: svg, range: NSRange(svg.startIndex..., in: svg)) == ids.count)
        #expect(svg.contains(words.text("status.yours")))
        #expect(svg.contains("viewBox=\"\(t.frame.x) \(t.frame.y) \(t.frame.w) \(t.frame.h)\""))
        // Nothing status-, tier- or price-dependent about other seats: only
        // the buyer's take focus and carry prices; the description is the callout.
        #expect(svg.components(separatedBy: "tabindex=").count - 1 == ids.count)
        // Prices and tiers are their run groups': only the buyer's seats' groups carry them.
        let runs = svg.components(separatedBy: "<g class=\"tier-").count - 1
        #expect(runs >= 1 && runs <= ids.count && svg.components(separatedBy: "data-price=").count - 1 == runs)
        #expect(svg.contains("<desc id=\"seatmap-desc\">\(t.calloutText)</desc>"))
        // Hidden occupancy: the SVG is the same whatever the other seats' statuses.
        let text = try String(contentsOfFile: Fixtures.examplePath("cinema-12x18.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"status\": 1", with: "\"status\": 0").replacingOccurrences(of: "\"status\": 2", with: "\"status\": 0")
        let hall = try HallFormat.decode(SourceText(name: "free.json", bytes: Array(text.utf8))).hall
        var style = try Theme.search("light").style.with(header: true, legend: false)
        style.locale = try SeatMapLocale.named(locale)
        var free = try Scene(layout: Layout(hall: hall, style: style, zoom: 1, scale: 1), theme: try Theme.search("light"))
        try free.makeTicket(for: ids)
        #expect(try Renderer.svg(free) == svg)
        #expect(try Renderer.pdf(free) == (try Renderer.pdf(scene)))
    }

    @Test("the screen's direction: shown above when the screen is off the crop, left out when it is in view")
    func direction() throws {
        var far = try TicketTests.plain("cinema-12x18")
        try far.makeTicket(for: [SeatID(section: 1, row: 10, column: 5)])
        let d = try #require(far.ticket?.direction)
        let t = try #require(far.ticket)
        #expect(d.band.maxY == t.crop.y && t.frame.y == d.band.y)
        // The arrow points up: its tip is its highest point.
        let b = d.arrow.bounds
        #expect(b.maxY <= d.band.maxY && b.y >= d.band.y)
        #expect(d.name == far.layout.screenLabel)
        var near = try TicketTests.plain("cinema-12x18")
        try near.makeTicket(for: [SeatID(section: 1, row: 1, column: 5)])
        #expect(near.ticket?.direction == nil)
        #expect(near.ticket.map { $0.crop.intersection(near.layout.screen).w > 0 } == true)
        // A free venue's stage: arena block A's seats point up and to the right.
        var arena = try TicketTests.plain("arena-blocks")
        try arena.makeTicket(for: [SeatID(section: 1, row: 2, column: 2)])
        let stage = try #require(arena.ticket?.direction)
        #expect(stage.name == "STAGE")
    }

    @Test("the pointer ends on a buyer's seat, between two side by side; a couple seat brings its partner")
    func pointer() throws {
        var apart = try TicketTests.plain("theatre-curved")
        try apart.makeTicket(for: [SeatID(section: 2, row: 11, column: 1), SeatID(section: 2, row: 11, column: 15)])
        let t = try #require(apart.ticket)
        guard case .line(let tx, let ty) = t.callout.pointer.elements[2] else { Issue.record("no tip"); return }
        // The tip is on the top edge of one of the buyer's seats' boxes.
        let mine = t.seats.compactMap { apart.layout.cell(id: $0) }
        #expect(mine.contains { Double($0.rect.x) <= tx && tx <= Double($0.rect.maxX) && ty == Double($0.rect.y) }, "tip \(tx),\(ty)")
        var couple = try TicketTests.plain("cinema-12x18")
        let left = try #require(couple.layout.seats.first { $0.type == .coupleLeft })
        try couple.makeTicket(for: [left.id])
        #expect(couple.ticket?.seats.count == 2)
    }

    @Test("unknown or non-seat ids are errors naming them")
    func badIDs() throws {
        var scene = try TicketTests.plain("cinema-12x18")
        #expect(throws: SeatMapError.self) { try scene.makeTicket(for: [SeatID(section: 1, row: 99, column: 1)]) }
        #expect(throws: SeatMapError.self) { try scene.makeTicket(for: []) }
    }

    @Test("a ticket on A4 draws its crop large: seat numbers and the callout at 9 pt or more", arguments: ["cinema-12x18", "imax-3-sections", "theatre-curved"])
    func ticketOnPaper(hall: String) throws {
        var scene = try TicketTests.plain(hall, scale: 2)
        try scene.makeTicket(for: TicketTests.pair(scene.layout))
        let t = try #require(scene.ticket)
        let pdf = try Renderer.pdf(scene, page: .a4)
        let text = String(decoding: pdf, as: UTF8.self)
        let box = try #require(text.range(of: "/MediaBox [").map { String(text[$0.upperBound...].prefix { $0 != "]" }) })
        let size = box.split(separator: " ").compactMap { Double($0) }
        #expect(size.count == 4)
        let (w, h) = (size[2], size[3])
        // The orientation that draws the frame larger, and the scale it gives.
        let portrait = scene.layout.placement(of: t.frame, onPage: 595.276, 841.89, margin: 36).scale
        let landscape = scene.layout.placement(of: t.frame, onPage: 841.89, 595.276, margin: 36).scale
        #expect((w > h) == (landscape > portrait))
        let scale = max(portrait, landscape)
        let seat = try #require(scene.layout.cell(id: t.seats[0]))
        let number = try #require(scene.layout.numberText(of: seat))
        #expect(number.size * scale >= 9, "seat numbers at \(number.size * scale) pt")
        #expect(t.callout.text.size * scale >= 9)
    }

    @Test("a PDF page turns to landscape when that draws the map larger, and stays portrait for a tall map")
    func orientation() throws {
        func mediaBox(_ pdf: [UInt8]) -> String? {
            let text = String(decoding: pdf, as: UTF8.self)
            guard let r = text.range(of: "/MediaBox [") else { return nil }
            return String(text[r.upperBound...].prefix { $0 != "]" }).trimmingCharacters(in: .whitespaces)
        }
        let wide = try TicketTests.plain("cinema-12x18")
        #expect(mediaBox(try Renderer.pdf(wide, page: .a4)) == "0 0 841.89 595.276")
        let t = try Theme.search("light")
        let tall = try Scene(hall: try Hall(cinemaName: "T", hallName: "1", movieStartTime: "2026-01-01 20:00",
                                            rows: (1...30).map { Row(number: $0, price: 10, seats: [Seat(column: 1, status: .available)]) }),
                             theme: t, zoom: 1, scale: 1)
        #expect(mediaBox(try Renderer.pdf(tall, page: .a4)) == "0 0 595.276 841.89")
    }
}
