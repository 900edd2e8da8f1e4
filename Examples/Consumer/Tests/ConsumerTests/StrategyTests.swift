import Foundation
import SeatMapCore
import SeatMapRender
import SeatMapTesting
import Testing
import XCTest

/// The brand theme snapshot through strategies, from Swift Testing.
@Suite("Brand theme, as strategies")
struct BrandStrategyTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    @Test("the seed hall as PNG, as a phone viewport and as layout JSON")
    func strategies() throws {
        let hall = try Files.readHall(Self.folder.appendingPathComponent("hall.json").path)
        let brand = try Theme.load(contentsOf: Self.folder.appendingPathComponent("brand.json").path)
        assertSeatMapSnapshot(of: hall, as: .png(theme: brand), named: "strategy-brand")
        assertSeatMapSnapshot(of: hall, as: .png(theme: brand, zoom: 2, scale: 3, viewport: SnapshotViewport(width: 320, height: 240, x: 10, y: 40),
                                                 selected: [SeatID(section: 1, row: 1, column: 1)]),
                              named: "strategy-brand-phone")
        assertSeatMapSnapshot(of: hall, as: .layoutJSON(theme: brand), named: "strategy-brand-layout")
    }
}

/// The same from XCTest.
final class BrandStrategyXCTests: XCTestCase {
    func testImageAndLayout() throws {
        let hall = try Files.readHall(BrandStrategyTests.folder.appendingPathComponent("hall.json").path)
        let brand = try Theme.load(contentsOf: BrandStrategyTests.folder.appendingPathComponent("brand.json").path)
        assertSeatMapSnapshot(of: hall, as: .png(theme: brand), named: "strategy-brand")
        assertSeatMapSnapshot(of: hall, as: .layoutJSON(theme: brand), named: "strategy-brand-layout")
    }
}
