import Dispatch
import Foundation
import SeatMapCore
import SeatMapService

/// The halls folder: a hall name is `NAME.json` in it, and nothing else.
/// Parsed plans are kept by the file's identity (a replaced file is read again).
struct HallFolder: Sendable {
    let folder: String
    let plans = PlanCache()
    /// The folder as an absolute path ending in `/` (made once: every request names a hall).
    private let base: String

    init(_ folder: String) {
        self.folder = folder
        let absolute = URL(fileURLWithPath: folder).path
        base = absolute.hasSuffix("/") ? absolute : absolute + "/"
    }

    func path(_ name: String) -> String { base + name + ".json" }

    /// The plan of hall `name`, or the 404 / 422 answer.
    func plan(_ name: String) -> Result<(plan: HallPlan, path: String), HTTPResponseError> {
        guard HallPlan.isName(name) else { return .failure(HTTPResponseError(.error(404, "no such hall: \(name)"))) }
        let path = self.path(name)
        guard FileManager.default.isReadableFile(atPath: path) else {
            return .failure(HTTPResponseError(.error(404, "no such hall: \(name) (no \(name).json in the halls folder)")))
        }
        do {
            let key = RenderCache.key(path: path, parts: [])
            if let key, let hall = plans.get(key) { return .success((HallPlan(name: name, hall: hall), path)) }
            let hall = try Files.readHall(path, regularOnly: true)
            if let key { plans.put(key, hall) }
            return .success((HallPlan(name: name, hall: hall), path))
        } catch {
            return .failure(HTTPResponseError(.error(422, clean(error.message))))
        }
    }

    /// Every hall name in the folder, sorted.
    func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(HallPlan.isName).sorted()
    }

    /// A message as a client sees it: hall files by name, not by the
    /// service's paths.
    func clean(_ message: String) -> String {
        let dir = URL(fileURLWithPath: folder).standardizedFileURL.path
        return message.replacingOccurrences(of: dir + "/", with: "").replacingOccurrences(of: folder + "/", with: "")
    }
}
