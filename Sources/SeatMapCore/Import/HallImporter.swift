/// A hall read from another system's seat data, with warnings for what was
/// accepted only leniently.
public struct ImportedHall: Sendable {
    public var hall: Hall
    public var warnings: [Diagnostic]

    public init(hall: Hall, warnings: [Diagnostic]) {
        self.hall = hall
        self.warnings = warnings
    }
}

/// An importer's option, as `seatmap import --help` lists it.
public struct ImportOption: Sendable, Equatable {
    public var name: String
    /// The value's placeholder (`P`), or nil for a flag.
    public var valueName: String?
    public var help: String

    public init(name: String, valueName: String?, help: String) {
        self.name = name
        self.valueName = valueName
        self.help = help
    }
}

extension ImportOption {
    /// The price options every importer that needs prices takes (one text,
    /// so `import --help` lists them once).
    public static let price = ImportOption(name: "price", valueName: "P", help: "One price for every seat (pretix: for categories without their own).")
    public static let prices = ImportOption(name: "prices", valueName: "MAP",
                                            help: "Prices by section number, e.g. 1=45,2=60 (pretix: by category, e.g. Stalls=45,Balcony=30).")
    /// The hall's currency and words (a plan says neither).
    public static let currency = ImportOption(name: "currency", valueName: "CODE",
                                              help: "The prices' ISO 4217 currency, e.g. EUR (default CNY); written into the hall.")
    public static let locale = ImportOption(name: "locale", valueName: "TAG",
                                            help: "The hall's language of words and prices, e.g. de (default zh-Hans); written into the hall.")
}

/// The options given to an importer: values by name, and flags.
public struct ImportRequest: Sendable {
    public var values: [String: String]
    public var flags: Set<String>

    public init(values: [String: String] = [:], flags: Set<String> = []) {
        self.values = values
        self.flags = flags
    }
}

/// Reads another system's seat data into a `Hall` (built through
/// `HallValidator`, like every hall). Importers are listed in
/// `HallImporters.all`, which `seatmap import` and its help read, so a new
/// source of halls is one conforming type and one entry.
public protocol HallImporter: Sendable {
    /// The name on the command line: `seatmap import NAME IN -o HALL.json`.
    var name: String { get }
    /// One line for `seatmap import --help`.
    var summary: String { get }
    var options: [ImportOption] { get }
    /// A usage problem with the options (exit status 2), or nil; checked
    /// before the input is read. It names the options it is about
    /// (`Diagnostic.template`), for a face to say as it calls them.
    func usageProblem(_ request: ImportRequest) -> SeatMapError?
    /// Reads the input; every problem is reported with its path in it.
    func importHall(_ source: SourceText, _ request: ImportRequest) throws(SeatMapError) -> ImportedHall
}

/// The registry of importers.
public enum HallImporters {
    public static let all: [any HallImporter] = [MaoyanImporter(), PretixImporter()]

    public static func named(_ name: String) -> (any HallImporter)? {
        all.first { $0.name == name }
    }
}
