import Foundation
import Testing
import SeatMapCore
import SeatMapTestSupport

@Suite("Locales and money")
struct LocaleTests {
    @Test("every catalogue in Locales/ is shipped, complete and named by its file")
    func catalogues() throws {
        let folder = Fixtures.root.appendingPathComponent("Locales")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.map { String($0.dropLast(5)) } == SeatMapLocale.codes)
        for code in ["zh-Hans", "zh-Hant", "en", "de", "fr", "es", "ja", "ko", "ar", "he"] {
            #expect(SeatMapLocale.codes.contains(code), "\(code) is shipped")
        }
        for file in files {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            let locale = try SeatMapLocale.decode(SourceText(name: file, bytes: bytes))
            #expect(locale.code + ".json" == file)
            for key in SeatMapLocale.keys { #expect(locale.text(key) != key, "\(file) has \(key)") }
            #expect(locale.seat(row: "3", seat: "5").contains("3") && locale.seat(row: "3", seat: "5").contains("5"))
        }
        #expect(try SeatMapLocale.named("ar").rightToLeft)
        #expect(try SeatMapLocale.named("he").rightToLeft)
        #expect(try !SeatMapLocale.named("en").rightToLeft)
    }

    @Test("a catalogue missing a key, or with an unknown one, is refused naming it")
    func badCatalogue() throws {
        let good = try String(contentsOf: Fixtures.root.appendingPathComponent("Locales/en.json"), encoding: .utf8)
        let missing = good.replacingOccurrences(of: #""status.sold": "Sold","#, with: "")
        #expect { try SeatMapLocale.decode(SourceText(name: "x.json", bytes: Array(missing.utf8))) } throws: {
            "\($0)".contains("status.sold")
        }
        let unknown = good.replacingOccurrences(of: #""status.sold": "Sold","#, with: #""status.sold": "Sold", "status.gone": "Gone","#)
        #expect { try SeatMapLocale.decode(SourceText(name: "x.json", bytes: Array(unknown.utf8))) } throws: {
            "\($0)".contains("status.gone")
        }
    }

    @Test("BCP 47 tags match catalogues: exact, Chinese by script or region, then the language")
    func matching() throws {
        #expect(try SeatMapLocale.named("en-US").code == "en")
        #expect(try SeatMapLocale.named("EN_gb").code == "en")
        #expect(try SeatMapLocale.named("de-AT").code == "de")
        #expect(try SeatMapLocale.named("zh-CN").code == "zh-Hans")
        #expect(try SeatMapLocale.named("zh").code == "zh-Hans")
        #expect(try SeatMapLocale.named("zh-TW").code == "zh-Hant")
        #expect(try SeatMapLocale.named("zh-Hant-HK").code == "zh-Hant")
        #expect(try SeatMapLocale.named("he-IL").code == "he")
        #expect { try SeatMapLocale.named("pt-BR") } throws: { "\($0)".contains("unknown locale \"pt-BR\"") && "\($0)".contains("zh-Hans") }
        #expect { try SeatMapLocale.named("") } throws: { "\($0)".contains("unknown locale") }
    }

    @Test("money: symbol, grouping and minor units of the currency, as the locale writes them", arguments: [
        ("zh-Hans", "CNY", "1234567.891", "¥1,234,567.89"),
        ("zh-Hans", "CNY", "35", "¥35.00"),
        ("en", "USD", "1234567.89", "$1,234,567.89"),
        ("en", "EUR", "5.5", "€5.50"),
        ("en", "CNY", "99", "CN¥99.00"),
        ("de", "EUR", "1234567.89", "1.234.567,89\u{a0}€"),
        ("fr", "EUR", "1234.5", "1\u{202f}234,50\u{a0}€"),
        ("es", "EUR", "1234.5", "1234,50\u{a0}€"),
        ("es", "EUR", "12345", "12.345,00\u{a0}€"),
        ("ja", "JPY", "1234.5", "￥1,235"),
        ("ja", "JPY", "1234.4", "￥1,234"),
        ("en", "JPY", "1500", "JP¥1,500"),
        ("ko", "KRW", "15000", "₩15,000"),
        ("ar", "KWD", "1234.5678", "1,234.568\u{a0}د.ك.\u{200f}"),
        ("en", "KWD", "3.1", "KWD\u{a0}3.100"),
        ("ar", "CNY", "128", "128.00\u{a0}\u{2066}CN¥\u{2069}"),
        ("ja", "CNY", "128", "元128.00"),
        ("he", "ILS", "49.9", "49.90\u{a0}₪"),
        ("zh-Hant", "TWD", "280", "$280.00"),
        ("en", "XYZ", "1", "XYZ\u{a0}1.00"),
    ])
    func money(_ c: (String, String, String, String)) throws {
        let locale = try SeatMapLocale.named(c.0)
        let amount = try #require(Decimal(string: c.2))
        #expect(locale.money(amount, currency: c.1) == c.3, "\(c.0) \(c.1) \(c.2)")
    }

    @Test("a hall's currency and locale are read, written back, and checked with their JSON path")
    func hallFields() throws {
        let hall = try HallFormat.decode(#"{"currency": "EUR", "locale": "de-DE", "rows": [{"row": 1, "price": 12.5, "seats": [{"column": 1, "status": 0}]}]}"#)
        #expect(hall.currency == "EUR")
        #expect(hall.locale == "de-DE")
        let again = try HallFormat.decode(JSONWriter.write(HallFormat.encode(hall), pretty: true))
        #expect(again == hall)
        let plain = try HallFormat.decode(#"{"rows": [{"row": 1, "price": 1, "seats": [{"column": 1, "status": 0}]}]}"#)
        #expect(plain.currency == "CNY" && plain.locale == nil)
        #expect(!JSONWriter.write(HallFormat.encode(plain), pretty: false).contains("currency"), "defaults are not written")
        #expect { try HallFormat.decode(#"{"currency": "euro", "rows": [{"row": 1, "price": 1, "seats": [{"column": 1, "status": 0}]}]}"#) } throws: {
            "\($0)".contains("currency") && "\($0)".contains("\"euro\" is not an ISO 4217 currency code") && "\($0)".contains("line 1")
        }
        #expect { try HallFormat.decode(#"{"locale": "xx", "rows": [{"row": 1, "price": 1, "seats": [{"column": 1, "status": 0}]}]}"#) } throws: {
            "\($0)".contains("locale") && "\($0)".contains("unknown locale \"xx\"")
        }
    }

    @Test("found by a hostile review: placeholders are filled once, in one pass (labels may hold braces)")
    func placeholders() throws {
        let de = try SeatMapLocale.named("de")
        #expect(de.seat(row: "{seat}", seat: "{row}") == "Reihe {seat}, Platz {row}")
        #expect(de.seat(row: "{section}", seat: "1", section: "{row}") == "{row}, Reihe {section}, Platz 1")
        #expect(try SeatMapLocale.named("zh-Hans-HK").code == "zh-Hans", "an explicit script wins over the region")
        #expect(try SeatMapLocale.named("zh-Hant-CN").code == "zh-Hant")
    }

    @Test("found by a hostile review: prices have at most the currency's minor units, so shown prices add up to the shown total")
    func minorUnits() throws {
        func hall(_ currency: String, _ price: String) throws -> Hall {
            try HallFormat.decode(#"{"currency": "\#(currency)", "rows": [{"row": 1, "price": \#(price), "seats": [{"column": 1, "status": 0}]}]}"#)
        }
        #expect { try hall("EUR", "2.675") } throws: { "\($0)".contains("price 2.675 has more decimals than EUR has (2)") }
        #expect { try hall("JPY", "1000.5") } throws: { "\($0)".contains("more decimals than JPY has (0)") }
        #expect(try hall("KWD", "2.675").currency == "KWD")
        #expect(try hall("EUR", "2.670").currency == "EUR", "trailing zeros are fine")
    }

    @Test("found by a hostile review: line separators and C1 controls are refused in names")
    func separators() throws {
        for v: UInt32 in [0x2028, 0x2029, 0x85, 0x9F, 0xFDD0, 0x1FFFE] {
            let bad = try #require(Unicode.Scalar(v))
            #expect(throws: SeatMapError.self, "U+\(String(v, radix: 16))") {
                try Hall(cinemaName: "A\(Character(bad))B", rows: [Row(number: 1, price: 1, seats: [Seat(column: 1, status: .available)])])
            }
        }
    }

    @Test("descriptions name the section when the hall has more than one, in every locale")
    func sectionNames() throws {
        let hall = try Fixtures.example("imax-3-sections.json")
        let cell = try #require(hall.cells.first { $0.row.section == 2 && $0.seat.isSeat })
        let name = hall.sectionName(2)
        #expect(hall.describe(cell) == "\(name) \(cell.row.label)排\(cell.seat.label)座")
        #expect(hall.describe(cell, in: try SeatMapLocale.named("en")) == "\(name), Row \(cell.row.label), Seat \(cell.seat.label)")
        let single = try Fixtures.example("cinema-12x18.json")
        let one = try #require(single.cells.first { $0.seat.isSeat })
        #expect(single.describe(one) == "\(one.row.label)排\(one.seat.label)座")
    }
}
