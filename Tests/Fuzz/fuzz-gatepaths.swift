import CodeOwnership

/// libFuzzer entry: owners of random byte paths (invalid UTF-8, combining marks after "/", NFC/NFD twins,
/// control bytes) must equal a naive byte-wise matcher's, written here independently of the index and of
/// the position-set matcher: recursive, on raw bytes, with `?` as one UTF-8 scalar.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // First line: a few patterns (space-separated, ASCII plus whatever bytes came); the rest: paths.
    let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    guard let head = lines.first else { return 0 }
    let patterns = head.split(separator: 0x20).prefix(6).map { String(decoding: $0, as: UTF8.self) }
    let text = patterns.enumerated().map { "\($0.element) @o\($0.offset)" }.joined(separator: "\n")
    let owners = CodeOwners(text: text)
    for path in lines.dropFirst().prefix(8) {
        let path = Array(path)
        let got = owners.ownership(ofBytes: path)
        let naive = owners.rules.last { naiveMatch($0.pattern.text, path) }
        if got.line != naive?.line { fatalError("index \(got.line ?? 0) vs naive \(naive?.line ?? 0) for \(path)") }
    }
    return 0
}

/// GitHub's rules, the slow obvious way: segments by "/" bytes, `**` tried at every split.
func naiveMatch(_ pattern: String, _ path: [UInt8]) -> Bool {
    let text = Array(pattern.utf8)
    let segments = path.split(separator: 0x2F).filter { !($0.count == 1 && $0.first == 0x2E) }.map(Array.init)
    guard !segments.isEmpty else { return false }
    // (byte, escaped) pairs; an escape is kept in the segment as "\x" for the segment matcher.
    var tokens: [(byte: UInt8, escaped: Bool)] = []
    var index = 0
    while index < text.count {
        if text[index] == 0x5C, index + 1 < text.count {
            tokens.append((text[index + 1], true))
            index += 2
        } else {
            tokens.append((text[index], false))
            index += 1
        }
    }
    let directoryOnly = tokens.last.map { $0.byte == 0x2F && !$0.escaped } ?? false
    if directoryOnly { tokens.removeLast() }
    var parts: [[UInt8]] = [[]]
    var anchored = false
    for token in tokens {
        if token.byte == 0x2F && !token.escaped {
            anchored = true
            parts.append([])
        } else {
            parts[parts.count - 1] += token.escaped ? [0x5C, token.byte] : [token.byte]
        }
    }
    if parts.first?.isEmpty == true, anchored { parts.removeFirst() }
    if parts.contains(where: \.isEmpty) { return false }
    if !anchored { parts.insert([0x2A, 0x2A], at: 0) }
    let loneStar = parts.last == [0x2A]
    let trailingDoubleStar = anchored && parts.last == [0x2A, 0x2A]
    func walk(_ p: Int, _ s: Int) -> Bool {
        if p == parts.count {
            if s == segments.count { return !directoryOnly }
            return s > 0 && (directoryOnly || !loneStar)
        }
        if parts[p] == [0x2A, 0x2A] {
            let minimum = (p == parts.count - 1 && trailingDoubleStar) ? 1 : 0
            guard s + minimum <= segments.count else { return false }
            return (s + minimum...segments.count).contains { walk(p + 1, $0) }
        }
        return s < segments.count && glob(parts[p][...], segments[s][...]) && walk(p + 1, s + 1)
    }
    return walk(0, 0)
}

/// One segment: `*` any bytes, `?` one UTF-8 scalar, `\x` the byte x; recursive.
func glob(_ pattern: ArraySlice<UInt8>, _ name: ArraySlice<UInt8>) -> Bool {
    guard let first = pattern.first else { return name.isEmpty }
    switch first {
    case 0x2A: return (name.startIndex...name.endIndex).contains { glob(pattern.dropFirst(), name[$0...]) }
    case 0x3F:
        guard let lead = name.first else { return false }
        var length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : 1
        if length > name.count || name.dropFirst().prefix(length - 1).contains(where: { $0 & 0xC0 != 0x80 }) {
            length = 1
        }
        return glob(pattern.dropFirst(), name.dropFirst(length))
    case 0x5C where pattern.count > 1:
        return name.first == pattern[pattern.startIndex + 1] && glob(pattern.dropFirst(2), name.dropFirst())
    default: return name.first == first && glob(pattern.dropFirst(), name.dropFirst())
    }
}
