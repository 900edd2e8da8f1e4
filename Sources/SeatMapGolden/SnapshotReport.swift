import Foundation
import SeatMapCore

/// One image of a snapshot review: an old and a new PNG of the same name,
/// or a file found on one side only.
public struct ImageComparison: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Within the gates (`result` may still count a few pixels).
        case unchanged(PixelMatch.Result)
        /// Outside the gates; why, gate by gate.
        case changed(PixelMatch.Result, failures: [String])
        /// The two are not the same size: not compared pixel by pixel.
        case resized(old: String, new: String)
        /// Only in the new folder.
        case added
        /// Only in the old folder.
        case removed
    }

    /// The file's path below its folder, with `/`.
    public var name: String
    public var outcome: Outcome
    /// PNG bytes as found (nil on the side without the file).
    public var old: [UInt8]?
    public var new: [UInt8]?
    /// The diff image (pixelmatch's: unchanged faded grey, differing red), for a changed pair.
    public var diff: [UInt8]?

    public init(name: String, outcome: Outcome, old: [UInt8]?, new: [UInt8]?, diff: [UInt8]? = nil) {
        self.name = name
        self.outcome = outcome
        self.old = old
        self.new = new
        self.diff = diff
    }

    /// Whether both sides have it and they differ: outside the gates, or resized.
    public var isChanged: Bool {
        switch outcome {
        case .changed, .resized: return true
        case .unchanged, .added, .removed: return false
        }
    }

    /// Whether it fails a review: changed, resized, added or removed.
    public var fails: Bool {
        if case .unchanged = outcome { return false }
        return true
    }

    /// An old and a new image compared with the gates; `oldBytes` and
    /// `newBytes` are kept for the report.
    public static func compare(name: String, old: RGBAImage, new: RGBAImage, oldBytes: [UInt8], newBytes: [UInt8],
                               options: PixelMatch.Options = PixelMatch.Options(), gates: DiffGates = DiffGates()) throws(GoldenError) -> ImageComparison {
        guard old.width == new.width, old.height == new.height else {
            return ImageComparison(name: name, outcome: .resized(old: "\(old.width)×\(old.height)", new: "\(new.width)×\(new.height)"),
                                   old: oldBytes, new: newBytes)
        }
        let (result, diff) = try PixelMatch.compare(old, new, options: options, diff: true)
        let failures = gates.failures(result)
        if failures.isEmpty { return ImageComparison(name: name, outcome: .unchanged(result), old: oldBytes, new: newBytes) }
        var diffBytes: [UInt8]? = nil
        if let diff { diffBytes = try diff.pngData() }
        return ImageComparison(name: name, outcome: .changed(result, failures: failures.map(\.message)), old: oldBytes, new: newBytes,
                               diff: diffBytes)
    }
}

/// Snapshot review: every PNG of two folders compared by name, and one
/// self-contained HTML page to look at the result (`seatmap diff OLD_DIR
/// NEW_DIR --report`, and a failing snapshot's report for its pair).
public enum SnapshotReport {
    /// The `.png` files below `folder` (subfolders included, symbolic links
    /// not followed), as sorted paths relative to it.
    public static func pngFiles(in folder: String) throws(GoldenError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GoldenError("\(folder): not a folder")
        }
        guard let walk = FileManager.default.enumerator(at: URL(fileURLWithPath: folder), includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [], errorHandler: nil) else {
            throw GoldenError("\(folder): cannot read the folder")
        }
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path
        var names: [String] = []
        for case let url as URL in walk {
            guard url.pathExtension.lowercased() == "png",
                  (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            names.append(String(path.dropFirst(base.count + 1)))
        }
        return names.sorted()
    }

    /// Every PNG of `oldFolder` and `newFolder` by name: pairs compared with
    /// the gates, then files on one side only. An unreadable PNG is an error
    /// naming it.
    public static func compareFolders(old oldFolder: String, new newFolder: String, options: PixelMatch.Options = PixelMatch.Options(),
                                      gates: DiffGates = DiffGates()) throws(GoldenError) -> [ImageComparison] {
        let oldNames = try pngFiles(in: oldFolder), newNames = try pngFiles(in: newFolder)
        let newSet = Set(newNames), oldSet = Set(oldNames)
        func read(_ folder: String, _ name: String) throws(GoldenError) -> ([UInt8], RGBAImage) {
            let path = (folder as NSString).appendingPathComponent(name)
            let bytes: [UInt8]
            do {
                bytes = try Files.read(path, regularOnly: true).bytes
            } catch {
                throw GoldenError(error.message)
            }
            do {
                return (bytes, try RGBAImage(png: bytes))
            } catch {
                throw GoldenError("\(path): \(error.message)")
            }
        }
        var out: [ImageComparison] = []
        for name in oldNames where newSet.contains(name) {
            let (oldBytes, old) = try read(oldFolder, name), (newBytes, new) = try read(newFolder, name)
            out.append(try ImageComparison.compare(name: name, old: old, new: new, oldBytes: oldBytes, newBytes: newBytes,
                                                   options: options, gates: gates))
        }
        for name in newNames where !oldSet.contains(name) {
            out.append(ImageComparison(name: name, outcome: .added, old: nil, new: try read(newFolder, name).0))
        }
        for name in oldNames where !newSet.contains(name) {
            out.append(ImageComparison(name: name, outcome: .removed, old: try read(oldFolder, name).0, new: nil))
        }
        return out
    }

    /// One line a file: `changed NAME: …`, `unchanged NAME`, `added NAME`, `removed NAME`.
    public static func summary(_ c: ImageComparison) -> String {
        switch c.outcome {
        case .unchanged(let r): return "unchanged \(c.name)" + (r.diffPixels == 0 ? "" : " (\(GoldenFile.summary(r)), within the gates)")
        case .changed(let r, let failures): return "changed \(c.name): \(GoldenFile.summary(r)); \(failures.joined(separator: ", "))"
        case .resized(let old, let new): return "changed \(c.name): size \(old) → \(new)"
        case .added: return "added \(c.name)"
        case .removed: return "removed \(c.name)"
        }
    }

    /// The review page: the changed images first, each with old, new, the
    /// diff and a slider between old and new; then the unchanged ones by
    /// name; then the files found on one side only.
    public static func html(title: String, oldLabel: String, newLabel: String, _ items: [ImageComparison]) -> String {
        let changed = items.filter(\.isChanged)
        let unchanged = items.filter { !$0.fails }
        let added = items.filter { $0.outcome == .added }, removed = items.filter { $0.outcome == .removed }
        func png(_ bytes: [UInt8]?) -> String { "data:image/png;base64," + Data(bytes ?? []).base64EncodedString() }
        let e = HTMLPage.escape
        var body = "<h1>\(e(title))</h1>\n"
        body += "<p>Old: <code>\(e(oldLabel))</code>. New: <code>\(e(newLabel))</code>.</p>\n"
        let failing = changed.count + added.count + removed.count
        body += failing == 0
            ? "<p class=\"pass\">No image changed: \(unchanged.count) the same within the gates.</p>\n"
            : "<p class=\"fail\">\(changed.count) changed, \(added.count) added, \(removed.count) removed; \(unchanged.count) unchanged.</p>\n"
        body += "<nav aria-label=\"Contents\"><ul>"
        for (label, list, anchor) in [("Changed", changed, "changed"), ("Unchanged", unchanged, "unchanged"),
                                      ("Added", added, "added"), ("Removed", removed, "removed")] where !list.isEmpty {
            body += "<li><a href=\"#\(anchor)\">\(label) (\(list.count))</a></li>"
        }
        body += "</ul></nav>\n"
        if !changed.isEmpty {
            body += "<h2 id=\"changed\">Changed</h2>\n"
            for (i, c) in changed.enumerated() {
                body += "<section class=\"image\" aria-labelledby=\"c\(i)\"><h3 id=\"c\(i)\">\(e(c.name))</h3>\n"
                switch c.outcome {
                case .changed(let r, let failures):
                    body += "<p>\(e(GoldenFile.summary(r))). Fails: \(e(failures.joined(separator: ", "))).</p>\n"
                    body += "<div class=\"swipe\"><div class=\"swipe-box\"><img src=\"\(png(c.old))\" alt=\"Old \(e(c.name))\">"
                        + "<img class=\"top\" id=\"new\(i)\" src=\"\(png(c.new))\" alt=\"New \(e(c.name))\"></div>\n"
                        + "<label>Old <input type=\"range\" class=\"slider\" min=\"0\" max=\"100\" value=\"50\" aria-controls=\"new\(i)\"> new "
                        + "<span class=\"hint\">(old on the left of the line, new on the right)</span></label></div>\n"
                    body += "<div class=\"trio\"><figure><img src=\"\(png(c.old))\" alt=\"Old \(e(c.name))\"><figcaption>Old</figcaption></figure>"
                        + "<figure><img src=\"\(png(c.new))\" alt=\"New \(e(c.name))\"><figcaption>New</figcaption></figure>"
                        + "<figure><img src=\"\(png(c.diff))\" alt=\"Differences in \(e(c.name)): red where the pixels differ\">"
                        + "<figcaption>Differences (red; yellow: anti-aliasing)</figcaption></figure></div>\n"
                case .resized(let old, let new):
                    body += "<p>The size changed from \(old) to \(new): not compared pixel by pixel.</p>\n"
                    body += "<div class=\"trio\"><figure><img src=\"\(png(c.old))\" alt=\"Old \(e(c.name))\"><figcaption>Old (\(old))</figcaption></figure>"
                        + "<figure><img src=\"\(png(c.new))\" alt=\"New \(e(c.name))\"><figcaption>New (\(new))</figcaption></figure></div>\n"
                default: break
                }
                body += "</section>\n"
            }
        }
        if !unchanged.isEmpty {
            body += "<h2 id=\"unchanged\">Unchanged</h2>\n<ul class=\"names\">"
            for c in unchanged {
                var note = ""
                if case .unchanged(let r) = c.outcome, r.diffPixels > 0 { note = " (\(GoldenFile.summary(r)), within the gates)" }
                body += "<li><code>\(e(c.name))</code>\(e(note))</li>"
            }
            body += "</ul>\n"
        }
        for (label, list, anchor, side) in [("Added (only in the new folder)", added, "added", true), ("Removed (only in the old folder)", removed, "removed", false)]
            where !list.isEmpty {
            body += "<h2 id=\"\(anchor)\">\(label)</h2>\n<div class=\"trio\">"
            for c in list {
                body += "<figure><img src=\"\(png(side ? c.new : c.old))\" alt=\"\(side ? "Added" : "Removed") \(e(c.name))\"><figcaption><code>\(e(c.name))</code></figcaption></figure>"
            }
            body += "</div>\n"
        }
        return HTMLPage.document(title: title, style: """
            .image{border-top:1px solid #ccc;padding-top:4px}h3{font-size:1em;margin:.6em 0 .2em}
            .trio{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
            figure{margin:0}figure img{display:block;max-width:min(100%,520px);border:1px solid #999;background:#fff}
            figcaption{font-size:.9em;color:#444}
            .swipe{margin:6px 0 12px}.swipe-box{position:relative;display:inline-block;max-width:100%;border:1px solid #999}
            .swipe-box img{display:block;max-width:100%}.swipe-box img.top{position:absolute;left:0;top:0;width:100%;height:100%}
            .swipe label{display:block;margin-top:4px}.hint{color:#555;font-size:.9em}
            .names{columns:3 260px}nav ul{display:flex;gap:16px;list-style:none;padding:0}
            """, script: """
            for (const slider of document.querySelectorAll('input.slider')) {
              const top = document.getElementById(slider.getAttribute('aria-controls'));
              const show = () => { top.style.clipPath = 'inset(0 0 0 ' + slider.value + '%)'; };
              slider.addEventListener('input', show);
              show();
            }
            """, body: body)
    }
}
