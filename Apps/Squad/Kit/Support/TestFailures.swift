import Foundation
import SafeText

/// What a failed check printed, cut down to what a person acts on: each failing test with its first failure
/// line (Swift Testing reports on stdout, XCTest on either), else the compiler's errors, else the last lines.
enum TestFailures {
    /// One line per failing test, "✘ NAME (FILE:LINE): MESSAGE", in the order the run reported them.
    static func failingTests(in log: String) -> [String] {
        var seen = Set<String>()
        var found: [String] = []
        for raw in log.split(separator: "\n") {
            let line = withoutEscapes(String(raw))
            guard let (name, place, message) = swiftTesting(line) ?? xcTest(line), seen.insert(name).inserted
            else { continue }
            found.append(SafeText.visible("✘ \(name) (\(place)): \(message)"))
        }
        return found
    }

    /// The lines to show for a failed check: its failing tests, or its compiler errors, or its last 15 lines.
    static func summary(of log: String) -> [String] {
        let tests = failingTests(in: log)
        if !tests.isEmpty { return tests }
        let lines = log.split(separator: "\n").map { SafeText.visible(withoutEscapes(String($0))) }
        let compiler = lines.filter { $0.contains(": error: ") }
        return compiler.isEmpty ? Array(lines.suffix(15)) : Array(compiler.prefix(10))
    }

    /// "✘ Test each(n:) recorded an issue with 1 argument n → 2 at T.swift:6:50: Expectation failed: …"
    private static func swiftTesting(_ line: String) -> (String, String, String)? {
        guard let match = line.wholeMatch(of: /✘ Test (.+?) recorded an issue(?: with (.+?))? at (\S+?:\d+:\d+): (.*)/)
        else { return nil }
        let name = match.output.2.map { "\(match.output.1) with \($0)" } ?? String(match.output.1)
        return (name, String(match.output.3), String(match.output.4))
    }

    /// "/path/T.swift:10: error: Old.testOld : XCTAssertEqual failed: …" (Linux; Darwin names it -[Old testOld]).
    private static func xcTest(_ line: String) -> (String, String, String)? {
        guard let match = line.wholeMatch(of: /(.+?):(\d+): error: (\S+|-\[\S+ \S+\]) : (.*)/) else { return nil }
        let file = (String(match.output.1) as NSString).lastPathComponent
        return (String(match.output.3), "\(file):\(match.output.2)", String(match.output.4))
    }

    /// The line without terminal colour sequences (a test runner may colour even when piped).
    private static func withoutEscapes(_ line: String) -> String {
        line.replacing(/\u{1B}\[[0-9;?]*[A-Za-z]/, with: "")
    }
}
