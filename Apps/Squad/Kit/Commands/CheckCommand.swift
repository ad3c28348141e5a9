import ArgumentParsing
import CodeOwnership
import Foundation
import SafeText

/// `squad check`: what CI will say about my change, before I push. It reads CI's own list (`.ci/checks`) and runs
/// each "fast" check narrowed to the change (format on the changed Swift files, the incremental build, the
/// affected tests, lint), one verdict line each; the "ci" checks are named and left to CI.
struct CheckCommand {
    let root: URL
    let shell: Shell
    let base: String

    struct Check {
        let name: String
        let scope: String
        let command: String
    }

    /// The list, as .ci/run reads it.
    static func checks(at root: URL) throws -> [Check] {
        guard let text = try? String(contentsOf: root.appendingPathComponent(".ci/checks"), encoding: .utf8) else {
            throw ShellError(message: "no .ci/checks at \(root.path); squad check runs CI's list of checks")
        }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
            return fields.count == 3 ? Check(name: fields[0], scope: fields[1], command: fields[2]) : nil
        }
    }

    func run(print: SquadOutput) throws -> Int32 {
        let git = Git(shell: shell)
        try git.verify(base)
        // The change: commits since the base plus whatever is not committed yet.
        var changed = try git.changes(base: base, head: "HEAD").flatMap(\.paths)
        changed += git.uncommitted() ?? []
        var seen = Set<[UInt8]>()
        changed = changed.filter { seen.insert(PathBytes.key($0)).inserted }
        let affected = try Affected.reading(
            shell, root: root, base: base, head: nil,
            manifestChanged: changed.contains { PathBytes.same($0, Affected.manifest) }
        ).explain(changed)
        var failed = 0
        for check in try CheckCommand.checks(at: root) {
            guard check.scope == "fast" else {
                print.out(line(check.name, "left to CI (\(check.command))"))
                continue
            }
            let (command, what) = narrowed(check, changed: changed, affected: affected)
            guard let command else {
                print.out(line(check.name, "ok (\(what))"))
                continue
            }
            let started = ContinuousClock.now
            let (status, log) = try shell.runLogged(command)
            let seconds = (ContinuousClock.now - started).components.seconds
            if status == 0 {
                print.out(line(check.name, "ok (\(what), \(seconds) s)"))
            } else {
                failed += 1
                print.out(line(check.name, "FAILED (\(what), exit \(status)): run \(command)"))
                // Each failing test and its first failure, on stdout beside the verdict; the rest of the log
                // only when no test was named (a build error, a lint line).
                let tests = TestFailures.failingTests(in: log)
                print.out(tests.map { "  \($0)\n" }.joined())
                if tests.isEmpty {
                    print.err("\(check.name):\n" + TestFailures.summary(of: log).map { "  \($0)\n" }.joined())
                }
            }
        }
        print.out(
            failed == 0
                ? "check: CI's fast checks pass for \(changed.count) changed file(s); CI also runs the slow ones above\n"
                : "check: \(failed) check(s) would fail in CI\n")
        return failed == 0 ? 0 : 1
    }

    /// The command narrowed to the change, and what it covers; nil when there is nothing to run.
    private func narrowed(_ check: Check, changed: [String], affected: Affected.Analysis) -> (String?, String) {
        switch check.name {
        case "format":
            let swift = changed.filter {
                $0.hasSuffix(".swift") && FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path)
            }
            guard !swift.isEmpty else { return (nil, "no Swift file changed") }
            let files = swift.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            return ("swift format lint --strict \(files)", "\(swift.count) changed Swift file(s)")
        case "tests":
            guard !affected.filter.isEmpty else { return (nil, "no test target affected") }
            return (
                "Scripts/test-clean --filter '\(affected.filter)'",
                "\(affected.tests.count) affected test target(s)"
                    + (affected.suites.isEmpty ? "" : " and \(affected.suites.count) suite(s)")
            )
        case "build": return (check.command, "incremental: the affected targets recompile")
        default: return (check.command, "as CI runs it")
        }
    }

    private func line(_ name: String, _ verdict: String) -> String {
        name + String(repeating: " ", count: max(1, 10 - name.count)) + verdict + "\n"
    }
}

extension SquadApp {
    /// `squad check`: what CI will say about your change.
    static let checkCommand = SquadCommand(
        name: "check", options: [checkBase], summary: "what CI will say about your change: its fast checks, narrowed",
        about:
            "What CI will say about your change, before you push: CI's fast checks from .ci/checks, narrowed to the "
            + "files changed since REF (default main) and not yet committed; one verdict line each.",
    ) { parsed, run in
        return try CheckCommand(root: run.root, shell: run.shell, base: parsed[checkBase, default: "main"]).run(
            print: run.print)
    }
}
