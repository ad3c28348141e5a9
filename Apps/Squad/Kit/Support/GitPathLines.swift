import CodeOwnership

/// Paths one a line, read the way git writes them: split on the "\n" byte (a "\r" before it dropped; never
/// trimmed, since a name may start or end with a space), and a line that starts with `"` unquoted, because
/// `git ls-files` and `git diff --name-only` print every name holding a byte outside printable ASCII quoted
/// (`"docs/caf\303\251.md"`), and read as it stands such a line is another file with other owners.
enum GitPathLines {
    /// The path a line starting with `"` names; an error, naming the line, when git would not have written it.
    static func unquote(_ line: some Collection<UInt8>, number: Int, source: String, hint: String) throws -> [UInt8] {
        guard let path = PathBytes.unquoted(line) else {
            throw ShellError(
                message:
                    "\(source) line \(number) starts with '\"' but is not a name quoted as git quotes them; \(hint)")
        }
        return path
    }

    /// Every path in `text`, in order, empty lines skipped.
    static func split(_ text: [UInt8], source: String, hint: String) throws -> [[UInt8]] {
        var paths: [[UInt8]] = []
        for (index, whole) in text.split(separator: newline, omittingEmptySubsequences: false).enumerated() {
            let line = whole.last == carriageReturn ? whole.dropLast() : whole
            if line.isEmpty { continue }
            paths.append(
                line.first == quote
                    ? try unquote(line, number: index + 1, source: source, hint: hint) : Array(line))
        }
        return paths
    }

    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let quote = UInt8(ascii: "\"")
}
