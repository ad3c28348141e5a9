import Foundation

/// Domain events are declared by their publishers (`static let orderStatus: EventName = "order.status"` beside
/// the faces, listed in the component's `publishedEvents`); consumers and refreshers name them through those
/// declarations; an event a person sends through a host's prompt is declared by the card that takes it, in its
/// `inputEvents`. This finds a consumed or refreshing event that no module publishes: a typo or a retired event
/// fails lint instead of leaving a card silently deaf.
enum EventLint {
    private static let constant = try! NSRegularExpression(
        pattern: #"static\s+let\s+(\w+)\s*:\s*EventName\s*=\s*"([^"\\]*)""#)
    private static let list = try! NSRegularExpression(
        pattern: #"static\s+let\s+(published|input|consumed|refreshing)Events\s*:\s*Set<EventName>\s*=\s*\[([^\]]*)\]"#)

    /// One finding per consumed or refreshing event that no module publishes, naming its file.
    static func findings(sources: [(path: String, text: String)]) -> [String] {
        var constants: [String: String] = [:]
        for source in sources {
            for match in matches(constant, in: source.text) { constants[match[1]] = match[2] }
        }
        var published: Set<String> = []
        var heard: [(path: String, role: String, item: String, name: String?)] = []
        for source in sources {
            for match in matches(list, in: source.text) {
                for item in match[2].split(separator: ",").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
                where !item.isEmpty {
                    let name = resolve(item, constants)
                    if match[1] == "published" || match[1] == "input" {
                        if let name { published.insert(name) }
                    } else {
                        heard.append((source.path, match[1] == "consumed" ? "consumes" : "refreshes on", item, name))
                    }
                }
            }
        }
        return heard.compactMap { entry in
            if let name = entry.name, published.contains(name) { return nil }
            let what =
                entry.name.map { "event '\($0)', which no module publishes" }
                ?? "'\(entry.item)', which no module declares as an EventName"
            return "\(entry.path): \(entry.role) \(what); name it through its publisher's declaration "
                + "(an EventName constant listed in the publisher's publishedEvents)"
        }
    }

    /// `.orderStatus` through the declarations, `"order.status"` as written; nil for anything else.
    private static func resolve(_ item: String, _ constants: [String: String]) -> String? {
        if item.hasPrefix("\""), item.hasSuffix("\""), item.count >= 2 { return String(item.dropFirst().dropLast()) }
        let member = item.hasPrefix("EventName.") ? String(item.dropFirst(10)) : String(item.drop { $0 == "." })
        return constants[member]
    }

    private static func matches(_ expression: NSRegularExpression, in text: String) -> [[String]] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
