import CodeOwnership
import SafeText

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
        var findings = (owners.issues + owners.notes).sorted { ($0.line, $0.column) < ($1.line, $1.column) }.map {
            "\(path):\(SafeText.visible($0.description))"
        }
        // Keyed by bytes: NFC and NFD spellings of a pattern match different files, so they are no duplicates.
        var firstLine: [[UInt8]: Int] = [:]
        for rule in owners.rules {
            if let first = firstLine[PathBytes.key(rule.pattern.text)] {
                findings.append(
                    "\(path):\(rule.line): duplicate pattern '\(SafeText.visible(rule.pattern.text))' (first on line \(first))"
                )
            } else {
                firstLine[PathBytes.key(rule.pattern.text)] = rule.line
            }
        }
        var wins: Set<Int> = []
        var matched: Set<Int> = []
        // For a rule that never wins: the later line that took a file from it (the first such file's).
        var overriddenBy: [Int: Int] = [:]
        for file in files {
            let lines = owners.matchingRules(of: file).map(\.line)
            guard let last = lines.last else {
                findings.append("\(PathBytes.quoted(file)): no CODEOWNERS line owns this file")
                continue
            }
            wins.insert(last)
            for line in lines {
                if matched.insert(line).inserted, line != last { overriddenBy[line] = last }
            }
        }
        for rule in owners.rules {
            if !matched.contains(rule.line) {
                findings.append(
                    "\(path):\(rule.line): pattern '\(SafeText.visible(rule.pattern.text))' matches no tracked file")
            } else if !wins.contains(rule.line) {
                findings.append(
                    "\(path):\(rule.line): rule '\(SafeText.visible(rule.pattern.text))' is shadowed by a later rule (line \(overriddenBy[rule.line] ?? 0)) for every file it matches"
                )
            }
        }
        return findings
    }

    /// Owners the gate could never match to a reviewer: a team or email owner that `teams.json` does not list,
    /// and a team listed with nobody in it. Plain `@user` owners are their own reviewer and need no entry.
    public static func teamFindings(_ owners: CodeOwners, teams: Teams, path: String) -> [String] {
        var findings: [String] = []
        var reported = Set<String>()
        for rule in owners.rules {
            for owner in rule.owners where !(owner.hasPrefix("@") && !owner.contains("/")) {
                guard reported.insert(owner.lowercased()).inserted else { continue }
                if teams.members[owner.lowercased()] == nil {
                    findings.append(
                        "\(path):\(rule.line): owner \(owner) is not in \(Teams.path); add its members so reviews can satisfy it"
                    )
                }
            }
        }
        for (owner, members) in teams.members.sorted(by: { $0.key < $1.key }) where members.isEmpty {
            findings.append("\(Teams.path): \(owner) has no members; nobody could approve for it")
        }
        return findings
    }
}
