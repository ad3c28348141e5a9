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
/// - nothing (`*`, `/*/x`): tried on every path.
/// A pattern with several such parts goes to the bucket holding the fewest patterns so far, so no bucket grows
/// with the file: the work per path follows its segments, not the number of rules. A pattern written twice
/// is indexed once, at its last line (which shadows the others for every path).
struct CodeOwnersIndex: Sendable {
    private struct Node: Sendable {
        var children: [ByteKey: Int] = [:]
        var rules: [Int] = []
    }
    private enum Bucket: Hashable {
        case tree(node: Int)
        case fixed(depth: Int, name: ByteKey)
        case prefix(depth: Int, start: ByteKey)
        case name(ByteKey)
        case fileExtension(ByteKey)
        case rest
    }
    private var nodes = [Node()]
    private var fixed: [Int: [ByteKey: [Int]]] = [:]
    private var prefixes: [Int: (lengths: [Int], rules: [ByteKey: [Int]])] = [:]
    private var byName: [ByteKey: [Int]] = [:]
    private var byExtension: [ByteKey: [Int]] = [:]
    /// Cheap pre-checks before hashing a segment: most segments are no key at all.
    private var nameFilter = KeyFilter()
    private var extensionFilter = KeyFilter()
    private var fixedFilter = KeyFilter()
    private var rest: [Int] = []
    /// The earlier lines of a pattern written more than once, by the index of its last line.
    private(set) var duplicates: [Int: [Int]] = [:]
    private var sizes: [Bucket: Int] = [:]

    /// The longest literal start of a wildcard segment used as a key.
    private static let longestPrefix = 8

    init(_ patterns: [CodeOwnersPattern]) {
        var last: [[UInt8]: Int] = [:]
        for (index, pattern) in patterns.enumerated() { last[Array(pattern.text.utf8)] = index }
        for (index, pattern) in patterns.enumerated() {
            let final = last[Array(pattern.text.utf8)]!
            if final != index {
                duplicates[final, default: []].append(index)
                continue
            }
            insert(index, pattern)
        }
    }

    /// The newest rule that matches `segments`, by `matches`: each bucket the path hits is walked from its newest
    /// rule down and only while its rules are newer than the best match so far, so nothing is gathered, sorted
    /// or allocated, and a broad rule late in the file ends the search at once.
    func newestMatch(_ segments: [ArraySlice<UInt8>], _ matches: (Int) -> Bool) -> Int? {
        var best = -1
        forEachBucket(segments) { rules in
            for index in rules.reversed() {
                if index <= best { return }
                if matches(index) {
                    best = index
                    return
                }
            }
        }
        return best >= 0 ? best : nil
    }

    /// Indices of every distinct pattern that might match `segments` (each once, newest first).
    func candidates(_ segments: [ArraySlice<UInt8>]) -> [Int] {
        var found: [Int] = []
        forEachBucket(segments) { found += $0 }
        found.sort(by: >)
        // A bucket hit by two segments ("docs/docs/x") adds its rules twice.
        var previous = -1
        found.removeAll { index in
            defer { previous = index }
            return index == previous
        }
        return found
    }

    /// Calls `visit` with every bucket `segments` hit (each bucket's rules in file order).
    private func forEachBucket(_ segments: [ArraySlice<UInt8>], _ visit: ([Int]) -> Void) {
        visit(rest)
        visit(nodes[0].rules)
        var node = 0
        for segment in segments {
            guard let next = nodes[node].children[ByteKey(segment)] else { break }
            node = next
            visit(nodes[node].rules)
        }
        for (depth, segment) in segments.enumerated() {
            if fixedFilter.mayContain(segment), let atDepth = fixed[depth], let rules = atDepth[ByteKey(segment)] {
                visit(rules)
            }
            if !prefixes.isEmpty, let starts = prefixes[depth] {
                for length in starts.lengths where length <= segment.count {
                    if let rules = starts.rules[ByteKey(segment.prefix(length))] { visit(rules) }
                }
            }
            if nameFilter.mayContain(segment), let rules = byName[ByteKey(segment)] { visit(rules) }
            // By bytes, as patterns are matched: a dot followed by a combining mark is still a dot.
            if !byExtension.isEmpty, let dot = segment.lastIndex(of: PathBytes.dot),
                extensionFilter.mayContain(segment[(dot + 1)...]),
                let rules = byExtension[ByteKey(segment[(dot + 1)...])]
            {
                visit(rules)
            }
        }
    }

    private mutating func insert(_ index: Int, _ pattern: CodeOwnersPattern) {
        let segments = pattern.segments
        // The literal head, in the tree.
        var node = 0
        var head = 0
        while head < segments.count, let name = CodeOwnersIndex.literal(segments[head]) {
            if let next = nodes[node].children[ByteKey(name)] {
                node = next
            } else {
                nodes.append(Node())
                nodes[node].children[ByteKey(name)] = nodes.count - 1
                node = nodes.count - 1
            }
            head += 1
        }
        // Every other part a matching path must have, in order of preference when buckets are equally full.
        var options: [Bucket] = []
        if head >= 2 || (head == 1 && segments.count == 1) { options.append(.tree(node: node)) }
        var depth: Int? = 0
        var afterHead: [Bucket] = []
        var anywhere: [Bucket] = []
        for (position, segment) in segments.enumerated() {
            guard case .glob(let tokens, let suffix) = segment else {
                depth = nil
                continue
            }
            if let name = CodeOwnersIndex.literal(segment) {
                if let fixedDepth = depth, position >= head {
                    afterHead.append(.fixed(depth: fixedDepth, name: ByteKey(name)))
                } else if depth == nil {
                    anywhere.append(.name(ByteKey(name)))
                }
            } else {
                var start: [UInt8] = []
                for token in tokens {
                    guard case .literal(let byte) = token, start.count < CodeOwnersIndex.longestPrefix else { break }
                    start.append(byte)
                }
                if let fixedDepth = depth, !start.isEmpty {
                    afterHead.append(.prefix(depth: fixedDepth, start: ByteKey(start[...])))
                }
                if let dot = suffix.lastIndex(of: PathBytes.dot) {
                    anywhere.append(.fileExtension(ByteKey(suffix[(dot + 1)...])))
                }
            }
            depth = depth.map { $0 + 1 }
        }
        options += afterHead.reversed() + anywhere
        if head >= 1 { options.append(.tree(node: node)) }
        let bucket = options.min { (sizes[$0] ?? 0) < (sizes[$1] ?? 0) } ?? .rest
        sizes[bucket, default: 0] += 1
        switch bucket {
        case .tree(let node): nodes[node].rules.append(index)
        case .fixed(let depth, let name):
            fixed[depth, default: [:]][name, default: []].append(index)
            fixedFilter.insert(name.bytes)
        case .prefix(let depth, let start):
            var entry = prefixes[depth] ?? ([], [:])
            if !entry.lengths.contains(start.bytes.count) { entry.lengths.append(start.bytes.count) }
            entry.rules[start, default: []].append(index)
            prefixes[depth] = entry
        case .name(let name):
            byName[name, default: []].append(index)
            nameFilter.insert(name.bytes)
        case .fileExtension(let ext):
            byExtension[ext, default: []].append(index)
            extensionFilter.insert(ext.bytes)
        case .rest: rest.append(index)
        }
    }

    /// The segment's bytes when it has no wildcard (it then matches only a path segment spelled exactly so).
    private static func literal(_ segment: CodeOwnersPattern.Segment) -> ArraySlice<UInt8>? {
        guard case .glob(let tokens, _) = segment else { return nil }
        var bytes: [UInt8] = []
        for token in tokens {
            guard case .literal(let byte) = token else { return nil }
            bytes.append(byte)
        }
        return bytes[...]
    }
}

/// Bytes as a dictionary key, hashed in one call (an `ArraySlice` hashes byte by byte) and compared exactly.
struct ByteKey: Hashable, Sendable {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    static func == (one: ByteKey, other: ByteKey) -> Bool { one.bytes.elementsEqual(other.bytes) }
}

/// A set of byte strings told apart by length and first byte: `mayContain` is false for most strings that are
/// no key, in a few instructions, so the dictionary is hashed only for likely hits.
struct KeyFilter: Sendable {
    private var lengths: UInt64 = 0
    private var firstBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    mutating func insert(_ key: ArraySlice<UInt8>) {
        lengths |= 1 << UInt64(min(key.count, 63))
        let byte = key.first ?? 0
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: firstBytes.0 |= bit
        case 1: firstBytes.1 |= bit
        case 2: firstBytes.2 |= bit
        default: firstBytes.3 |= bit
        }
    }

    func mayContain(_ key: ArraySlice<UInt8>) -> Bool {
        guard lengths & (1 << UInt64(min(key.count, 63))) != 0 else { return false }
        let byte = key.first ?? 0
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return firstBytes.0 & bit != 0
        case 1: return firstBytes.1 & bit != 0
        case 2: return firstBytes.2 & bit != 0
        default: return firstBytes.3 & bit != 0
        }
    }
}
