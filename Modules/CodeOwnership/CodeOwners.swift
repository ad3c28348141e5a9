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
    /// Lines kept as GitHub reads them that hold something easy to misread (a byte-order mark, a form feed).
    public let notes: [Issue]
    /// Which rules a path could match, so a lookup tries a handful instead of every line. Held by reference:
    /// a lookup then borrows it with one reference count, not one per array inside it.
    private let lookup: Lookup

    private final class Lookup: Sendable {
        let index: CodeOwnersIndex
        init(_ index: CodeOwnersIndex) { self.index = index }
    }

    /// GitHub does not load a CODEOWNERS file of 3 MB or more ("CODEOWNERS files must be under 3 MB"): past it,
    /// nothing in the file is enforced. Counted in bytes, and as decimal megabytes, so the check errs strict.
    public static let githubSizeLimit = 3_000_000

    /// The reason GitHub ignores a CODEOWNERS file of `bytes` bytes at `path`, or nil when it is small enough.
    public static func ignoredBySize(_ bytes: Int, path: String) -> String? {
        guard bytes >= githubSizeLimit else { return nil }
        return "\(path) is \(bytes) bytes; GitHub ignores a CODEOWNERS file of 3 MB or more, so none of its rules apply"
    }

    /// Where GitHub looks, in order; the first that exists is used.
    public static let searchPaths = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]

    /// Parses CODEOWNERS text. Lines end at "\n" only (a "\r" before it is dropped), as git and GitHub read
    /// them: form feed, vertical tab, NEL and U+2028/2029 are characters inside a line, not line breaks.
    public init(text: String) {
        var rules: [Rule] = []
        var issues: [Issue] = []
        var notes: [Issue] = []
        var body = Substring(text)
        if body.unicodeScalars.first == "\u{FEFF}" {
            body = Substring(body.unicodeScalars.dropFirst())
            notes.append(
                Issue(
                    line: 1, column: 1,
                    message: "the file starts with a UTF-8 byte-order mark, which GitHub may read as part of the "
                        + "first pattern; save the file without it"))
        }
        for (number, bytes) in body.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = String(Substring(bytes.last == 0x0D ? bytes.dropLast() : bytes))
            if let control = line.unicodeScalars.firstIndex(where: CodeOwners.isUnusualControl) {
                let scalar = line.unicodeScalars[control]
                let hex = String(scalar.value, radix: 16, uppercase: true)
                notes.append(
                    Issue(
                        line: number + 1,
                        column: line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: control) + 1,
                        message: "U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) is read as part of "
                            + "the line, not as a line break or a space; remove it unless a path really holds it"))
            }
            switch CodeOwners.parse(line: line, number: number + 1) {
            case .success(let rule?): rules.append(rule)
            case .success(nil): break
            case .failure(let issue): issues.append(issue)
            }
        }
        self.rules = rules
        self.issues = issues
        self.notes = notes
        lookup = Lookup(CodeOwnersIndex(rules.map(\.pattern)))
    }

    /// Control and separator characters that editors may show as line breaks or spaces but CODEOWNERS does not.
    static func isUnusualControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}" || scalar == "\u{FEFF}"
    }

    /// The file GitHub would use below `root`, or nil.
    public static func locate(in root: URL) -> URL? {
        searchPaths.map { root.appendingPathComponent($0) }.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// The file GitHub would use in `directory` or the nearest folder above it that has one, or nil: a tool
    /// started anywhere inside a checkout finds its repository's owners.
    public static func locate(from directory: URL) -> URL? {
        var directory = directory.standardizedFileURL
        while true {
            if let file = locate(in: directory) { return file }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { return nil }
            directory = parent
        }
    }

    /// The ownership of `path`: the last matching line wins; earlier owners are not merged. Matched on the
    /// path's bytes (see ``PathBytes``).
    public func ownership(of path: String) -> Ownership {
        let lookup = self.lookup
        return ownership(PathView.with(path) { lookup.index.newestMatch($0) })
    }

    /// The ownership of the path whose bytes are `path`, exactly as git holds them (valid UTF-8 or not).
    public func ownership(ofBytes path: [UInt8]) -> Ownership {
        path.withUnsafeBufferPointer { ownership(ofBytes: $0) }
    }

    /// The same for borrowed bytes (a line of a listing read whole), without copying them.
    public func ownership(ofBytes path: UnsafeBufferPointer<UInt8>) -> Ownership {
        let lookup = self.lookup
        return ownership(PathView.with(path) { lookup.index.newestMatch($0) })
    }

    private func ownership(_ found: Int?) -> Ownership {
        guard let found else { return Ownership(owners: [], line: nil) }
        return Ownership(owners: rules[found].owners, line: rules[found].line)
    }

    /// Every rule that matches `path`, in file order (the last one owns it; the others are overridden for it).
    public func matchingRules(of path: String) -> [Rule] {
        let index = lookup.index
        let matching = PathView.with(path) { index.matching($0) }
        // A pattern written twice is indexed at its last line; its earlier lines match the same paths.
        return (matching + matching.flatMap { index.duplicates[$0] ?? [] }).sorted().map { rules[$0] }
    }

    /// "./a//b" → "a/b"; paths are compared as GitHub sees them (relative, case-sensitive, byte for byte).
    public static func normalize(_ path: String) -> String { PathBytes.normalize(path) }

    static func parse(line: String, number: Int) -> Result<Rule?, Issue> {
        var tokens: [(text: String, column: Int)] = []
        var current = ""
        var start = 0
        var column = 0
        var escaped = false
        // By scalars, never Characters: a space or a "#" followed by a combining mark is still a separator.
        for character in line.unicodeScalars {
            column += 1
            if escaped {
                if character == "#" {
                    return .failure(
                        Issue(
                            line: number, column: column - 1,
                            message: "'\\#' does not escape '#' in CODEOWNERS (GitHub reads a comment from '#'); "
                                + "match the '#' with '?' instead"))
                }
                current.unicodeScalars.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                if current.isEmpty { start = column }
                current.unicodeScalars.append(character)
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
            current.unicodeScalars.append(character)
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

    /// `@user`, `@org/team`, or an email address as GitHub matches it to an account (`first.last+tag@example.com`).
    public static func isValidOwner(_ owner: String) -> Bool {
        let name = { (text: Substring) in
            !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        }
        if owner.hasPrefix("@") {
            let parts = owner.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
            return (1...2).contains(parts.count) && parts.allSatisfy(name)
        }
        return isEmailAddress(owner)
    }

    /// RFC 5322's dot-atom address, the form account emails take: a local part of up to 64 letters, digits and
    /// ``!#$%&'*+-/=?^_`{|}~``, dots only between them; a domain of up to 253 bytes, at least two labels, each 1–63
    /// letters, digits or inner hyphens. Quoted local parts and IP-literal domains are not account emails.
    public static func isEmailAddress(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)
        let isAlphanumeric = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        let localAtoms = local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard (1...64).contains(local.count),
            localAtoms.allSatisfy({ !$0.isEmpty && $0.allSatisfy { isAlphanumeric($0) || atext.contains($0) } })
        else { return false }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return (1...253).contains(domain.count) && labels.count >= 2
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                    && label.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
            }
    }
}
