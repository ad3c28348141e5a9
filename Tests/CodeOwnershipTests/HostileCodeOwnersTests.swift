import CodeOwnership
import Testing

/// CODEOWNERS files and paths written to confuse: each case once slipped through or hung.
@Suite struct HostileCodeOwnersTests {
    @Test func repeatedDoubleStarsStayLinear() throws {
        // 16 `**/` segments then a literal against a 30-level path that never matches: exponential backtracking
        // took 6 s at 8 segments; position sets make it instant.
        let pattern = try CodeOwnersPattern(String(repeating: "**/", count: 16) + "needle")
        let path = (0..<30).map { "d\($0)" }.joined(separator: "/")
        #expect(!pattern.matches(path))
        #expect(pattern.matches(path + "/needle"))
        let spread = try CodeOwnersPattern("/a/**/b/**/c/**/d/**/e/**/f/**/g/**/h/**/z")
        #expect(!spread.matches(String(repeating: "a/b/c/d/e/f/g/h/", count: 4) + "y"))
        #expect(spread.matches(String(repeating: "a/b/c/d/e/f/g/h/", count: 4) + "z"))
    }

    @Test func aByteOrderMarkDoesNotStickToTheFirstPattern() {
        let owners = CodeOwners(text: "\u{FEFF}/secure/ @org/sec\n")
        #expect(owners.ownership(of: "secure/a").owners == ["@org/sec"])
        #expect(owners.notes.map(\.line) == [1])
        #expect(owners.notes.first?.message.contains("byte-order mark") == true)
    }

    @Test func escapingAHashIsRefusedAsGitHubDocuments() {
        let owners = CodeOwners(text: "* @org/all\n\\#notes @org/sec\n")
        #expect(owners.issues.map(\.line) == [2])
        #expect(owners.issues.first?.message.contains("does not escape '#'") == true)
        #expect(owners.ownership(of: "#notes").owners == ["@org/all"])
    }

    @Test(arguments: ["\u{0C}", "\u{0B}", "\u{85}", "\u{2028}", "\u{2029}"])
    func onlyANewlineEndsALine(separator: String) {
        // "/a/ @x<FF>/secure/ @org/sec" is one line: its second "rule" is an owner token, not a rule.
        let owners = CodeOwners(text: "/a/ @x\(separator)/secure/ @org/sec\n/b/ @y\r\n")
        #expect(owners.rules.map(\.line) == [2], "\(owners.rules.map(\.line))")
        #expect(owners.ownership(of: "secure/file").owners.isEmpty)
        #expect(owners.ownership(of: "b/file").owners == ["@y"])
        #expect(owners.notes.map(\.line) == [1])
    }

    @Test func invalidUTF8PathBytesAreMatchedAsBytes() {
        let owners = CodeOwners(text: "* @org/all\n/secure/ @org/sec\n")
        #expect(owners.ownership(ofBytes: Array("secure/".utf8) + [0xFF, 0x2F, 0x78]).owners == ["@org/sec"])
        #expect(owners.ownership(ofBytes: [0xFF, 0x2F] + Array("secure/x".utf8)).owners == ["@org/all"])
    }

    @Test func questionMarkTakesOneScalarWhateverItsLength() throws {
        #expect(try CodeOwnersPattern("/caf?.txt").matches("caf\u{E9}.txt"))
        #expect(try !CodeOwnersPattern("/caf?.txt").matches("cafe\u{301}.txt"))
        #expect(try CodeOwnersPattern("/caf??.txt").matches("cafe\u{301}.txt"))
        #expect(try CodeOwnersPattern("/?").matches("\u{1F355}"))
    }

    @Test func quotedPathsFollowGit() {
        #expect(PathBytes.quoted("Modules/Pay.swift") == "Modules/Pay.swift")
        #expect(PathBytes.quoted("a\tb\n\"c\\") == "\"a\\tb\\n\\\"c\\\\\"")
        #expect(PathBytes.quoted("caf\u{E9}") == "\"caf\\303\\251\"")
        #expect(PathBytes.quoted("\u{1B}[2J") == "\"\\033[2J\"")
    }

    @Test func gitQuotedLinesReadBackToTheirBytes() {
        #expect(PathBytes.unquoted(#""caf\303\251.md""#.utf8) == Array("caf\u{E9}.md".utf8))
        #expect(
            PathBytes.unquoted(#""a\377b\t\"c\\\a\b\f\n\r\v""#.utf8) == [
                97, 255, 98, 9, 34, 99, 92, 7, 8, 12, 10, 13, 11,
            ])
        // Every byte but NUL, in random names, comes back from git's quoting unchanged.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let name = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                UInt8.random(in: 1...255, using: &generator)
            }
            var quoted: [UInt8] = []
            name.withUnsafeBufferPointer { PathBytes.appendQuoted($0, to: &quoted) }
            if quoted.first == 0x22 { #expect(PathBytes.unquoted(quoted) == name, "\(quoted)") }
        }
        // Not git's quoting: no opening or closing quote, text after it, an unknown or short escape, a NUL, a
        // value over a byte.
        for bad in [
            #"a.md"#, #""a.md"#, #""a"b""#, #""a\x41""#, #""a\30""#, #""a\3""#, #""a\000""#, #""\400""#, #""a\""#,
        ] {
            #expect(PathBytes.unquoted(bad.utf8) == nil, "\(bad)")
        }
    }
}

@Suite struct DeepPathTests {
    /// Paths deeper than the matcher's 63-segment bit mask take the array path and answer the same.
    @Test func deepPathsMatchLikeShallowOnes() throws {
        for depth in [62, 63, 64, 100] {
            let folders = (0..<depth).map { "d\($0)" }
            let path = folders.joined(separator: "/") + "/x.swift"
            #expect(try CodeOwnersPattern("*.swift").matches(path), "\(depth)")
            #expect(try CodeOwnersPattern("/d0/**/x.swift").matches(path), "\(depth)")
            #expect(try CodeOwnersPattern("**/d\(depth - 1)/").matches(path), "\(depth)")
            #expect(try !CodeOwnersPattern("/d0/*/x.swift").matches(path), "\(depth)")
            #expect(try CodeOwnersPattern("/d0/**").matches(path), "\(depth)")
            #expect(try !CodeOwnersPattern("/d1/**").matches(path), "\(depth)")
        }
    }

    /// A path of a hundred folders, each of which a rule names (at any depth, at its own depth, by a literal
    /// start and by extension): the lookup visits hundreds of buckets and still gives the last matching line.
    @Test func deepPathsHittingEveryBucketAnswerTheLastMatchingLine() {
        let depth = 100
        var lines: [String] = []
        for level in 0..<depth {
            lines += [
                "d\(level)/ @n\(level)", "/*/d\(level)x/ @f\(level)", "/d\(level)*/ @p\(level)",
                "*.e\(level) @e\(level)",
            ]
        }
        let owners = CodeOwners(text: lines.joined(separator: "\n"))
        for end in [1, 40, 64, depth] {
            let path = (0..<end).map { "d\($0)" }.joined(separator: "/") + "/f.e\(end / 2)"
            let naive = owners.rules.last { $0.pattern.matches(path) }
            #expect(owners.ownership(of: path).line == naive?.line, "\(end)")
            #expect(owners.ownership(of: path).owners == (naive?.owners ?? []), "\(end)")
        }
    }
}
