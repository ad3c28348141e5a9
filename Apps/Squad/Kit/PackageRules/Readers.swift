import CodeOwnership
import Foundation

/// `.ci/readers`: the files a test reads that no target compiles (CODEOWNERS, teams.json, fixtures, READMEs), and
/// which test targets read each, so `squad affected` runs exactly those for such a change. A changed file that no
/// target holds and no line names affects every target (fail closed): the table is where a new one is declared.
public struct Readers: Sendable, Equatable {
    /// One line: a pattern and the test targets that read what it matches.
    public struct Line: Sendable, Equatable {
        /// Path segments; `*` matches any one segment.
        public let segments: [String]
        /// The pattern ended in "/": it matches everything below the folder.
        public let isFolder: Bool
        /// Test target names, or suites (`OrderTrackingTests.ScreenCompositionTests`) where only those of the
        /// target read the file; ``Readers/own`` stands for the tests of the target holding the file.
        public let tests: [String]
        /// The pattern as written, for the reason printed.
        public let pattern: String
    }

    /// The table's lines, in file order; the first that matches a path answers for it.
    public let lines: [Line]

    /// The word standing for the test targets that depend directly on the target holding the file (its own tests).
    public static let own = "own"
    /// Where the table lives, relative to the repository root.
    public static let path = ".ci/readers"

    /// Reads the table's text: `PATTERN<TAB>TESTS` a line (TESTS space-separated, or `-` for none), `#` comments.
    public init(text: String) {
        lines = text.split(separator: "\n").compactMap { raw in
            guard !raw.hasPrefix("#") else { return nil }
            let fields = raw.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2, !fields[0].isEmpty else { return nil }
            let tests = fields[1].split(separator: " ").map(String.init).filter { $0 != "-" }
            let pattern = fields[0]
            return Line(
                segments: pattern.split(separator: "/").map(String.init), isFolder: pattern.hasSuffix("/"),
                tests: tests, pattern: pattern)
        }
    }

    /// No table: every file outside a target affects everything.
    public init() { lines = [] }

    /// The first line whose pattern matches `path` (compared as bytes, segment by segment).
    public func line(for path: String) -> Line? {
        let parts = path.utf8.split(separator: UInt8(ascii: "/")).map(Array.init)
        return lines.first { line in
            guard line.isFolder ? parts.count > line.segments.count : parts.count == line.segments.count else {
                return false
            }
            return zip(line.segments, parts).allSatisfy { $0 == "*" || Array($0.utf8) == $1 }
        }
    }
}
