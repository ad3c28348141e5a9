import CodeOwnership

/// `squad lint` on CODEOWNERS: syntax, coverage, duplicates, shadowed rules and patterns matching nothing.
public struct CodeOwnersLint: Sendable {
    let owners: CodeOwners
    let path: String

    /// Lints `owners` (read from `path`) against the tracked files.
    public init(owners: CodeOwners, path: String) {
        self.owners = owners
        self.path = path
    }

    /// Every finding, as "FILE:LINE[:COLUMN]: message".
    public func findings(trackedFiles files: [String]) -> [String] {
        var findings = owners.issues.map { "\(path):\($0)" }
        var firstLine: [String: Int] = [:]
        for rule in owners.rules {
            if let first = firstLine[rule.pattern.text] {
                findings.append(
                    "\(path):\(rule.line): duplicate pattern '\(rule.pattern.text)' (first on line \(first))")
            } else {
                firstLine[rule.pattern.text] = rule.line
            }
        }
        var winners: [Int: Int] = [:]
        var matched: [Int: Int] = [:]
        for file in files {
            let lines = owners.rules.filter { $0.pattern.matches(file) }.map(\.line)
            for line in lines { matched[line, default: 0] += 1 }
            if let last = lines.last { winners[last, default: 0] += 1 }
            if lines.isEmpty { findings.append("\(file): no CODEOWNERS line owns this file") }
        }
        for rule in owners.rules {
            if matched[rule.line] == nil {
                findings.append("\(path):\(rule.line): pattern '\(rule.pattern.text)' matches no tracked file")
            } else if winners[rule.line] == nil {
                let later = owners.rules.last { $0.line > rule.line && files.contains(where: $0.pattern.matches) }
                findings.append(
                    "\(path):\(rule.line): rule '\(rule.pattern.text)' is shadowed by a later rule (line \(later?.line ?? 0)) for every file it matches"
                )
            }
        }
        return findings
    }
}
