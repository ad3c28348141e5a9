import CodeOwnership
import Testing

/// GitHub's CODEOWNERS pattern rules, case by case: (pattern, path, matches).
@Suite struct PatternTests {
    static let cases: [(String, String, Bool)] = [
        // `*` alone: everything, at any depth.
        ("*", "README.md", true), ("*", "a/b/c.swift", true),
        // No slash: any depth; also everything below a matching directory.
        ("*.js", "app.js", true), ("*.js", "src/deep/app.js", true), ("*.js", "app.jsx", false),
        ("docs", "docs/a.md", true), ("docs", "src/docs/a.md", true), ("docs", "docs", true),
        ("docs", "mydocs/a", false),
        // Trailing slash only: any depth, contents only.
        ("apps/", "apps/x.swift", true), ("apps/", "src/apps/x/y.swift", true), ("apps/", "apps", false),
        // A leading slash anchors at the root.
        ("/build/logs/", "build/logs/a.log", true), ("/build/logs/", "x/build/logs/a.log", false),
        ("/docs", "docs/x", true), ("/docs", "a/docs/x", false),
        // A slash in the middle anchors too.
        ("docs/guide", "docs/guide/a.md", true), ("docs/guide", "x/docs/guide/a.md", false),
        // `dir/*` is one level only.
        ("docs/*", "docs/getting-started.md", true), ("docs/*", "docs/build-app/troubleshooting.md", false),
        ("/docs/*", "docs/a", true),
        // `*` stays within a segment.
        ("/Modules/*/README.md", "Modules/Core/README.md", true),
        ("/Modules/*/README.md", "Modules/a/b/README.md", false),
        ("/orders/*/payment.json", "orders/1234/payment.json", true),
        ("/orders/*/payment.json", "orders/1/x/payment.json", false),
        // `**/` at the start and `/**/` in the middle: zero or more directories.
        ("**/logs", "logs/a", true), ("**/logs", "x/y/logs/a", true), ("**/logs", "x/logsy/a", false),
        ("a/**/b", "a/b", true), ("a/**/b", "a/x/b", true), ("a/**/b", "a/x/y/b/c", true), ("a/**/b", "b", false),
        // A trailing `/**` needs at least one more segment.
        ("docs/**", "docs/a", true), ("docs/**", "docs/a/b", true), ("docs/**", "docs", false),
        // `?` is one non-slash character.
        ("file?.txt", "file1.txt", true), ("file?.txt", "file12.txt", false), ("a?b", "a/b", false),
        // Escapes make specials literal.
        ("\\#notes", "#notes", true), ("\\*.md", "*.md", true), ("\\*.md", "a.md", false), ("a\\ b", "a b", true),
        ("\\[x\\]", "[x]", true),
        // Case-sensitive.
        ("/Modules/Payments/", "modules/payments/a.swift", false), ("*.MD", "readme.md", false),
    ]

    @Test(arguments: cases.indices)
    func githubRule(index: Int) throws {
        let (pattern, path, expected) = Self.cases[index]
        #expect(try CodeOwnersPattern(pattern).matches(path) == expected, "'\(pattern)' vs '\(path)'")
    }

    @Test(arguments: [
        ("!docs", 0, "'!' negation is not supported by GitHub"),
        ("src/[ab].swift", 4, "'[' ranges are not supported by GitHub; escape it as '\\['"),
        ("a/***", 2, "'***' is not a valid pattern"),
        ("a//b", 0, "pattern has an empty path segment ('//')"),
        ("a\\", 1, "pattern ends with a lone '\\'"),
    ])
    func unsupportedSyntaxIsAnError(pattern: String, offset: Int, message: String) {
        #expect(throws: PatternError(offset: offset, message: message)) { try CodeOwnersPattern(pattern) }
    }
}

@Suite struct CodeOwnersFileTests {
    let owners = CodeOwners(
        text: """
            # comment line
            *                       @courier/platform

            /Modules/Payments/      @courier/payments   # trailing comment
            *.md                    @courier/docs docs@example.com
            /Modules/Payments/generated/
            !secret                 @courier/x
            /Modules/Order/  @courier/order @not/valid/team
            /Modules/Location/      @courier/location
            """)

    @Test func lastMatchingLineWinsAndOwnersAreNotMerged() {
        #expect(owners.ownership(of: "Modules/Payments/A.swift") == .init(owners: ["@courier/payments"], line: 4))
        #expect(
            owners.ownership(of: "Modules/Payments/README.md")
                == .init(owners: ["@courier/docs", "docs@example.com"], line: 5))
        #expect(owners.ownership(of: "Package.swift") == .init(owners: ["@courier/platform"], line: 2))
    }

    @Test func aLineWithoutOwnersUnownsWhichDiffersFromNoMatch() {
        #expect(owners.ownership(of: "Modules/Payments/generated/X.swift") == .init(owners: [], line: 6))
        #expect(CodeOwners(text: "/a/ @x").ownership(of: "b/c") == .init(owners: [], line: nil))
    }

    @Test func invalidLinesAreReportedWithLineAndColumnAndSkipped() {
        #expect(
            owners.issues == [
                .init(line: 7, column: 1, message: "'!' negation is not supported by GitHub"),
                .init(
                    line: 8, column: 33, message: "'@not/valid/team' is not an owner (use @user, @org/team or an email)"
                ),
            ])
        #expect(
            owners.ownership(of: "Modules/Order/X.swift").owners == ["@courier/platform"], "the invalid line is skipped"
        )
        #expect(
            owners.ownership(of: "Modules/Location/X.swift").owners == ["@courier/location"], "the rest still applies")
    }

    @Test(arguments: [
        "@user", "@org/team-name", "@a-b/c_d.e", "dev@example.com", "first.last+tag@example.com",
        "o'brien@example.ie", "x@mail.example-one.co.uk", "a!#$%&*/=?^_`{|}~-z@example.com", "1@2.io",
        "DEV@Example.COM", String(repeating: "a", count: 64) + "@example.com",
    ])
    func validOwners(owner: String) { #expect(CodeOwners.isValidOwner(owner)) }

    @Test(arguments: [
        "user", "@", "@org/", "@a/b/c", "a@b", "@us er", "x@@y.z", ".a@example.com", "a.@example.com",
        "a..b@example.com", "a@-example.com", "a@example-.com", "a@example..com", "a@.example.com",
        "a@example.com.", "\"a b\"@example.com", "a@[127.0.0.1]", "é@example.com", "a@exämple.com",
        String(repeating: "a", count: 65) + "@example.com", "a@" + String(repeating: "b", count: 64) + ".com",
    ])
    func invalidOwners(owner: String) { #expect(!CodeOwners.isValidOwner(owner)) }

    /// `/` alone names no file: said in GitHub's terms, with what to write instead (not "an empty path segment").
    @Test func aPatternThatNamesNoFileSaysSo() {
        for pattern in ["/", "//"] {
            let owners = CodeOwners(text: "\(pattern) @x\n")
            #expect(
                owners.issues.map(\.description) == [
                    "1:1: '\(pattern)' is not a valid pattern: it names no file (GitHub matches nothing); write '*' for every file or '/DIR/' for a folder"
                ])
        }
    }

    /// A valid e-mail owner is an owner: its line applies instead of being skipped for an earlier rule.
    @Test func anEmailWithAPlusTagOwnsItsFiles() {
        let owners = CodeOwners(text: "* @courier/platform\n/docs/ first.last+docs@example.com\n")
        #expect(owners.issues.isEmpty)
        #expect(owners.ownership(of: "docs/guide.md") == .init(owners: ["first.last+docs@example.com"], line: 2))
    }

    @Test func garbageLinesAreReportedOneByOneAndTheRestStillParses() {
        let garbage = [
            "\u{0}\u{1}", String(repeating: "*", count: 500), "\\", "# only", "   ", "[[[", "a b c d \\", "\r\n\r\n",
            "/ok/ @team",
        ]
        let parsed = CodeOwners(text: garbage.joined(separator: "\n"))
        #expect(
            parsed.issues.map(\.description) == [
                "2:1: '***' is not a valid pattern", "3:1: pattern ends with a lone '\\'",
                "6:1: '[' ranges are not supported by GitHub; escape it as '\\['",
                "7:3: 'b' is not an owner (use @user, @org/team or an email)",
            ])
        #expect(parsed.rules.map(\.line) == [1, 11])
        #expect(parsed.ownership(of: "ok/file") == .init(owners: ["@team"], line: 11))
    }

    @Test func windowsLineEndingsAreLinesToo() {
        let parsed = CodeOwners(text: "/a/ @x\r\n/b/ @y\r\n")
        #expect(parsed.rules.map(\.line) == [1, 2])
        #expect(parsed.ownership(of: "b/file").owners == ["@y"])
    }
}

@Suite struct OwnershipIndexTests {
    /// The index must never change an answer: compare against trying every rule, newest first, on random files
    /// built from every shape the index sorts rules by (literal heads, `**/name`, `*.ext`, the rest).
    @Test func indexedLookupAgreesWithTheNaiveScan() throws {
        let patterns = [
            "*", "/a/", "a/", "/a/*", "/a/**/c", "*.md", "/b/*.md", "b/c/", "/c/d/e", "**/d", "/a/b/", "?/x", "/a/b/**",
            "/b/", "c", "**/r.md", "**/*.md", "d/**", "/*/c/", "*.d.md", "**/a/b", "r.md", "*md", "/a/b/c/*.md", "*.",
            "/x.md/", "**", "/a/**", "e\u{301}.md", "*.\u{301}md",
            // Shapes the index sorts by a fixed-depth name, a wildcard segment's start, a name after `**`.
            "/a/*/c/*.md", "/*/b/", "/a/b*/", "/a/x?/c", "/b/*/d*", "**/c/**/*.md", "/a/**/d/**/*.d.md", "/x*",
            "/a/*/*/r.md", "/a/r?md", "d*/", "/c/d/**/*.", "/a/*/c/*.md",
            // Shapes the index keys by a literal inside a wildcard segment, found by the scanner.
            "*ab*", "xa*", "**/x*d*/", "*.d*", "/a/**/*b1*", "*d.m*", "?a*", "*e\u{301}*", "ab*/", "/b/*xab*.md",
            "*abab*", "*ba?a*",
            // Shapes keyed by a wildcard segment's literal start at any depth, found by the anchored scanner.
            "xab*", "**/ab*/**/*.md", "aba*", "e\u{301}x*", "/a/**/xa*", "x.*", "ab?*d.md",
            // Shapes matched by numbered segments: an extension that is also a folder's name, a lone `*`.
            "*.md/", "*/", "/a/*/", "**/md/", "md", "/*", "a/*/c", "*.d",
        ]
        let names = [
            "a", "b", "c", "d", "x", "r.md", "x.d.md", "x.", "e\u{301}.md", "e\u{E9}.md", "y.\u{301}md", "b1", "xa",
            "d.md", "x1", "xab", "abab", "xabd.md", "ab", "babab", "xd", "e\u{301}x", "md", ".md", "a.md.d",
        ]
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var compared = 0
        for _ in 0..<200 {
            let lines = (0..<(1 + next(16))).map { _ in "\(patterns[next(patterns.count)]) @t\(next(5))" }
            let owners = CodeOwners(text: lines.joined(separator: "\n"))
            for _ in 0..<40 {
                let path = (0..<(1 + next(5))).map { _ in names[next(names.count)] }.joined(separator: "/")
                let naive = owners.rules.filter { $0.pattern.matches(path) }
                #expect(
                    owners.ownership(of: path) == .init(owners: naive.last?.owners ?? [], line: naive.last?.line),
                    "\(lines) \(path)")
                #expect(owners.matchingRules(of: path) == naive, "\(lines) \(path)")
                compared += 1
            }
        }
        #expect(compared == 8000)
    }

    /// A lookup gathers the buckets a path hits in room for 80 on the stack; a path that hits more (here 90 to
    /// 150 literals inside one name) is looked up again with room for all, and still finds the newest match.
    @Test func aPathHittingMoreBucketsThanTheFirstRoomHoldsFindsTheNewestMatch() {
        let lines = (0..<150).map { "*k\($0)y* @t\($0)" } + ["/other/ @late"]
        let owners = CodeOwners(text: lines.joined(separator: "\n"))
        for hits in [90, 120, 149, 150] {
            let path = "src/" + (0..<hits).map { "k\($0)y" }.joined() + ".txt"
            let naive = owners.rules.filter { $0.pattern.matches(path) }
            #expect(naive.count == hits)
            #expect(owners.ownership(of: path) == .init(owners: ["@t\(hits - 1)"], line: hits))
            #expect(owners.matchingRules(of: path) == naive)
        }
    }
}
