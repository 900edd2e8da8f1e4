import Foundation
import SeatMapCLI
import SeatMapServeCLI
import SeatMapCore
import SeatMapTestSupport

/// Runs `seatmap ARGS` in-process and returns (exit code, stdout, stderr).
public func seatmap(_ args: String...) -> (code: Int32, out: String, err: String) {
    seatmap(args)
}

/// Runs `seatmap ARGS` in-process and returns (exit code, stdout, stderr).
public func seatmap(_ args: [String]) -> (code: Int32, out: String, err: String) {
    let captured = CapturedConsole()
    // The whole command line, stores and `serve` included (as seatmap-serve runs it).
    ServeCLI.install()
    let code = SeatMapCLI.run(args, console: captured.console)
    return (code, captured.stdout, captured.stderr)
}

/// Parses CLI JSON output with the project's own parser.
public func parseJSON(_ text: String) throws -> JSONNode {
    try JSONParser.parse(Array(text.utf8))
}

/// Members of parsed JSON answers as Swift values.
public enum TestJSON {
    /// A string member's value, or nil.
    public static func string(_ node: JSONNode?) -> String? {
        if case .string(let s)? = node?.value { return s }
        return nil
    }

    /// An array member's strings (other items left out).
    public static func strings(_ node: JSONNode?) -> [String] {
        guard case .array(let items)? = node?.value else { return [] }
        return items.compactMap { if case .string(let s) = $0.value { return s } else { return nil } }
    }
}

/// Halls the service and store tests make.
public enum TestHalls {
    /// One row of 20 seats, at most 20 selected; its path in `dir`.
    public static func wideRow(_ dir: URL, name: String = "wide") throws -> String {
        let seats = (1...20).map { #"{"column":\#($0),"status":0}"# }.joined(separator: ",")
        return try Fixtures.write(#"{"maxSelectCount":20,"rows":[{"row":1,"price":10,"seats":[\#(seats)]}]}"#, to: "\(name).json", in: dir)
    }
}
