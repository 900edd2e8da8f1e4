import Foundation

/// ISO 4217 facts SeatMap formats money with: minor units and a symbol that
/// is clear in any locale (a locale's catalogue may name a shorter one for
/// its own currencies: `¥` for CNY in zh-Hans, `$` for USD in en).
public enum Currency {
    /// The hall default (the seed's prices are yuan).
    public static let defaultCode = "CNY"

    /// Digits after the decimal point (ISO 4217); 2 unless listed.
    public static func minorUnits(_ code: String) -> Int {
        if zeroDecimals.contains(code) { return 0 }
        if threeDecimals.contains(code) { return 3 }
        return 2
    }

    static let zeroDecimals: Set<String> = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
                                            "VUV", "XAF", "XOF", "XPF"]
    static let threeDecimals: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// The symbol used where a locale names none: unambiguous across
    /// locales (`US$`, `CN¥`), or the code itself.
    public static func symbol(_ code: String) -> String {
        symbols[code] ?? code
    }

    static let symbols: [String: String] = [
        "AUD": "A$", "BRL": "R$", "CAD": "CA$", "CNY": "CN¥", "EUR": "€", "GBP": "£", "HKD": "HK$", "ILS": "₪", "INR": "₹",
        "JPY": "JP¥", "KRW": "₩", "MXN": "MX$", "NZD": "NZ$", "TWD": "NT$", "USD": "US$", "VND": "₫", "XAF": "FCFA", "XOF": "F CFA",
    ]

    /// Whether `code` has the form of an ISO 4217 code (three capital letters).
    public static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (65...90).contains($0) }
    }
}
