/// Which rules could own a path, found without trying every rule, for any shape of CODEOWNERS: a big
/// monorepo's file has a thousand lines of literal folders, wildcard segments, `**/name/`, extensions and
/// catch-alls, and a path can only match the few whose required parts it has.
///
/// Every distinct pattern sits in exactly one bucket, keyed by one part any path it matches must have; a path
/// gathers the buckets its segments hit, and the candidates are then matched for real, newest first:
/// - a literal head (`/Modules/Pay/` → Modules → Pay), in a tree walked along the path;
/// - a literal segment at a fixed depth after a wildcard (`/Modules/*/Sources/` → depth 2 "Sources");
/// - the literal start of a wildcard segment at a fixed depth (`/Apps/App3*/` → depth 1 "App3");
/// - a literal segment at any depth (`**/Docs/`, `docs/`, `README.md`, `**/v1/**/*.sh` → "v1");
/// - the extension a segment's literal end forces (`*.md` → "md");
/// - the literal start of a wildcard segment at any depth (`name_*`, `**/Dockerfile1*` → "Dockerfile1"), found
///   by an anchored `LiteralScanner` walking each segment's first bytes;
/// - a literal run inside a wildcard segment (`*tok*` → "tok"), found in all of a path's segments at once by a
///   `LiteralScanner`;
/// - nothing (`*`, `/*/x`): tried on every path.
/// A pattern with several such parts goes to the bucket holding the fewest patterns so far, so no bucket grows
/// with the file: the work per path follows its segments, not the number of rules. A pattern written twice
/// is indexed once, at its last line (which shadows the others for every path).
struct CodeOwnersIndex: Sendable {
    /// What a packed key in `table` leads to.
    private enum Kind: UInt64 {
        case child = 1, fixed, prefix
    }
    /// Where a pattern could go while the index is built.
    private enum Place {
        case bucket(Int)
        case key(UInt64)
        case name(Int)
        case fileExtension(Int)
        case literal(Within, [UInt8])
    }
    /// Where in a path segment a literal keying a bucket is looked for.
    private enum Within: Int {
        case anywhere, start
    }
    /// Every literal the buckets are keyed by (tree folders, names, extensions, literal starts).
    private var names = ByteNames()
    /// Packed (kind, node or depth, name) → a tree node's bucket or a fixed-depth or prefix bucket.
    private var table = NumberTable()
    /// Bit `d`: some fixed-depth bucket is keyed at depth `d` (bit 63: at 63 or deeper), so other depths skip
    /// the probe.
    private var fixedDepths: UInt64 = 0
    /// Bucket by name number, for names at any depth and extensions (-1: none).
    private var nameBuckets: [Int32] = []
    private var extensionBuckets: [Int32] = []
    /// Buckets by the literal inside or at the start of a wildcard segment that keys them, by `Within` (while
    /// building); then a scanner for each.
    private var literalKeys = [ScannerKeys](repeating: ScannerKeys(), count: 2)
    private var scanner = LiteralScanner([])
    private var startScanner = LiteralScanner([], anchored: true)
    /// The lengths of literal starts keyed at each depth.
    private var prefixLengths: [[Int]] = []
    /// Rule indices by bucket while building; then `flat`, bucket `b` being `flat[starts[b]..<starts[b + 1]]`.
    private var building: [[Int]] = [[], []]
    private var flat: [Int32] = []
    private var starts: [Int32] = []
    /// The patterns, matched here so a lookup borrows them instead of copying rules.
    private let patterns: [CodeOwnersPattern]
    /// The earlier lines of a pattern written more than once, by the index of its last line.
    private(set) var duplicates: [Int: [Int]] = [:]
    /// The patterns as steps over numbered segments, which is how candidates are matched.
    private var programs = SegmentPrograms()

    /// The tree's root and the bucket tried on every path.
    private static let root = 0
    private static let rest = 1
    /// How many non-empty buckets a lookup first makes room for.
    private static let stackBuckets = 80
    /// Nodes, depths and name numbers stay below this, so packed keys never collide.
    private static let widest = 1 << 27
    /// The longest literal start of a wildcard segment used as a key.
    private static let longestPrefix = 8
    /// The shortest literal run inside a wildcard segment used as a key (one byte would key half the paths).
    private static let shortestInfix = 2

    init(_ patterns: [CodeOwnersPattern]) {
        self.patterns = patterns
        var last: [[UInt8]: Int] = [:]
        for (index, pattern) in patterns.enumerated() { last[Array(pattern.text.utf8)] = index }
        for (index, pattern) in patterns.enumerated() {
            var steps = programs
            programs = SegmentPrograms()
            steps.append(pattern) { nameNumber($0) }
            programs = steps
            let final = last[Array(pattern.text.utf8)]!
            if final != index {
                duplicates[final, default: []].append(index)
                continue
            }
            insert(index, pattern)
        }
        for rules in building {
            starts.append(Int32(flat.count))
            flat += rules.map { Int32($0) }
        }
        starts.append(Int32(flat.count))
        building = []
        scanner = literalKeys[Within.anywhere.rawValue].scanner()
        startScanner = literalKeys[Within.start.rawValue].scanner(anchored: true)
        literalKeys = []
    }

    /// The newest rule that matches `path`: the buckets the path hits are merged newest rule first, so the
    /// first candidate that matches is the answer; nothing is sorted or allocated, and a broad rule late in
    /// the file ends the search at once.
    func newestMatch(_ path: PathView) -> Int? {
        guard path.count > 0 else { return nil }
        // A path hits a few non-empty buckets, so it first gathers them in a buffer that stays on the stack
        // (three 32-bit numbers a bucket, under 1 KB); only a path that hits more is looked up again with room
        // for every bucket it could hit (sized for the worst case, the buffer was on the heap for every path of a
        // glob-heavy file: a fifth of its lookup time).
        let (fits, found) = newestMatch(path, capacity: CodeOwnersIndex.stackBuckets)
        if fits { return found }
        // At most the rest, the root, and per segment a tree node, a fixed-depth name, a name anywhere, an
        // extension, one literal start per length keyed at its depth, and per byte the literals ending there
        // and a literal start ending there.
        var capacity = 2 + 4 * path.count
        for depth in 0..<min(path.count, prefixLengths.count) { capacity += prefixLengths[depth].count }
        let perByte = scanner.longestChain + startScanner.longestChain
        if perByte > 0 {
            for depth in 0..<path.count { capacity += perByte * path[depth].count }
        }
        return newestMatch(path, capacity: capacity).match
    }

    /// The newest match among the buckets `path` hits, unless more than `capacity` of them hold rules.
    @inline(__always)
    private func newestMatch(_ path: PathView, capacity: Int) -> (fits: Bool, match: Int?) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * capacity) { buffer in
            // Per bucket hit: its newest rule not yet tried (-1: none left), where that rule is in `flat`, and
            // where the bucket starts; the newest rules side by side, so picking the newest of all is a
            // branch-free scan.
            var hit = 0
            var fits = true
            forEachBucket(path) { bucket in
                guard starts[bucket] < starts[bucket + 1] else { return }
                guard hit < capacity else {
                    fits = false
                    return
                }
                buffer[capacity &+ hit] = starts[bucket + 1] &- 1
                buffer[2 &* capacity &+ hit] = starts[bucket]
                hit &+= 1
            }
            guard fits else { return (false, nil) }
            let match: Int? = patterns.withUnsafeBufferPointer { patterns in
                flat.withUnsafeBufferPointer { flat in
                    programs.with { programs in
                        for bucket in 0..<hit { buffer[bucket] = flat[Int(buffer[capacity &+ bucket])] }
                        var failed: Int32 = -1
                        while true {
                            var newest: Int32 = -1
                            var from = 0
                            for bucket in 0..<hit {
                                let index = buffer[bucket]
                                let newer = index > newest
                                newest = newer ? index : newest
                                from = newer ? bucket : from
                            }
                            guard newest >= 0 else { return nil }
                            let next = buffer[capacity &+ from] &- 1
                            buffer[capacity &+ from] = next
                            buffer[from] = next >= buffer[2 &* capacity &+ from] ? flat[Int(next)] : -1
                            // A bucket hit by two segments offers its rules twice, one after the other.
                            if newest == failed { continue }
                            if programs.matches(Int(newest), patterns, path) { return Int(newest) }
                            failed = newest
                        }
                    }
                }
            }
            return (true, match)
        }
    }

    /// Indices of every distinct pattern that matches `path` (each once, newest first).
    func matching(_ path: PathView) -> [Int] {
        var found: [Int] = []
        forEachBucket(path) { bucket in
            found += flat[Int(starts[bucket])..<Int(starts[bucket + 1])].map { Int($0) }
        }
        found.sort(by: >)
        // A bucket hit by two segments ("docs/docs/x") adds its rules twice.
        var previous = -1
        patterns.withUnsafeBufferPointer { patterns in
            programs.with { programs in
                found.removeAll { index in
                    defer { previous = index }
                    return index == previous || !programs.matches(index, patterns, path)
                }
            }
        }
        return found
    }

    /// Calls `visit` with every bucket `path` hits (the same bucket may come more than once), and writes the
    /// numbers of the path's segment names and extensions that ``SegmentPrograms`` compares.
    @inline(__always)
    private func forEachBucket(_ path: PathView, _ visit: (Int) -> Void) {
        visit(CodeOwnersIndex.rest)
        visit(CodeOwnersIndex.root)
        var node = CodeOwnersIndex.root
        var walking = true
        let count = path.count
        for depth in 0..<count {
            let segment = path[depth]
            let (found, dot) = names.findSegment(segment, readable: path.readable(depth))
            path.numbers[depth] = found.map { Int32(truncatingIfNeeded: $0) } ?? -1
            if let name = found {
                if walking {
                    if let child = table[CodeOwnersIndex.key(.child, node, name)] {
                        node = child
                        visit(node)
                    } else {
                        walking = false
                    }
                }
                if fixedDepths & (1 << UInt64(min(depth, 63))) != 0,
                    let bucket = table[CodeOwnersIndex.key(.fixed, depth, name)]
                {
                    visit(bucket)
                }
                if nameBuckets[name] >= 0 { visit(Int(nameBuckets[name])) }
            } else {
                walking = false
            }
            if depth < prefixLengths.count {
                for length in prefixLengths[depth] where length <= segment.count {
                    if let name = names.find(UnsafeBufferPointer(rebasing: segment[..<length])),
                        let bucket = table[CodeOwnersIndex.key(.prefix, depth, name)]
                    {
                        visit(bucket)
                    }
                }
            }
            // By bytes, as patterns are matched: a dot followed by a combining mark is still a dot.
            path.numbers[count &+ depth] = -1
            if dot >= 0,
                let name = names.find(UnsafeBufferPointer(rebasing: segment[(dot + 1)...]))
            {
                path.numbers[count &+ depth] = Int32(truncatingIfNeeded: name)
                if extensionBuckets[name] >= 0 { visit(Int(extensionBuckets[name])) }
            }
            startScanner.scan(segment) { visit(Int($0)) }
            scanner.scan(segment) { visit(Int($0)) }
        }
    }

    /// A key of `table`: the kind in the top bits, then a node or depth, then a name number.
    private static func key(_ kind: Kind, _ where: Int, _ name: Int) -> UInt64 {
        kind.rawValue << 60 | UInt64(truncatingIfNeeded: `where`) << 32 | UInt64(truncatingIfNeeded: name)
    }

    private mutating func nameNumber(_ bytes: [UInt8]) -> Int {
        let number = names.number(bytes)
        while nameBuckets.count < names.count {
            nameBuckets.append(-1)
            extensionBuckets.append(-1)
        }
        return number
    }

    private mutating func newBucket() -> Int {
        building.append([])
        return building.count - 1
    }

    private mutating func insert(_ index: Int, _ pattern: CodeOwnersPattern) {
        let segments = pattern.segments
        // Keys pack a node or depth into 28 bits and a name number into 32: a file too big for that (far past
        // GitHub's 3 MB) keeps its further patterns in the bucket tried on every path, slower but never wrong.
        guard max(building.count, names.count) + segments.count < CodeOwnersIndex.widest else {
            building[CodeOwnersIndex.rest].append(index)
            return
        }
        // The literal head, in the tree.
        var node = CodeOwnersIndex.root
        var head = 0
        while head < segments.count, let literal = CodeOwnersIndex.literal(segments[head]) {
            let key = CodeOwnersIndex.key(.child, node, nameNumber(literal))
            if let next = table[key] {
                node = next
            } else {
                let next = newBucket()
                table.set(key, next)
                node = next
            }
            head += 1
        }
        // Every other part a matching path must have, in order of preference when buckets are equally full.
        var options: [Place] = []
        if head >= 2 || (head == 1 && segments.count == 1) { options.append(.bucket(node)) }
        var depth: Int? = 0
        var afterHead: [Place] = []
        var anywhere: [Place] = []
        for (position, segment) in segments.enumerated() {
            guard case .glob(let tokens, let suffix) = segment else {
                depth = nil
                continue
            }
            if let literal = CodeOwnersIndex.literal(segment) {
                if let fixedDepth = depth, position >= head {
                    afterHead.append(.key(CodeOwnersIndex.key(.fixed, fixedDepth, nameNumber(literal))))
                } else if depth == nil {
                    anywhere.append(.name(nameNumber(literal)))
                }
            } else {
                let leading = CodeOwnersIndex.leadingLiteral(tokens)
                let start = Array(leading.prefix(CodeOwnersIndex.longestPrefix))
                if let fixedDepth = depth, !start.isEmpty {
                    while prefixLengths.count <= fixedDepth { prefixLengths.append([]) }
                    if !prefixLengths[fixedDepth].contains(start.count) {
                        prefixLengths[fixedDepth].append(start.count)
                    }
                    afterHead.append(.key(CodeOwnersIndex.key(.prefix, fixedDepth, nameNumber(start))))
                }
                var runs = CodeOwnersIndex.literalRuns(tokens)
                // At any depth, the literal the segment starts with is found from the segment's start, which
                // is cheaper than finding it anywhere inside and keys fewer paths.
                if depth == nil, leading.count >= CodeOwnersIndex.shortestInfix,
                    literalKeys[Within.start.rawValue].fits(leading)
                {
                    anywhere.append(.literal(.start, leading))
                    runs.removeFirst()
                }
                if let dot = suffix.lastIndex(of: PathBytes.dot) {
                    anywhere.append(.fileExtension(nameNumber(Array(suffix[(dot + 1)...]))))
                    // A run that is just the extension with its dot (`*.c`) keys every path the extension keys
                    // and more, and would send every byte of every path through the scanner: never worth it.
                    runs.removeAll { $0.elementsEqual(suffix[dot...]) }
                }
                anywhere += runs.filter(literalKeys[Within.anywhere.rawValue].fits).map { .literal(.anywhere, $0) }
            }
            depth = depth.map { $0 + 1 }
        }
        options += afterHead.reversed() + anywhere
        if head >= 1 { options.append(.bucket(node)) }
        let chosen = options.min { size($0) < size($1) }
        let bucket: Int
        switch chosen {
        case nil: bucket = CodeOwnersIndex.rest
        case .bucket(let existing): bucket = existing
        case .key(let key):
            if key >> 60 == Kind.fixed.rawValue {
                fixedDepths |= 1 << min((key >> 32) & UInt64(CodeOwnersIndex.widest - 1), 63)
            }
            if let existing = table[key] {
                bucket = existing
            } else {
                bucket = newBucket()
                table.set(key, bucket)
            }
        case .name(let name):
            if nameBuckets[name] < 0 { nameBuckets[name] = Int32(newBucket()) }
            bucket = Int(nameBuckets[name])
        case .fileExtension(let name):
            if extensionBuckets[name] < 0 { extensionBuckets[name] = Int32(newBucket()) }
            bucket = Int(extensionBuckets[name])
        case .literal(let within, let literal):
            if let existing = literalKeys[within.rawValue][literal] {
                bucket = existing
            } else {
                bucket = newBucket()
                literalKeys[within.rawValue].add(literal, bucket: bucket)
            }
        }
        building[bucket].append(index)
    }

    /// How many patterns the bucket at `place` holds so far.
    private func size(_ place: Place) -> Int {
        let bucket: Int?
        switch place {
        case .bucket(let existing): bucket = existing
        case .key(let key): bucket = table[key]
        case .name(let name): bucket = nameBuckets[name] >= 0 ? Int(nameBuckets[name]) : nil
        case .fileExtension(let name): bucket = extensionBuckets[name] >= 0 ? Int(extensionBuckets[name]) : nil
        case .literal(let within, let literal): bucket = literalKeys[within.rawValue][literal]
        }
        return bucket.map { building[$0].count } ?? 0
    }

    /// The literal bytes a wildcard segment starts with (its first run, when that is long enough to key by).
    private static func leadingLiteral(_ tokens: [CodeOwnersPattern.Token]) -> [UInt8] {
        var bytes: [UInt8] = []
        for token in tokens {
            guard case .literal(let byte) = token else { break }
            bytes.append(byte)
        }
        return bytes
    }

    /// The literal runs between a wildcard segment's `*` and `?`, long enough to key by.
    private static func literalRuns(_ tokens: [CodeOwnersPattern.Token]) -> [[UInt8]] {
        var runs: [[UInt8]] = [[]]
        for token in tokens {
            if case .literal(let byte) = token {
                runs[runs.count - 1].append(byte)
            } else if !runs[runs.count - 1].isEmpty {
                runs.append([])
            }
        }
        return runs.filter { $0.count >= shortestInfix }
    }

    /// The segment's bytes when it has no wildcard (it then matches only a path segment spelled exactly so).
    private static func literal(_ segment: CodeOwnersPattern.Segment) -> [UInt8]? {
        guard case .glob(let tokens, _) = segment else { return nil }
        var bytes: [UInt8] = []
        for token in tokens {
            guard case .literal(let byte) = token else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
