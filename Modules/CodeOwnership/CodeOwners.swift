import Foundation

/// A parsed CODEOWNERS file: rules in file order, plus every line that was refused (and skipped, as GitHub does).
public struct CodeOwners: Sendable {
    /// One valid line.
    public struct Rule: Sendable, Equatable {
        /// 1-based line number.
        public let line: Int
        /// The compiled pattern.
        public let pattern: CodeOwnersPattern
        /// The owners; empty means "explicitly unowned".
        public let owners: [String]
    }

    /// A refused line, with where and why.
    public struct Issue: Error, Sendable, Equatable, CustomStringConvertible {
        /// 1-based line.
        public let line: Int
        /// 1-based column.
        public let column: Int
        /// What is wrong.
        public let message: String
        /// "12:5: message".
        public var description: String { "\(line):\(column): \(message)" }

        /// Describes a refused line.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }
    }

    /// Who owns a path, and which line said so.
    public struct Ownership: Sendable, Equatable {
        /// Owners of the last matching line (empty: nobody).
        public let owners: [String]
        /// The last matching line, nil when no line matched at all.
        public let line: Int?

        /// Describes an ownership.
        public init(owners: [String], line: Int?) {
            self.owners = owners
            self.line = line
        }
    }

    /// Valid rules in file order.
    public let rules: [Rule]
    /// Refused lines.
    public let issues: [Issue]
    /// Which rules a path could match, so a lookup tries a handful instead of every line.
    private let index: CodeOwnersIndex

    /// Where GitHub looks, in order; the first that exists is used.
    public static let searchPaths = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]

    /// Parses CODEOWNERS text.
    public init(text: String) {
        var rules: [Rule] = []
        var issues: [Issue] = []
        // Split on any newline: in Swift "\r\n" is one Character, so splitting on "\n" alone would read a
        // Windows-edited CODEOWNERS as a single line.
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            switch CodeOwners.parse(line: String(line), number: number + 1) {
            case .success(let rule?): rules.append(rule)
            case .success(nil): break
            case .failure(let issue): issues.append(issue)
            }
        }
        self.rules = rules
        self.issues = issues
        index = CodeOwnersIndex(rules.map(\.pattern))
    }

    /// The file GitHub would use below `root`, or nil.
    public static func locate(in root: URL) -> URL? {
        searchPaths.map { root.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The ownership of `path`: the last matching line wins; earlier owners are not merged.
    public func ownership(of path: String) -> Ownership {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !segments.isEmpty else { return Ownership(owners: [], line: nil) }
        let scalars = segments.map { Array($0.unicodeScalars) }
        for candidate in index.candidates(segments) where rules[candidate].pattern.matches(segments: scalars) {
            return Ownership(owners: rules[candidate].owners, line: rules[candidate].line)
        }
        return Ownership(owners: [], line: nil)
    }

    /// Every rule that matches `path`, in file order (the last one owns it; the others are overridden for it).
    public func matchingRules(of path: String) -> [Rule] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !segments.isEmpty else { return [] }
        let scalars = segments.map { Array($0.unicodeScalars) }
        return index.candidates(segments).reversed().filter { rules[$0].pattern.matches(segments: scalars) }.map {
            rules[$0]
        }
    }

    /// "./a//b" → "a/b"; paths are compared as GitHub sees them (relative, case-sensitive).
    public static func normalize(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }.joined(separator: "/")
    }

    static func parse(line: String, number: Int) -> Result<Rule?, Issue> {
        var tokens: [(text: String, column: Int)] = []
        var current = ""
        var start = 0
        var column = 0
        var escaped = false
        for character in line {
            column += 1
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                if current.isEmpty { start = column }
                current.append(character)
                escaped = true
                continue
            }
            if character == " " || character == "\t" {
                if !current.isEmpty { tokens.append((current, start)) }
                current = ""
                continue
            }
            if character == "#" && current.isEmpty { break }
            if current.isEmpty { start = column }
            current.append(character)
        }
        if !current.isEmpty { tokens.append((current, start)) }
        guard let first = tokens.first else { return .success(nil) }
        let pattern: CodeOwnersPattern
        do { pattern = try CodeOwnersPattern(first.text) } catch {
            return .failure(Issue(line: number, column: first.column + error.offset, message: error.message))
        }
        for owner in tokens.dropFirst() where !isValidOwner(owner.text) {
            return .failure(
                Issue(
                    line: number, column: owner.column,
                    message: "'\(owner.text)' is not an owner (use @user, @org/team or an email)"))
        }
        return .success(Rule(line: number, pattern: pattern, owners: tokens.dropFirst().map(\.text)))
    }

    /// `@user`, `@org/team`, or `name@example.com`.
    public static func isValidOwner(_ owner: String) -> Bool {
        let name = { (text: Substring) in
            !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        }
        if owner.hasPrefix("@") {
            let parts = owner.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            return (1...2).contains(parts.count) && parts.allSatisfy(name)
        }
        let parts = owner.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && name(parts[0]) && parts[1].contains(".") && name(parts[1])
    }
}
