import Foundation
import SeatMapCore
import SeatMapService
import SeatMapInventory

/// How the CLI reaches a show: `--store DB --show SHOW [--token T]` beside
/// a hall file, opened through the service (the file's base name is the
/// hall's name, as in the HTTP service's halls folder).
enum ShowInput {
    static let options: [CommandSpec.Option] = [
        StoreOptions.store,
        .value("show", "SHOW", "With --store: the show whose statuses are drawn (its hall is FILE)."),
        .value("token", "T", "With --show: a buyer's hold token; its held seats are drawn selected, others' holds locked."),
    ]

    /// Opens the store `--store` names, telling the user its notes.
    static func service(_ args: Arguments, _ console: Console) throws -> ShowService {
        guard let path = args.value("store") else { throw UsageError(message: "missing --store DB") }
        guard let open = SeatMapCLI.serveSide?.openStore else { throw SeatMapCLI.needsServeSide("--store") }
        let store = try open(path, 1)
        for note in store.notes { console.err(note) }
        return ShowService(store: store)
    }

    /// A file's absolute path (recorded with a show the CLI creates).
    static func absolute(_ file: String) -> String {
        file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
    }

    /// The plan of a show: `--hall FILE` when given (checked to be the
    /// show's hall), else the file the CLI created the show from.
    static func plan(ofShow show: String, _ service: ShowService, _ args: Arguments) throws -> HallPlan {
        let inv = try service.inventory(show)
        if let file = args.value("hall") {
            let plan = try plan(file)
            guard plan.name == inv.hall else { throw ServiceError(.conflict, "show \(show) is of the hall \(inv.hall), not \(plan.name)") }
            return plan
        }
        guard let file = inv.hallFile, FileManager.default.fileExists(atPath: file) else {
            throw UsageError(message: "show \(show)'s hall \(inv.hall) is needed to check its rules: pass --hall \(inv.hall).json")
        }
        return try plan(file)
    }

    /// The plan in a hall file.
    static func plan(_ file: String) throws -> HallPlan {
        HallPlan(name: HallPlan.name(ofFile: file), hall: try Files.readHall(file))
    }

    /// The hall to draw or hit-test: the file's plan, or with `--show` the
    /// show's view of it for `--token`.
    static func hall(_ file: String, _ args: Arguments, console: Console = Console(out: { _ in }, err: { _ in })) throws -> ShowService.View {
        if args.value("token") != nil && args.value("show") == nil { throw UsageError(message: "--token goes with --show") }
        if (args.value("store") == nil) != (args.value("show") == nil) { throw UsageError(message: "--store and --show go together") }
        let plan = try plan(file)
        guard let show = args.value("show") else {
            return ShowService.View(hall: plan.hall, selected: [], statuses: [:], inventory: ShowInventory(show: "", hall: plan.name))
        }
        return try service(args, console).view(show: show, token: args.value("token"), plan: plan)
    }
}
