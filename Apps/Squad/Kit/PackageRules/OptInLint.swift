import Foundation

/// A component's opt-ins are protocols (`SelfRefreshing`, `Validatable`, …) that the runtime finds by a cast, so
/// a type that writes `refreshInterval(for:)` but forgets to declare `SelfRefreshing` compiles and is never asked.
/// This reads each module's sources and warns for every component type that implements an opt-in's requirement
/// (in its body or an extension) without declaring the protocol anywhere.
enum OptInLint {
    /// Each opt-in and what implementing it looks like in source.
    static let requirements: [(protocol: String, signature: String, shown: String)] = [
        ("Validatable", #"func\s+validate\s*\(\s*_"#, "validate(_:info:)"),
        ("EventPublishing", #"func\s+events\s*\(\s*for\b"#, "events(for:)"),
        ("EventPublishing", #"static\s+(let|var)\s+publishedEvents\b"#, "publishedEvents"),
        ("SelfRefreshing", #"func\s+refreshInterval\s*\(\s*for\b"#, "refreshInterval(for:)"),
        ("Finishing", #"func\s+isFinished\s*\(\s*_"#, "isFinished(_:)"),
        ("RefreshingOnEvents", #"static\s+(let|var)\s+refreshingEvents\b"#, "refreshingEvents"),
        ("Tracking", #"func\s+analytics\s*\(\s*for\b"#, "analytics(for:)"),
        ("EventConsuming", #"func\s+consume\s*\(\s*_"#, "consume(_:into:)"),
        ("EventConsuming", #"static\s+(let|var)\s+consumedEvents\b"#, "consumedEvents"),
    ]

    private static let declaration = try! NSRegularExpression(
        pattern: #"(?:struct|class|enum|actor|extension)\s+(\w+)\s*(?::\s*([^{]*))?\{"#)

    /// One warning per (type, opt-in) implemented but not declared, naming the file of the implementation.
    static func warnings(sources: [(path: String, text: String)]) -> [String] {
        var conformances: [String: Set<String>] = [:]
        var bodies: [(type: String, path: String, body: String)] = []
        for source in sources {
            let text = source.text
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let name = Range(match.range(at: 1), in: text).map({ String(text[$0]) }),
                    let open = Range(match.range, in: text)?.upperBound
                else { continue }
                let list = Range(match.range(at: 2), in: text).map { String(text[$0]) } ?? ""
                let declared = list.split(separator: ",").map {
                    $0.split(separator: " ").first.map(String.init) ?? ""
                }
                conformances[name, default: []].formUnion(declared.map { $0.trimmingCharacters(in: .whitespaces) })
                bodies.append((name, source.path, body(of: text, from: open)))
            }
        }
        let components = Set(conformances.filter { $0.value.contains("Component") || isOptIn($0.value) }.keys)
        var warned: Set<String> = []
        var warnings: [String] = []
        for entry in bodies where components.contains(entry.type) {
            for requirement in requirements where !(conformances[entry.type] ?? []).contains(requirement.protocol) {
                let key = entry.type + "/" + requirement.protocol
                guard !warned.contains(key),
                    entry.body.range(of: requirement.signature, options: .regularExpression) != nil
                else { continue }
                warned.insert(key)
                warnings.append(
                    "\(entry.path): \(entry.type) implements \(requirement.shown) but does not declare "
                        + "\(requirement.protocol), so no screen will ever use it; add \(requirement.protocol) to its "
                        + "conformances")
            }
        }
        return warnings
    }

    private static func isOptIn(_ declared: Set<String>) -> Bool {
        !declared.isDisjoint(with: requirements.map(\.protocol))
    }

    /// The text of the braces opened just before `start`, up to their matching close (strings and comments are
    /// not told apart: a brace in a string only makes the body longer or shorter, never a false declaration).
    private static func body(of text: String, from start: String.Index) -> String {
        var depth = 1
        var index = start
        while index < text.endIndex, depth > 0 {
            switch text[index] {
            case "{": depth += 1
            case "}": depth -= 1
            default: break
            }
            index = text.index(after: index)
        }
        return String(text[start..<index])
    }
}
