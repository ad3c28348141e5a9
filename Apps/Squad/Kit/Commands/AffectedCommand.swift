import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

extension SquadApp {
    /// `squad affected`: which tests a change needs, and why.
    static let affectedCommand = SquadCommand(
        name: "affected", options: [compareBase, compareHead, files, format],
        summary: "the test targets a change needs (--base REF or --files FILE|-), and why",
        about: "Changed files → targets → every target depending on them → the test targets to run."
    ) { parsed, run in
        let (base, head) = (parsed[compareBase], parsed[compareHead])
        let paths = try changedPaths(parsed, base: base, head: head, shell: run.shell, stdin: run.stdin)
        // From the revisions compared; with --files, the working tree (against --base's manifest, if given).
        let result = try Affected.reading(
            run.shell, root: run.root, base: base, head: parsed[files] == nil ? head ?? "HEAD" : nil,
            manifestChanged: paths.contains { PathBytes.same($0, Affected.manifest) }
        ).explain(paths)
        var output = ""
        if isJSON(parsed) {
            let object: JSONValue = .object([
                "changed": .array(result.changed.map(JSONValue.string)),
                "affected": .array(result.affected.map(JSONValue.string)),
                "tests": .array(result.tests.map(JSONValue.string)),
                "suites": .array(result.suites.map(JSONValue.string)),
                "why": .object(result.why.mapValues(JSONValue.string)),
                "everything": result.everything.map(JSONValue.string) ?? .null,
                "command": result.command.isEmpty ? .null : .string(result.command),
            ])
            output += object.text + "\n"
        } else {
            output += "changed targets: \(result.changed.joined(separator: " "))\n"
            output += "affected targets: \(result.affected.joined(separator: " "))\n"
            output += "test targets: \(result.tests.joined(separator: " "))\n"
            if !result.suites.isEmpty { output += "test suites: \(result.suites.joined(separator: " "))\n" }
            if let everything = result.everything {
                output += "why: \(everything)\n"
            } else if !result.why.isEmpty {
                output += "why:\n"
                for target in result.affected { output += "  \(target): \(result.why[target] ?? "")\n" }
            }
            output += result.command.isEmpty ? "nothing to test\n" : "run: \(result.command)\n"
        }
        run.print.out(output)
        return 0
    }
}
