import SeatMapCore
import SeatMapService

/// How the command line says the inputs a library error names: as its
/// flags (`{{zoom}}` → `--zoom`, `{{selected}}` → `--select`).
enum CLIWords {
    /// The flag of an input the library names.
    static func flag(_ input: String) -> String {
        "--" + InputNames.option(input)
    }

    /// An error's message with its inputs said as flags.
    static func say(_ error: SeatMapError) -> String { error.naming(flag).message }

    /// Any error's message, a library error's with its inputs said as flags.
    static func say(_ error: any Error) -> String {
        (error as? SeatMapError).map { say($0) } ?? "\(error)"
    }
}
