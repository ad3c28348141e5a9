import Foundation
import JSON

/// Where a new module's card id may already be in use, beyond the modules' own declarations: a squad that takes
/// an id the demo layouts, fixtures, tests or docs already use would change what those say about "an unknown
/// card" or "an event nobody publishes" the moment its card joins a screen.
extension Scaffold {
    /// Card ids kept for the platform: the demo layouts' unknown card (order 3333) uses `unregistered`, so no
    /// squad can ever register it and turn the demo's "skipped" card into a real one.
    static let reservedIDs: [String: String] = [
        "unregistered": "the demo screens' unknown card (a layout entry no squad registers)"
    ]

    /// The first place in the repository at `root` that uses `id` as a card id, an endpoint, an event namespace
    /// or a quoted example, or nil when it is free.
    static func idInUse(_ id: String, root: URL) -> String? {
        if let why = reservedIDs[id] { return "the card id '\(id)' is reserved for \(why)" }
        for (path, text) in repositoryTexts(root: root) {
            if path.contains("/Fixtures/") {
                let parts = path.split(separator: "/").map { $0.lowercased() }
                if parts.last == "\(id).json" {
                    return "the fixture \(path) (an endpoint of another card) exists"
                }
                if let folder = parts.dropLast().firstIndex(of: id) {
                    let shown = path.split(separator: "/")[...folder].joined(separator: "/")
                    return "the fixture folder \(shown)/ (a resource other cards read) exists"
                }
            }
            if path.hasSuffix(".json") {
                if layoutIDs(text).contains(id) { return "the layout \(path) already lists a card '\(id)'" }
                continue
            }
            // Docs quote an id in backticks or single quotes; code also as a string or an event's namespace (a
            // payload's keys are not ids, so JSON is read only as layouts).
            let marks = path.hasSuffix(".md") ? ["`\(id)`", "'\(id)'"] : ["\"\(id)\"", "\"\(id).", "'\(id)'"]
            for mark in marks {
                guard let found = text.range(of: mark) else { continue }
                let line = text[..<found.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
                return "\(path):\(line) already uses \(mark) (a card, event or example others rely on)"
            }
        }
        return nil
    }

    /// The ids a screen layout lists (strings or `{"id": …}` objects in `components`), or none for other JSON.
    private static func layoutIDs(_ text: String) -> Set<String> {
        guard case .object(let fields)? = try? JSONValue(parsing: Data(text.utf8)),
            case .array(let entries)? = fields["components"]
        else { return [] }
        return Set(
            entries.compactMap { entry in
                switch entry {
                case .string(let id): id.lowercased()
                case .object(let fields):
                    if case .string(let id)? = fields["id"] { id.lowercased() } else { nil }
                default: nil
                }
            })
    }

    /// Every Swift, JSON and Markdown file the platform and the squads keep (apps, modules, tests, top-level
    /// docs), as (path from the root, text); build folders and other dot folders are skipped.
    private static func repositoryTexts(root: URL) -> [(String, String)] {
        let files = FileManager.default
        var found: [(String, String)] = []
        for top in ((try? files.contentsOfDirectory(atPath: root.path)) ?? []).sorted() where !top.hasPrefix(".") {
            let url = root.appendingPathComponent(top)
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                if top.hasSuffix(".md"), let text = try? String(contentsOf: url, encoding: .utf8) {
                    found.append((top, text))
                }
                continue
            }
            guard ["Apps", "Modules", "Tests", "Scripts"].contains(top),
                let walker = files.enumerator(atPath: url.path)
            else { continue }
            while let next = walker.nextObject() as? String {
                if (next as NSString).lastPathComponent.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                guard [".swift", ".json", ".md"].contains(where: next.hasSuffix),
                    let text = try? String(contentsOf: url.appendingPathComponent(next), encoding: .utf8)
                else { continue }
                found.append(("\(top)/\(next)", text))
            }
        }
        return found
    }
}
