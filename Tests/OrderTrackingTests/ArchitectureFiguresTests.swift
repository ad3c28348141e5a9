import ComponentWorkers
import Foundation
import HostComposition
import Testing

@testable import ScreenRuntime

/// ARCHITECTURE.md is the map, the rules, the vocabulary and the diagrams, short enough to be read whole and true
/// (issue 67: 493 lines, and a third of the claims sampled three turns running were false). Every number in it is
/// one of the figures below, each asserted against what it counts; mechanisms are explained next to their code.
@Suite struct ArchitectureFiguresTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static let lineLimit = 300

    @Test func theMapIsAtMostThreeHundredLines() throws {
        let lines = try Self.text("ARCHITECTURE.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= Self.lineLimit, "ARCHITECTURE.md is \(lines.count) lines")
    }

    /// Each number written in ARCHITECTURE.md (section and step numbers aside), with what asserts it.
    @Test func everyNumberInTheMapIsAssertedHere() throws {
        let text = try Self.text("ARCHITECTURE.md")
        var written: Set<String> = []
        for line in text.split(separator: "\n") {
            // A heading's or a numbered step's own number is its place, not a figure.
            let body = String(line).replacing(try Regex(#"^(#+ )?\s*\d+\. "#), with: "")
            // Foundation's expressions: Swift's have no lookbehind.
            let number = try NSRegularExpression(pattern: #"(?<![\w/.§<{-])\d+(?:[.,]\d+)?(?![\w/>}])"#)
            for match in number.matches(in: body, range: NSRange(body.startIndex..., in: body)) {
                if let range = Range(match.range, in: body) { written.insert(String(body[range])) }
            }
        }
        let budget = try Self.text("Tests/CoreTests/CoreBudgetTests.swift")
        let asserted: [String: Bool] = [
            // "Core/ … (≤ 650 code lines, CoreBudgetTests)"
            "650": budget.contains("total <= 650"),
            // "a conflict in its own tables … one line, exit 1"
            "1": ExitCode.fatal.rawValue == 1,
            // "Linux with Landlock (ABI 3 or later)": below 3 a worker could still truncate a file it can read
            "3": WorkerProtection.missing(landlock: 3, seccomp: true).isEmpty
                && !WorkerProtection.missing(landlock: 2, seccomp: true).isEmpty,
        ]
        #expect(written == Set(asserted.keys), "numbers no test here asserts: \(written.subtracting(asserted.keys))")
        for (number, holds) in asserted { #expect(holds, "ARCHITECTURE.md's \(number) is no longer true") }
        // Figures written as words.
        #expect(text.contains("six rows") && StateMachine.table.count == 6)
    }

    /// Claims issue 67 found false, said as the code does them now.
    @Test func theClaimsFoundFalseAreNotMadeAgain() throws {
        let map = try Self.text("ARCHITECTURE.md")
        for false_ in ["Lazily", "lazily, on a module's first call", "starts the count over, not any call"] {
            #expect(!map.contains(false_), "ARCHITECTURE.md says '\(false_)' again")
        }
        #expect(map.contains("A component's `init` and its declarations still run in the\nhost"))
        #expect(map.contains("every\nmove of a card's machine"))
        let workers = try Self.text("Modules/ComponentWorkers/README.md")
        #expect(workers.contains("When a card's kernel is made\n  (`WorkerPool.kernel`"))
        // Issue 65: an errand's answer no longer starts a module's crash count over; only a card drawn does.
        #expect(!workers.contains("when any errand (a login hook) of the module answers"))
        #expect(workers.contains("The count starts over only when a card's info is drawn"))
        let readme = try Self.text("README.md")
        #expect(!readme.contains("when its first card loads"))
    }

    /// The shared libraries the README's layout and ARCHITECTURE.md §2 name are Package.swift's table, exactly.
    @Test func theSharedLibrariesNamedAreThePackagesTable() throws {
        let manifest = try Self.text("Package.swift")
        let start = try #require(manifest.range(of: "let sharedLibraries"))
        let end = try #require(manifest.range(of: "\n]\n", range: start.upperBound..<manifest.endIndex))
        let tableText = String(manifest[start.upperBound..<end.lowerBound])
        let names = try Regex(#"\(\s*"(\w+)""#, as: (Substring, Substring).self)
        let table = Set(tableText.matches(of: names).map { String($0.1) })
        #expect(table.count > 10, "\(table)")
        let readme = try Self.text("README.md").replacing("\n", with: " ").replacing(try Regex(" +"), with: " ")
        let list = try Regex(#"the `sharedLibraries` table: ([^)]*)\)"#, as: (Substring, Substring).self)
        let listed = try #require(readme.firstMatch(of: list))
        #expect(Set(listed.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) == table)
        let map = try Self.text("ARCHITECTURE.md")
        let shared = try Regex(#"\| shared library \(([^)]*)\)"#, as: (Substring, Substring).self)
        let row = try #require(map.firstMatch(of: shared))
        #expect(Set(row.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) == table)
    }
}
