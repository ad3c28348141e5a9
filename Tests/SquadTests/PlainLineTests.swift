import Testing

@testable import SquadKit

/// `squad owners -` decides which lines need no resolving sixteen bytes at a time; it must answer exactly as the
/// byte-at-a-time rule it replaced, at every length and wherever the "/", "." and odd bytes fall.
@Suite struct PlainLineTests {
    /// The rule, one byte at a time: relative, no empty, "." or ".." segment, no trailing "/", printable ASCII
    /// without `"` or `\`; a file when the last segment has a dot.
    static func byByte(_ bytes: [UInt8]) -> PlainLine? {
        guard let first = bytes.first, first != UInt8(ascii: "/"), bytes.last != UInt8(ascii: "/") else { return nil }
        var length = 0
        var onlyDots = true
        var dotInSegment = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if length == 0 || onlyDots && length <= 2 { return nil }
                (length, onlyDots, dotInSegment) = (0, true, false)
            } else {
                if byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return nil }
                length += 1
                if byte == UInt8(ascii: ".") { dotInSegment = true } else { onlyDots = false }
            }
        }
        guard !(onlyDots && length <= 2) else { return nil }
        return dotInSegment ? .file : .dotless
    }

    static func classify(_ bytes: [UInt8]) -> PlainLine? { bytes.withUnsafeBufferPointer { PlainLine($0) } }

    @Test func examples() {
        let cases: [(String, PlainLine?)] = [
            ("Modules/Payments/Pay.swift", .file), ("Makefile", .dotless), (".github/CODEOWNERS", .dotless),
            ("a/.gitignore", .file), ("a/..b/c", .dotless), ("./a.swift", nil), ("a/../b.swift", nil),
            ("a//b.swift", nil), ("a/b/", nil), ("/a.swift", nil), ("..", nil), (".", nil), ("a/.", nil),
            ("a/b c.md", .file), ("a\"b.md", nil), ("a\\b.md", nil), ("caf\u{E9}.md", nil),
            ("very/long/path/with/many/segments/and/a/../in/the/middle.swift", nil),
            ("very/long/path/with/many/segments/and/no/dots/in/the/middle/Makefile", .dotless),
            ("very/long/path/with/many/segments/and/a/./in/the/middle.swift", nil),
            ("very/long/path/with/many/segments/and/a/tab\there.swift", nil),
            ("0123456789abcdef/..", nil), ("0123456789abcdef/.x", .file), ("0123456789abcde/.", nil),
        ]
        for (line, expected) in cases {
            #expect(Self.classify(Array(line.utf8)) == expected, "\(line)")
        }
    }

    @Test func answersAsTheByteAtATimeRuleOnRandomLines() {
        // Few bytes, chosen to fall on every edge: "/" and "." runs, each kind of odd byte, at every offset.
        let alphabet: [UInt8] = [0x61, 0x62, 0x2F, 0x2F, 0x2E, 0x2E, 0x20, 0x7E, 0x22, 0x5C, 0x1F, 0x7F, 0x80, 0xFF]
        var generator = SystemRandomNumberGenerator()
        var plain = 0
        for _ in 0..<40_000 {
            var line = (0..<Int.random(in: 1...70, using: &generator)).map { _ in
                // Mostly ordinary letters, so long plain lines are common too.
                Int.random(in: 0..<4, using: &generator) == 0
                    ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0x61...0x7A, using: &generator)
            }
            if Int.random(in: 0..<3, using: &generator) == 0 {
                line = line.map { $0 == 0x2F || $0 == 0x2E || $0 >= 0x61 ? $0 : 0x61 }
            }
            let expected = Self.byByte(line)
            if expected != nil { plain += 1 }
            #expect(Self.classify(line) == expected, "\(line)")
        }
        #expect(plain > 2_000, "the random lines must hold plain ones too")
    }
}
