/// Every indexed pattern again as a few steps over a path's segments, matched with one 64-bit mask of reachable
/// positions and no byte comparisons for the common segments: a literal name or a `*.ext` compares the numbers
/// the index gave the path's segments while gathering buckets, a lone `*` takes any segment, a `**` fills the
/// mask. Only other globs (`App3*`, `*tok*`) compare bytes. On deep paths most candidates are literals and
/// `**`, and trying one then costs a few branch-free loops instead of a byte comparison per segment.
struct SegmentPrograms: Sendable {
    /// What one step matches.
    enum Kind: UInt8 {
        /// `**`: zero or more segments (one or more when it ends an anchored pattern).
        case anyDirectories
        /// A segment spelled exactly as the name numbered `value`.
        case name
        /// A segment whose bytes after its last "." are the name numbered `value` (`*.swift`).
        case fileExtension
        /// Any segment (`*`).
        case anySegment
        /// The pattern's glob segment `value`, compared byte by byte.
        case glob
    }

    /// Per rule, from `offsets[rule]`: its flags (bit 0 a match can end at the path's end, a file; bit 1 before
    /// it, a folder holding the path; bit 2 a trailing `**` must take at least one segment), its step count,
    /// then each step as a kind and a value. One array, so a lookup borrows it once.
    private var code: [Int32] = []
    private var offsets: [Int32] = []

    /// Adds `pattern`'s steps, numbering its literal names and extensions with `number`.
    mutating func append(_ pattern: CodeOwnersPattern, number: (([UInt8]) -> Int)) {
        offsets.append(Int32(code.count))
        code.append(
            (pattern.directoryOnly ? 0 : 1) | (pattern.directoryOnly || !pattern.lastIsLoneStar ? 2 : 0)
                | (pattern.trailingDoubleStar ? 4 : 0))
        code.append(Int32(pattern.segments.count))
        for (index, segment) in pattern.segments.enumerated() {
            switch segment {
            case .anyDirectories:
                add(.anyDirectories, 0)
            case .glob(let tokens, let suffix):
                if suffix.count == tokens.count, let value = Int32(exactly: number(suffix)) {
                    add(.name, value)
                } else if tokens == [.star] {
                    add(.anySegment, 0)
                } else if tokens.count == suffix.count + 1, tokens.first == .star, suffix.count >= 2,
                    suffix.first == PathBytes.dot, !suffix.dropFirst().contains(PathBytes.dot),
                    let value = Int32(exactly: number(Array(suffix.dropFirst())))
                {
                    add(.fileExtension, value)
                } else {
                    add(.glob, Int32(index))
                }
            }
        }
    }

    private mutating func add(_ kind: Kind, _ value: Int32) {
        code.append(Int32(kind.rawValue))
        code.append(value)
    }

    /// Calls `body` with the programs borrowed for a lookup.
    @inline(__always)
    func with<Result>(_ body: (Borrowed) -> Result) -> Result {
        code.withUnsafeBufferPointer { code in
            offsets.withUnsafeBufferPointer { body(Borrowed(code: code, offsets: $0)) }
        }
    }

    /// The programs for one lookup.
    struct Borrowed {
        let code: UnsafeBufferPointer<Int32>
        let offsets: UnsafeBufferPointer<Int32>

        /// Whether rule `rule` owns `path`, whose segments' numbers are written; exactly what its pattern's
        /// `matches(path)` answers, which it falls back to for paths of 64 segments or more.
        @inline(__always)
        func matches(_ rule: Int, _ patterns: UnsafeBufferPointer<CodeOwnersPattern>, _ path: PathView) -> Bool {
            let count = path.count
            guard count > 0 else { return false }
            guard count < 64 else { return patterns[rule].matches(path) }
            var step = Int(offsets[rule])
            let flags = code[step]
            let end = step &+ 2 &+ 2 &* Int(code[step &+ 1])
            step &+= 2
            let segments = (UInt64(1) << count) &- 1
            var reachable: UInt64 = 1
            while step < end {
                let kind = code[step]
                let value = code[step &+ 1]
                step &+= 2
                if kind == Int32(Kind.name.rawValue) {
                    reachable = (reachable & SegmentPrograms.mask(path.numbers, 0, count, value)) << 1
                } else if kind == Int32(Kind.anyDirectories.rawValue) {
                    let minimum = step == end && flags & 4 != 0 ? 1 : 0
                    let from = reachable.trailingZeroBitCount &+ minimum
                    guard from <= count else { return false }
                    // Every position from `from` to the path's end.
                    reachable = (UInt64.max >> (63 &- count)) & ~((UInt64(1) << from) &- 1)
                    continue
                } else if kind == Int32(Kind.fileExtension.rawValue) {
                    reachable = (reachable & SegmentPrograms.mask(path.numbers, count, count, value)) << 1
                } else if kind == Int32(Kind.anySegment.rawValue) {
                    reachable = (reachable & segments) << 1
                } else {
                    reachable = patterns[rule].advance(reachable & segments, through: Int(value), path)
                }
                guard reachable != 0 else { return false }
            }
            let file: UInt64 = flags & 1 != 0 ? UInt64(1) << count : 0
            let folder: UInt64 = flags & 2 != 0 ? segments & ~1 : 0
            return reachable & (file | folder) != 0
        }
    }

    /// The positions (bits `0..<count`) whose number at `numbers[offset + position]` is `value`.
    @inline(__always)
    private static func mask(_ numbers: UnsafeMutableBufferPointer<Int32>, _ offset: Int, _ count: Int, _ value: Int32)
        -> UInt64
    {
        var mask: UInt64 = 0
        var position = 0
        while position < count {
            mask |= UInt64(numbers[offset &+ position] == value ? 1 : 0) << position
            position &+= 1
        }
        return mask
    }
}
