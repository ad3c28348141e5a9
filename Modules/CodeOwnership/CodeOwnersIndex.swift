/// Which rules could own a path, found without trying every rule: a big monorepo's CODEOWNERS has a thousand
/// lines, most under `/Modules/…`, and a path can only match the few whose literal parts it contains.
///
/// Every rule sits in exactly one place, and a place is only a filter (candidates are then matched for real):
/// - anchored rules that start with literal segments, in a tree keyed by those segments (`/Modules/Pay/` under
///   Modules → Pay), gathered by walking the path down the tree;
/// - rules that start with `**` (or are unanchored) and then a literal segment, by that name: a path can only
///   match them if one of its segments has it (`docs/`, `**/Fixtures/`, `README.md`);
/// - the same with a glob whose literal end holds a dot, by the extension that end forces (`*.md` → "md");
/// - everything else (`*`, `/*/x`, `**/*-gen`), tried on every path.
struct CodeOwnersIndex: Sendable {
    private struct Node: Sendable {
        var children: [ArraySlice<UInt8>: Int] = [:]
        var rules: [Int] = []
    }
    private var nodes = [Node()]
    private var byName: [ArraySlice<UInt8>: [Int]] = [:]
    private var byExtension: [ArraySlice<UInt8>: [Int]] = [:]

    init(_ patterns: [CodeOwnersPattern]) {
        for (index, pattern) in patterns.enumerated() { insert(index, pattern) }
    }

    /// Indices of every rule that might match `segments` (each once, newest first).
    func candidates(_ segments: [ArraySlice<UInt8>]) -> [Int] {
        var found = nodes[0].rules
        var node = 0
        for segment in segments {
            guard let next = nodes[node].children[segment] else { break }
            node = next
            found += nodes[node].rules
        }
        if !byName.isEmpty || !byExtension.isEmpty {
            for segment in segments {
                if let rules = byName[segment] { found += rules }
                // By bytes, as patterns are matched: a dot followed by a combining mark is still a dot.
                if let dot = segment.lastIndex(of: PathBytes.dot), let rules = byExtension[segment[(dot + 1)...]] {
                    found += rules
                }
            }
        }
        found.sort(by: >)
        // A name or extension shared by two segments ("docs/docs/x") adds its rules twice.
        var previous = -1
        found.removeAll { index in
            defer { previous = index }
            return index == previous
        }
        return found
    }

    private mutating func insert(_ index: Int, _ pattern: CodeOwnersPattern) {
        var node = 0
        var position = 0
        while position < pattern.segments.count, let name = CodeOwnersIndex.literal(pattern.segments[position]) {
            if let next = nodes[node].children[name] {
                node = next
            } else {
                nodes.append(Node())
                nodes[node].children[name] = nodes.count - 1
                node = nodes.count - 1
            }
            position += 1
        }
        if node == 0, position == 0, pattern.segments.count >= 2, pattern.segments[0] == .anyDirectories {
            if let name = CodeOwnersIndex.literal(pattern.segments[1]) {
                byName[name, default: []].append(index)
                return
            }
            if case .glob(_, let suffix) = pattern.segments[1], let dot = suffix.lastIndex(of: PathBytes.dot) {
                byExtension[ArraySlice(suffix[(dot + 1)...]), default: []].append(index)
                return
            }
        }
        nodes[node].rules.append(index)
    }

    /// The segment's text when it has no wildcard (it then matches only a path segment spelled exactly so).
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
