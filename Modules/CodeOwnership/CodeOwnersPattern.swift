/// One CODEOWNERS pattern compiled to segment matchers, following GitHub's rules (not plain gitignore):
/// no `/` (or only a trailing one) matches at any depth; any other `/` anchors at the root; a trailing `/`
/// matches only a directory's contents; `dir/*` is one level; otherwise a match also covers everything below;
/// `**` spans zero or more directories, but a trailing `/**` needs at least one more segment.
public struct CodeOwnersPattern: Sendable, Equatable {
    enum Token: Sendable, Equatable {
        case literal(Unicode.Scalar)
        case star
        case question
    }
    enum Segment: Sendable, Equatable {
        case anyDirectories
        /// A one-segment glob, with the literal run it must end with (a cheap early reject).
        case glob([Token], suffix: [Unicode.Scalar])
    }

    /// The pattern as written.
    public let text: String
    let segments: [Segment]
    let directoryOnly: Bool
    let lastIsLoneStar: Bool
    let trailingDoubleStar: Bool

    /// Compiles `text`; the error says what GitHub does not support and at which offset (0-based).
    public init(_ text: String) throws(PatternError) {
        self.text = text
        guard !text.isEmpty else { throw PatternError(offset: 0, message: "empty pattern") }
        if text.hasPrefix("!") { throw PatternError(offset: 0, message: "'!' negation is not supported by GitHub") }
        var raw = Array(text.unicodeScalars)
        var offsets = Array(raw.indices)
        // Walk once to find unescaped specials and the unescaped slashes.
        var tokens: [(character: Unicode.Scalar, escaped: Bool, offset: Int)] = []
        var index = 0
        while index < raw.count {
            if raw[index] == "\\" {
                guard index + 1 < raw.count else {
                    throw PatternError(offset: index, message: "pattern ends with a lone '\\'")
                }
                tokens.append((raw[index + 1], true, offsets[index]))
                index += 2
                continue
            }
            let character = raw[index]
            if character == "[" || character == "]" {
                throw PatternError(
                    offset: index,
                    message: "'\(character)' ranges are not supported by GitHub; escape it as '\\\(character)'")
            }
            tokens.append((character, false, offsets[index]))
            index += 1
        }
        raw = []
        offsets = []
        let starRun = tokens.indices.contains {
            $0 + 2 < tokens.count
                && [tokens[$0], tokens[$0 + 1], tokens[$0 + 2]].allSatisfy { $0.character == "*" && !$0.escaped }
        }
        if starRun, let first = tokens.firstIndex(where: { $0.character == "*" && !$0.escaped }) {
            throw PatternError(offset: tokens[first].offset, message: "'***' is not a valid pattern")
        }
        let isSlash = { (token: (character: Unicode.Scalar, escaped: Bool, offset: Int)) in
            token.character == "/" && !token.escaped
        }
        directoryOnly = tokens.last.map(isSlash) ?? false
        if directoryOnly { tokens.removeLast() }
        let anchored = tokens.contains(where: isSlash)
        if tokens.first.map(isSlash) == true { tokens.removeFirst() }
        var parts: [[(character: Unicode.Scalar, escaped: Bool, offset: Int)]] = [[]]
        for token in tokens {
            if isSlash(token) { parts.append([]) } else { parts[parts.count - 1].append(token) }
        }
        if parts.contains(where: \.isEmpty) {
            throw PatternError(offset: 0, message: "pattern has an empty path segment ('//')")
        }
        var segments: [Segment] = anchored ? [] : [.anyDirectories]
        for part in parts {
            if part.count == 2, part.allSatisfy({ $0.character == "*" && !$0.escaped }) {
                segments.append(.anyDirectories)
                continue
            }
            let tokens: [Token] = part.map {
                $0.escaped
                    ? .literal($0.character)
                    : $0.character == "*" ? .star : $0.character == "?" ? .question : .literal($0.character)
            }
            var suffix: [Unicode.Scalar] = []
            for token in tokens.reversed() {
                guard case .literal(let scalar) = token else { break }
                suffix.insert(scalar, at: 0)
            }
            segments.append(.glob(tokens, suffix: suffix))
        }
        self.segments = segments
        lastIsLoneStar = segments.last == .glob([.star], suffix: [])
        trailingDoubleStar = anchored && segments.last == .anyDirectories
    }

    /// Whether this pattern owns `path` (a repository-relative file path, `/`-separated). Case-sensitive.
    public func matches(_ path: String) -> Bool { matches(segments: CodeOwnersPattern.split(path)) }

    /// `path` as segments of scalars: split once, then matched against many patterns.
    static func split(_ path: String) -> [[Unicode.Scalar]] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
    }

    func matches(segments path: [[Unicode.Scalar]]) -> Bool {
        guard !path.isEmpty else { return false }
        return match(0, 0, path)
    }

    /// Whether pattern segments from `segment` on can consume path segments from `start` and end acceptably.
    private func match(_ segment: Int, _ start: Int, _ path: [[Unicode.Scalar]]) -> Bool {
        guard segment < segments.count else {
            if start == path.count { return !directoryOnly }
            return start > 0 && (directoryOnly || !lastIsLoneStar)
        }
        switch segments[segment] {
        case .anyDirectories:
            let minimum = (segment == segments.count - 1 && trailingDoubleStar) ? 1 : 0
            guard start + minimum <= path.count else { return false }
            for end in (start + minimum)...path.count where match(segment + 1, end, path) { return true }
            return false
        case .glob(let tokens, let suffix):
            guard start < path.count, path[start].count >= suffix.count,
                path[start].suffix(suffix.count).elementsEqual(suffix),
                CodeOwnersPattern.glob(tokens, path[start])
            else { return false }
            return match(segment + 1, start + 1, path)
        }
    }

    /// Glob match of one segment: `*` any run, `?` one scalar, literals exact (iterative, with backtracking).
    private static func glob(_ pattern: [Token], _ name: [Unicode.Scalar]) -> Bool {
        var p = 0
        var n = 0
        var starP = -1
        var starN = 0
        while n < name.count {
            if p < pattern.count {
                switch pattern[p] {
                case .star:
                    starP = p
                    starN = n
                    p += 1
                    continue
                case .question:
                    p += 1
                    n += 1
                    continue
                case .literal(let scalar) where scalar == name[n]:
                    p += 1
                    n += 1
                    continue
                case .literal: break
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starN += 1
            n = starN
        }
        while p < pattern.count, pattern[p] == .star { p += 1 }
        return p == pattern.count
    }
}

/// Why a pattern was refused, with its offset inside the pattern.
public struct PatternError: Error, Equatable, Sendable {
    /// 0-based character offset inside the pattern.
    public let offset: Int
    /// What is wrong and how to fix it.
    public let message: String

    /// Describes a refused pattern.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}
