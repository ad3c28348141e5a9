import InputRules
import SafeText

/// A problem with the command line: the message says what was wrong and what to type instead.
public struct UsageError: Error, Equatable, Sendable {
    /// The message, without the program name.
    public let message: String
    /// The command whose help to point at, when one was chosen ("cancel": see `TOOL cancel --help`).
    public var command: String?

    /// Creates a usage error.
    public init(message: String, command: String? = nil) { (self.message, self.command) = (message, command) }

    /// The one line a tool prints: "squad: unknown option '--nope' (see 'squad gate --help')".
    public func line(tool: String) -> String {
        "\(tool): \(SafeText.visible(message)) (see '\(tool) \(command.map { $0 + " " } ?? "")--help')"
    }
}

/// "; did you mean '--format'?" when a known word is within two edits, else "".
public func suggestion(for word: String, among candidates: [String]) -> String {
    let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
    return scored.map { "; did you mean '\($0.0)'?" } ?? ""
}

/// Levenshtein distance, for did-you-mean.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}

/// Ids from the command line, held to InputRules' one rule for an id (``InputID``): anything else could reach a
/// path. The refusal gives the id's one piece of advice and echoes the value cut.
public func validateID(_ id: String, kind: String) throws(UsageError) -> String {
    guard InputID.accepts(id) else {
        throw UsageError(message: "invalid \(kind) id \(InputEcho.quoted(id)): \(InputID.advice)")
    }
    return id
}
