import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapTesting
import Testing

/// A team's own theme, snapshot-tested the way SeatMap tests its own.
@Suite("Brand theme")
struct BrandThemeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test("the seed hall in the brand theme matches its reference")
    func brand() throws {
        let hall = try Files.readHall(BrandThemeTests.folder.appendingPathComponent("hall.json").path)
        let theme = try Theme.search(BrandThemeTests.folder.appendingPathComponent("brand.json").path)
        try assertSeatMapSnapshot(of: hall, theme: theme, named: "seed-brand-z1")
        var phone = SeatMapSnapshot(zoom: 2, scale: 3)
        phone.viewport = (w: 320, h: 240, x: 10, y: 40)
        phone.selected = [SeatID(section: 1, row: 1, column: 1)]
        try assertSeatMapSnapshot(of: hall, theme: theme, named: "seed-brand-phone", phone)
    }
}
