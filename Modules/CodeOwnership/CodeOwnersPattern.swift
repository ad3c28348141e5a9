/// One CODEOWNERS pattern compiled to segment matchers, following GitHub's rules (not plain gitignore):
/// no `/` (or only a trailing one) matches at any depth; any other `/` anchors at the root; a trailing `/`
/// matches only a directory's contents; `dir/*` is one level; otherwise a match also covers everything below;
/// `**` spans zero or more directories, but a trailing `/**` needs at least one more segment.
///
/// Paths are matched as git stores them, as bytes (UTF-8 code units): never as Swift `Character`s, where "/"
/// followed by a combining mark is one character, nor as canonically equal strings, where NFC "é" equals NFD
/// "e\u{301}" though git holds them as two files. `?` consumes one UTF-8 encoded scalar.
public struct CodeOwnersPattern: Sendable, Equatable {
    enum Token: Sendable, Equatable {
        case literal(UInt8)
        case star
        case question
    }
    enum Segment: Sendable, Equatable {
        case anyDirectories
        /// A one-segment glob, with the literal bytes it must end with (a cheap early reject).
        case glob([Token], suffix: [UInt8])
    }

    /// The pattern as written.
    public let text: String
    let segments: [Segment]
    let directoryOnly: Bool
    let lastIsLoneStar: Bool
    let trailingDoubleStar: Bool
    /// The segments again, flat, for matching without reference counting: every glob's tokens in one array
    /// (`literal`: the byte, then `star` and `question`), each part a range of it.
    private let parts: [Part]
    private let program: [UInt16]

    private struct Part: Equatable {
        let anyDirectories: Bool
        /// The glob's tokens are `program[start..<end]`, the literal bytes it ends with `program[suffix..<end]`.
        let start: Int
        let suffix: Int
        let end: Int
    }
    private static let star: UInt16 = 256
    private static let question: UInt16 = 257

    /// Compiles `text`; the error says what GitHub does not support and at which offset (0-based, in scalars).
    public init(_ text: String) throws(PatternError) {
        self.text = text
        guard !text.isEmpty else { throw PatternError(offset: 0, message: "empty pattern") }
        if text.hasPrefix("!") { throw PatternError(offset: 0, message: "'!' negation is not supported by GitHub") }
        let raw = Array(text.unicodeScalars)
        // Walk once to find unescaped specials and the unescaped slashes.
        var tokens: [(character: Unicode.Scalar, escaped: Bool, offset: Int)] = []
        var index = 0
        while index < raw.count {
            if raw[index] == "\\" {
                guard index + 1 < raw.count else {
                    throw PatternError(offset: index, message: "pattern ends with a lone '\\'")
                }
                tokens.append((raw[index + 1], true, index))
                index += 2
                continue
            }
            let character = raw[index]
            if character == "[" || character == "]" {
                throw PatternError(
                    offset: index,
                    message: "'\(character)' ranges are not supported by GitHub; escape it as '\\\(character)'")
            }
            tokens.append((character, false, index))
            index += 1
        }
        let isStar = { (token: (character: Unicode.Scalar, escaped: Bool, offset: Int)) in
            token.character == "*" && !token.escaped
        }
        if let run = tokens.indices.first(where: { $0 + 2 < tokens.count && tokens[$0...($0 + 2)].allSatisfy(isStar) })
        {
            throw PatternError(offset: tokens[run].offset, message: "'***' is not a valid pattern")
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
        if tokens.isEmpty {
            throw PatternError(
                offset: 0,
                message: "'\(text)' is not a valid pattern: it names no file (GitHub matches nothing); write '*' "
                    + "for every file or '/DIR/' for a folder")
        }
        if parts.contains(where: \.isEmpty) {
            throw PatternError(offset: 0, message: "pattern has an empty path segment ('//')")
        }
        var segments: [Segment] = anchored ? [] : [.anyDirectories]
        for part in parts {
            if part.count == 2, part.allSatisfy(isStar) {
                // `a/**/**/b` is `a/**/b`: consecutive `**` add nothing but work.
                if segments.last != .anyDirectories { segments.append(.anyDirectories) }
                continue
            }
            var glob: [Token] = []
            for token in part {
                if !token.escaped && token.character == "*" {
                    glob.append(.star)
                } else if !token.escaped && token.character == "?" {
                    glob.append(.question)
                } else {
                    glob += String(token.character).utf8.map(Token.literal)
                }
            }
            var suffix: [UInt8] = []
            for token in glob.reversed() {
                guard case .literal(let byte) = token else { break }
                suffix.append(byte)
            }
            segments.append(.glob(glob, suffix: suffix.reversed()))
        }
        self.segments = segments
        var compiled: [Part] = []
        var program: [UInt16] = []
        for segment in segments {
            guard case .glob(let tokens, let suffix) = segment else {
                compiled.append(Part(anyDirectories: true, start: 0, suffix: 0, end: 0))
                continue
            }
            let start = program.count
            for token in tokens {
                switch token {
                case .literal(let byte): program.append(UInt16(byte))
                case .star: program.append(CodeOwnersPattern.star)
                case .question: program.append(CodeOwnersPattern.question)
                }
            }
            compiled.append(
                Part(anyDirectories: false, start: start, suffix: program.count - suffix.count, end: program.count))
        }
        self.parts = compiled
        self.program = program
        lastIsLoneStar = segments.last == .glob([.star], suffix: [])
        trailingDoubleStar = anchored && segments.last == .anyDirectories
    }

    /// Whether this pattern owns `path` (a repository-relative file path, `/`-separated), byte for byte.
    public func matches(_ path: String) -> Bool { PathView.with(path) { matches($0) } }

    /// Whether this pattern owns the path whose bytes are `path` (git's own bytes, valid UTF-8 or not).
    public func matches(bytes path: [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { bytes in PathView.with(bytes) { matches($0) } }
    }

    /// Linear in pattern segments × path segments whatever the pattern: the set of path positions each pattern
    /// segment can reach is carried forward, so `**/**/…/x` never backtracks exponentially. The set is a bit
    /// mask (no allocation) for paths of up to 63 segments, an array beyond.
    func matches(_ path: PathView) -> Bool {
        guard path.count > 0 else { return false }
        guard path.count < 64 else { return matchesLong(path) }
        return parts.withUnsafeBufferPointer { parts in
            program.withUnsafeBufferPointer { program in
                let count = path.count
                var reachable: UInt64 = 1
                for index in 0..<parts.count {
                    let part = parts[index]
                    if part.anyDirectories {
                        let minimum = (index == parts.count &- 1 && trailingDoubleStar) ? 1 : 0
                        let first = reachable.trailingZeroBitCount &+ minimum
                        guard first <= count else { return false }
                        // Every position from `first` to the path's end.
                        reachable = (UInt64.max >> (63 &- count)) & ~((UInt64(1) << first) &- 1)
                        continue
                    }
                    var next: UInt64 = 0
                    var remaining = reachable & ~(UInt64(1) << count)
                    while remaining != 0 {
                        let start = remaining.trailingZeroBitCount
                        remaining &= remaining &- 1
                        if CodeOwnersPattern.matches(program, part, path[start]) { next |= UInt64(1) << (start &+ 1) }
                    }
                    guard next != 0 else { return false }
                    reachable = next
                }
                return accepts(reachable: { reachable & (UInt64(1) << $0) != 0 }, count: count)
            }
        }
    }

    /// The same with an array of positions, for paths deeper than a bit mask holds.
    private func matchesLong(_ path: PathView) -> Bool {
        var reachable = [Bool](repeating: false, count: path.count + 1)
        reachable[0] = true
        for (index, part) in parts.enumerated() {
            var next = [Bool](repeating: false, count: path.count + 1)
            if part.anyDirectories {
                let minimum = (index == parts.count - 1 && trailingDoubleStar) ? 1 : 0
                guard let first = reachable.firstIndex(of: true), first + minimum <= path.count else { return false }
                for end in (first + minimum)...path.count { next[end] = true }
            } else {
                let matched = program.withUnsafeBufferPointer { program in
                    var any = false
                    for start in 0..<path.count where reachable[start] {
                        if CodeOwnersPattern.matches(program, part, path[start]) {
                            next[start + 1] = true
                            any = true
                        }
                    }
                    return any
                }
                guard matched else { return false }
            }
            reachable = next
        }
        return accepts(reachable: { reachable[$0] }, count: path.count)
    }

    /// The positions after the path segments at `reachable` (bits below `path.count`, < 64) that the pattern's
    /// glob segment `index` matches, for a matcher that handles the other segments itself.
    func advance(_ reachable: UInt64, through index: Int, _ path: PathView) -> UInt64 {
        let part = parts[index]
        return program.withUnsafeBufferPointer { program in
            var next: UInt64 = 0
            var remaining = reachable
            while remaining != 0 {
                let start = remaining.trailingZeroBitCount
                remaining &= remaining &- 1
                if CodeOwnersPattern.matches(program, part, path[start]) { next |= UInt64(1) << (start &+ 1) }
            }
            return next
        }
    }

    /// Whether a pattern whose segments can end at the positions in `reachable` owns a path of `count`
    /// segments (`count` < 64).
    func accepts(_ reachable: UInt64, count: Int) -> Bool {
        accepts(reachable: { reachable & (UInt64(1) << $0) != 0 }, count: count)
    }

    /// After the last segment: at the path's end a file matched (not for `dir/`); earlier, the match is a
    /// folder holding the path (not for a trailing lone `*`, which is one level, unless it is `dir/*/`).
    private func accepts(reachable: (Int) -> Bool, count: Int) -> Bool {
        for position in 0...count where reachable(position) {
            if position == count ? !directoryOnly : position > 0 && (directoryOnly || !lastIsLoneStar) {
                return true
            }
        }
        return false
    }

    /// Whether one path segment matches one glob: its literal suffix first (a cheap reject), then nothing more
    /// for a literal segment of the same length or a `*` and its suffix (`*.swift`, the common shapes), the
    /// whole glob otherwise.
    private static func matches(
        _ program: UnsafeBufferPointer<UInt16>, _ part: Part, _ name: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        let suffixLength = part.end &- part.suffix
        guard name.count >= suffixLength else { return false }
        let offset = name.count &- suffixLength &- part.suffix
        var index = part.suffix
        while index < part.end {
            if UInt16(name[offset &+ index]) != program[index] { return false }
            index &+= 1
        }
        if part.suffix == part.start { return name.count == suffixLength }
        if part.suffix == part.start &+ 1, program[part.start] == star { return true }
        return glob(program, part.start, part.end &- suffixLength, name, name.count &- suffixLength)
    }

    /// Glob match of `program[p..<end]` against `name[..<length]`: `*` any run of bytes, `?` one UTF-8 scalar,
    /// literals exact; iterative, with one backtracking point, so quadratic at worst in the segment's length.
    private static func glob(
        _ program: UnsafeBufferPointer<UInt16>, _ first: Int, _ end: Int, _ name: UnsafeBufferPointer<UInt8>,
        _ length: Int
    ) -> Bool {
        var p = first
        var n = 0
        var starP = -1
        var starN = n
        while n < length {
            if p < end {
                let token = program[p]
                if token == star {
                    starP = p
                    starN = n
                    p &+= 1
                    continue
                }
                if token == question {
                    p &+= 1
                    n &+= PathBytes.scalarLength(name, at: n)
                    // A scalar running into the checked suffix cannot match (the suffix starts a scalar).
                    if n > length { return false }
                    continue
                }
                if token == UInt16(name[n]) {
                    p &+= 1
                    n &+= 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            p = starP &+ 1
            starN &+= 1
            n = starN
        }
        while p < end, program[p] == star { p &+= 1 }
        return p == end
    }
}

/// Why a pattern was refused, with its offset inside the pattern.
public struct PatternError: Error, Equatable, Sendable {
    /// 0-based scalar offset inside the pattern.
    public let offset: Int
    /// What is wrong and how to fix it.
    public let message: String

    /// Describes a refused pattern.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}
