import CoreTesting
import Foundation
import SquadKit
import Testing

/// `.ci/readers` is complete and precise: every repository file a test source names by path (a string literal,
/// `\(…)` standing for any text within a segment) that no target compiles is covered by a line naming that test's
/// target or one of the suites of the source naming it, so `squad affected` runs it when the file changes. A test
/// running the demo (the `order-tracking` binary or its kit's host) reads the host's fixture tree too (what it
/// reads of squads' trees goes through their endpoints, named by path where a suite depends on one). Swift sources
/// are compiled (their targets' tests run), and `.ci/`, `Scripts/`, `.swift-format` already run every test.
@Suite struct ReadersCoverageTests {
    static let root: URL = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root
    }()

    /// A source that runs the demo, by what it says: the binary by name, or the app kit's host.
    static let runsTheDemo = ["\"order-tracking\"", "CLI.run(", "InProcess.run(", "HostEnvironment.", "CLI.fixtures"]
    /// How a source reaches the repository's files: from its own path, CoreTesting's root, a suite's `root`.
    static let reachesTheRepository = ["#filePath", "repositoryRoot", ".root"] + runsTheDemo
    /// What every run of the demo reads: the host's screens and layouts.
    static let demoFile = "Apps/OrderTracking/Kit/Fixtures/api/screens/tracking.json"

    /// One uncovered read, as the failure says it.
    static func gaps(
        sources: [(path: String, text: String)], files: [String], readers: Readers
    ) -> [String] {
        let uncompiled = files.filter { file in
            !file.hasSuffix(".swift") && file != "Package.swift"
                && !Affected.everything.contains { $0.hasSuffix("/") ? file.hasPrefix($0) : file == $0 }
        }
        var gaps: [String] = []
        for source in sources {
            let parts = source.path.split(separator: "/")
            guard parts.count >= 3, parts[0] == "Tests" else { continue }
            let target = String(parts[1])
            // Only a source that reaches the repository reads it (others name paths as data: CODEOWNERS patterns).
            guard reachesTheRepository.contains(where: source.text.contains) else { continue }
            let suites = Self.suites(in: source.text)
            var read = Set<String>()
            for literal in literals(in: source.text) where literal.contains("/") || !literal.contains("*") {
                for file in uncompiled where covers(literal, file) { read.insert(file) }
            }
            if runsTheDemo.contains(where: source.text.contains), files.contains(demoFile) { read.insert(demoFile) }
            for file in read.sorted() {
                guard let line = readers.line(for: file) else {
                    gaps.append("\(source.path) reads \(file), which no line of \(Readers.path) names")
                    continue
                }
                let named = line.tests.contains { name in
                    name == target || (name == Readers.own && ownTests(of: file) == target)
                        || (name.hasPrefix(target + ".")
                            && (suites.isEmpty || suites.contains(String(name.dropFirst(target.count + 1)))))
                }
                if !named {
                    let who = suites.isEmpty ? target : suites.map { "\(target).\($0)" }.joined(separator: " or ")
                    gaps.append(
                        "\(source.path) reads \(file), but its line in \(Readers.path) (\(line.pattern)) names "
                            + "neither \(who)")
                }
            }
        }
        return gaps
    }

    /// The tests `own` stands for: those of the target holding `file` (`Modules/X/…` and `Apps/X/…`: XTests).
    static func ownTests(of file: String) -> String? {
        let parts = file.split(separator: "/")
        guard parts.count >= 3 else { return nil }
        if parts[0] == "Modules" || parts[0] == "Apps" { return parts[1] + "Tests" }
        return parts[0] == "Tests" ? String(parts[1]) : nil
    }

    /// The suites a source declares (`@Suite … struct Name`).
    static func suites(in text: String) -> Set<String> {
        let expression = try! NSRegularExpression(
            pattern: #"@Suite(?:\([^\n]*\))?\s*(?:(?:public|final)\s+)*(?:struct|class|enum|actor)\s+(\w+)"#)
        return Set(
            expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
                Range(match.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    /// Every string literal of `text` outside comments, each interpolation `\(…)` as `*`.
    static func literals(in text: String) -> [String] {
        let text = text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.drop { $0 == " " }.hasPrefix("//")
        }.joined(separator: "\n")
        let expression = try! NSRegularExpression(pattern: #""((?:[^"\\\n]|\\\((?:[^()\n]|\([^()\n]*\))*\)|\\.)*)""#)
        let interpolation = try! NSRegularExpression(pattern: #"\\\((?:[^()\n]|\([^()\n]*\))*\)"#)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range(at: 1), in: text) else { return nil }
            let literal = String(text[range])
            return interpolation.stringByReplacingMatches(
                in: literal, range: NSRange(literal.startIndex..., in: literal), withTemplate: "*")
        }
    }

    /// Whether `literal` names `file` or a folder holding it, segment by segment, `*` any text within one.
    static func covers(_ literal: String, _ file: String) -> Bool {
        let pattern = literal.split(separator: "/", omittingEmptySubsequences: true)
        let segments = file.split(separator: "/")
        // A path from the repository's root: its first segment is written out ("Modules/\(name)/Fixtures").
        guard !literal.hasPrefix("/"), let first = pattern.first, !first.contains("*"), pattern.count <= segments.count
        else { return false }
        // A lone name is a file at the root ("CODEOWNERS"). A folder read is named to a data folder below a
        // target's ("Modules/\(name)/Fixtures"): "Modules/Core" or "Tests/\(name)" names a target, and a last
        // segment that is only an interpolation names no file.
        if pattern.count == 1, segments.count > 1 { return false }
        if pattern.count == 2, ["Modules", "Tests", "Apps"].contains(first), segments.count > 2 { return false }
        if pattern.last == "*" { return false }
        return zip(pattern, segments).allSatisfy { glob(String($0), String($1)) }
    }

    private static func glob(_ pattern: String, _ text: String) -> Bool {
        let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard pieces.count > 1 else { return pattern == text }
        guard text.hasPrefix(pieces[0]), text.hasSuffix(pieces.last!),
            text.count >= pieces[0].count + pieces.last!.count
        else { return false }
        var rest = Substring(text.dropFirst(pieces[0].count).dropLast(pieces.last!.count))
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = rest.range(of: piece) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// The repository's files, without the build's and git's own folders.
    static func repositoryFiles() -> [String] {
        let skipped: Set<String> = [".build", ".git", ".swiftpm"]
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: root.path)
        while let path = walker?.nextObject() as? String {
            if skipped.contains(String(path.split(separator: "/").first ?? "")) {
                if !path.contains("/") { walker?.skipDescendants() }
                continue
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                files.append(path)
            }
        }
        return files
    }

    @Test func everyFileATestReadsIsNamedWithItsReaders() throws {
        let files = Self.repositoryFiles()
        let sources = try files.filter { $0.hasPrefix("Tests/") && $0.hasSuffix(".swift") }.map { path in
            (path: path, text: try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8))
        }
        #expect(sources.count > 100)
        let table = try String(contentsOf: Self.root.appendingPathComponent(Readers.path), encoding: .utf8)
        let gaps = Self.gaps(sources: sources, files: files, readers: Readers(text: table))
        #expect(gaps.isEmpty, "\(gaps.joined(separator: "\n"))")
    }

    /// The check itself: a new read of a file no line names, or a line that names another suite, is a gap.
    @Test func aNewUnnamedReadIsAGap() {
        let files = ["Tests/PromoTests/.data/codes.txt", "Tests/OrderTrackingTests/.goldens/1-a.txt", "README.md"]
        let source = (
            path: "Tests/PromoTests/CodeListTests.swift",
            text: """
            @Suite struct CodeListTests {
                @Test func codes() throws {
                    _ = try String(contentsOf: Self.root.appendingPathComponent("Tests/PromoTests/.data/\\(name).txt"))
                }
            }
            """
        )
        let readers = Readers(text: "Tests/*/.goldens/\tOrderTrackingTests.ScreenCompositionTests\n")
        #expect(
            Self.gaps(sources: [source], files: files, readers: readers) == [
                "Tests/PromoTests/CodeListTests.swift reads Tests/PromoTests/.data/codes.txt, which no line of "
                    + ".ci/readers names"
            ])
        let other = Readers(text: "Tests/*/.data/\tPromoTests.OtherTests\n")
        #expect(
            Self.gaps(sources: [source], files: files, readers: other) == [
                "Tests/PromoTests/CodeListTests.swift reads Tests/PromoTests/.data/codes.txt, but its line in "
                    + ".ci/readers (Tests/*/.data/) names neither PromoTests.CodeListTests"
            ])
        for named in ["PromoTests.CodeListTests", "PromoTests", "own"] {
            #expect(
                Self.gaps(sources: [source], files: files, readers: Readers(text: "Tests/*/.data/\t\(named)\n")).isEmpty
            )
        }
        let demo = (
            path: "Tests/BenchTests/RunTests.swift", text: "@Suite struct RunTests { let b = \"order-tracking\" }"
        )
        #expect(
            Self.gaps(
                sources: [demo], files: [Self.demoFile],
                readers: Readers(text: "Apps/OrderTracking/Kit/Fixtures/\town\n"))
                == [
                    "Tests/BenchTests/RunTests.swift reads \(Self.demoFile), but its line in .ci/readers "
                        + "(Apps/OrderTracking/Kit/Fixtures/) names neither BenchTests.RunTests"
                ])
    }
}
