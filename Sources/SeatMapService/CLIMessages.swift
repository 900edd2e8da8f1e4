import SeatMapCore

/// How the command line says the inputs a library error names: as its
/// flags (`{{zoom}}` → `--zoom`, `{{selected}}` → `--select`).
package enum CLIMessages {
    /// The flag of an input the library names.
    package static func flag(_ input: String) -> String {
        "--" + InputNames.option(input)
    }

    /// An error's message with its inputs said as flags.
    package static func say(_ error: SeatMapError) -> String { error.naming(flag).message }

    /// Any error's message, a library error's with its inputs said as flags.
    package static func say(_ error: any Error) -> String {
        (error as? SeatMapError).map { say($0) } ?? "\(error)"
    }
}
