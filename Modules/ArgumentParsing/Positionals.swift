import SafeText

/// The words a command takes besides its options, declared once: how many, and how its synopsis names them. The
/// count is checked before the command runs, with one wording for every command.
public struct Positionals: Sendable {
    /// How the synopsis shows them: "ORDER-ID", "[ORDER-ID]", "PATH... | -", or "" for none.
    public let synopsis: String
    let name: String
    let counts: ClosedRange<Int>

    /// None at all.
    public static let none = Positionals(synopsis: "", name: "", counts: 0...0)

    /// Exactly one.
    public static func one(_ name: String) -> Positionals { Positionals(synopsis: name, name: name, counts: 1...1) }

    /// None or one.
    public static func optional(_ name: String) -> Positionals {
        Positionals(synopsis: "[\(name)]", name: name, counts: 0...1)
    }

    /// Any number from `least` (`synopsis` for how they read, default "NAME...").
    public static func many(_ name: String, atLeast least: Int = 1, synopsis: String? = nil) -> Positionals {
        Positionals(synopsis: synopsis ?? "\(name)...", name: name, counts: least...Int.max)
    }

    /// Refuses a count outside the declaration: "cancel needs one ORDER-ID, got 2: 1 2" (`command` nil: a tool's
    /// default command, whose name was not typed: "expected at most one ORDER-ID, got 2: 1 2").
    func check(_ words: [String], command: String?) throws(UsageError) {
        guard !counts.contains(words.count) else { return }
        let given = words.isEmpty ? "" : ", got \(words.count): " + SafeText.visible(words.joined(separator: " "))
        let expected: String
        switch counts.upperBound {
        case 0: expected = "no arguments"
        case 1 where counts.lowerBound == 0: expected = "at most one \(name)"
        case 1: expected = "one \(name)"
        default: expected = "at least \(counts.lowerBound) \(name)"
        }
        let verb = counts.upperBound == 0 ? "takes" : "needs"
        throw UsageError(message: (command.map { "\($0) \(verb) " } ?? "expected ") + expected + given)
    }
}
