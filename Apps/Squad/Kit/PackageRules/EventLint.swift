import Foundation

/// Domain events are declared by their publishers with the type they carry
/// (`static let orderStatus = EventName<OrderStatus>("order.status")` in the squad's interface target,
/// `Modules/Order/Interface/`, listed in the component's `publishedEvents`); consumers and refreshers name them through those declarations; an event a person sends
/// through a host's prompt is declared by the card that takes it, in its `inputEvents`. This finds a consumed or
/// refreshing event that no module publishes (a typo or a retired event fails lint instead of leaving a card
/// silently deaf), and warns on a published event no module consumes or refreshes on (a new card's `tip.chosen`
/// that never reaches the total is said, not silent; a warning, since a publisher may land before its consumer).
/// A declaration anywhere but a squad's interface folder is a finding: a platform module that declared a squad's
/// event made the squad's every new event a platform review (the retired Faces module did).
enum EventLint {
    private static let constant = try! NSRegularExpression(
        pattern: #"static\s+let\s+(\w+)\s*=\s*EventName<[^>]*>\(\s*"([^"\\]*)"\s*\)"#)
    private static let list = try! NSRegularExpression(
        pattern: #"static\s+let\s+(published|input|consumed|refreshing)Events\s*:\s*Set<AnyEventName>\s*=\s*"#
            + #"\[([^\]]*)\]"#)

    /// What the rule says: a finding per consumed or refreshing event no module publishes, a warning per
    /// published event no module hears; each names its file.
    static func check(sources: [(path: String, text: String)]) -> (findings: [String], warnings: [String]) {
        var constants: [String: String] = [:]
        var misplaced: [String] = []
        for source in sources {
            for match in matches(constant, in: source.text) {
                constants[match[1]] = match[2]
                if !isInterface(source.path) && !isComment(match[0], in: source.text) {
                    misplaced.append(
                        "\(source.path): declares event '\(match[2])' outside a squad's interface; move it to "
                            + "Modules/<Squad>/Interface/ (the <Squad>Interface target its consumers import)")
                }
            }
        }
        var published: Set<String> = []
        var heardNames: Set<String> = []
        var announced: [(path: String, item: String, name: String)] = []
        var heard: [(path: String, role: String, item: String, name: String?)] = []
        for source in sources {
            for match in matches(list, in: source.text) {
                for item in match[2].split(separator: ",").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
                where !item.isEmpty {
                    let name = resolve(item, constants)
                    if match[1] == "published" || match[1] == "input" {
                        if let name { published.insert(name) }
                        if let name, match[1] == "published" { announced.append((source.path, item, name)) }
                    } else {
                        if let name { heardNames.insert(name) }
                        heard.append((source.path, match[1] == "consumed" ? "consumes" : "refreshes on", item, name))
                    }
                }
            }
        }
        let findings: [String] = heard.compactMap { entry in
            if let name = entry.name, published.contains(name) { return nil }
            let what =
                entry.name.map { "event '\($0)', which no module publishes" }
                ?? "'\(entry.item)', which no module declares as an EventName"
            return "\(entry.path): \(entry.role) \(what); name it through its publisher's declaration "
                + "(an EventName constant listed in the publisher's publishedEvents)"
        }
        let warnings = announced.filter { !heardNames.contains($0.name) }.map { entry in
            "\(entry.path): publishes event '\(entry.name)', which no module consumes or refreshes on; "
                + "list it in the consumer's consumedEvents or refreshingEvents, or stop publishing it"
        }
        return (misplaced + findings, warnings)
    }

    /// Whether the line holding `text` is a comment (a doc's example declaration, as Core's `EventName` has).
    private static func isComment(_ text: String, in source: String) -> Bool {
        guard let range = source.range(of: text) else { return false }
        let line = source[..<range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        return line.contains("//")
    }

    /// Whether `path` is in a squad's interface folder, `Modules/<Name>/Interface/…`.
    static func isInterface(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 4 && parts[0] == "Modules" && parts[2] == "Interface"
    }

    /// `.orderStatus` (or `AnyEventName.orderStatus`) through the declarations, `EventName<T>("order.status")`
    /// as written; nil for anything else.
    private static func resolve(_ item: String, _ constants: [String: String]) -> String? {
        if item.hasPrefix("EventName<"), let open = item.firstIndex(of: "\""), item.hasSuffix("\")") {
            let name = item[item.index(after: open)..<item.index(item.endIndex, offsetBy: -2)]
            return name.contains("\"") ? nil : String(name)
        }
        let member = item.hasPrefix("AnyEventName.") ? String(item.dropFirst(13)) : String(item.drop { $0 == "." })
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
