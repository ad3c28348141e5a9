/// One CODEOWNERS pattern compiled to segment matchers, following GitHub's rules (not plain gitignore):
/// no `/` (or only a trailing one) matches at any depth; any other `/` anchors at the root; a trailing `/`
/// matches only a directory's contents; `dir/*` is one level; otherwise a match also covers everything below;
/// `**` spans zero or more directories, but a trailing `/**` needs at least one more segment.
public struct CodeOwnersPattern: Sendable, Equatable {
    enum Token: Sendable, Equatable {
        case literal(Character)
        case star
        case question
    }
    enum Segment: Sendable, Equatable {
        case anyDirectories
        case glob([Token])
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
        var raw = Array(text)
        var offsets = Array(raw.indices)
        // Walk once to find unescaped specials and the unescaped slashes.
        var tokens: [(character: Character, escaped: Bool, offset: Int)] = []
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
        let isSlash = { (token: (character: Character, escaped: Bool, offset: Int)) in
            token.character == "/" && !token.escaped
        }
        directoryOnly = tokens.last.map(isSlash) ?? false
        if directoryOnly { tokens.removeLast() }
        let anchored = tokens.contains(where: isSlash)
        if tokens.first.map(isSlash) == true { tokens.removeFirst() }
        var parts: [[(character: Character, escaped: Bool, offset: Int)]] = [[]]
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
            segments.append(
                .glob(
                    part.map {
                        $0.escaped
                            ? .literal($0.character)
                            : $0.character == "*" ? .star : $0.character == "?" ? .question : .literal($0.character)
                    }))
        }
        self.segments = segments
        lastIsLoneStar = segments.last == .glob([.star])
        trailingDoubleStar = anchored && segments.last == .anyDirectories
    }

    /// Whether this pattern owns `path` (a repository-relative file path, `/`-separated). Case-sensitive.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(Array.init)
        guard !parts.isEmpty else { return false }
        return ends(0, 0, parts).contains { end in
            if end == parts.count { return !directoryOnly }
            return end > 0 && (directoryOnly || !lastIsLoneStar)
        }
    }

    private func ends(_ segment: Int, _ start: Int, _ path: [[Character]]) -> Set<Int> {
        guard segment < segments.count else { return [start] }
        switch segments[segment] {
        case .anyDirectories:
            let minimum = (segment == segments.count - 1 && trailingDoubleStar) ? 1 : 0
            guard start + minimum <= path.count else { return [] }
            var result = Set<Int>()
            for end in (start + minimum)...path.count { result.formUnion(ends(segment + 1, end, path)) }
            return result
        case .glob(let tokens):
            guard start < path.count, CodeOwnersPattern.glob(tokens[...], path[start][...]) else { return [] }
            return ends(segment + 1, start + 1, path)
        }
    }

    private static func glob(_ pattern: ArraySlice<Token>, _ name: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return name.isEmpty }
        switch first {
        case .star:
            var rest = name
            while true {
                if glob(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        case .question: return !name.isEmpty && glob(pattern.dropFirst(), name.dropFirst())
        case .literal(let character):
            return name.first == character && glob(pattern.dropFirst(), name.dropFirst())
        }
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
