import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

/// One `squad` command, declared once: its name, usage line, what it does, its options and what runs it. The
/// dispatcher, the usage text, `help COMMAND` and every did-you-mean read the one list below.
struct SquadCommand: Sendable {
    let name: String
    let synopsis: String
    let about: String
    let options: [OptionSpec]
    var repeatable: Set<String> = []
    let run: @Sendable (ParsedArguments, SquadRun) throws -> Int32

    /// What dispatch reads (ArgumentParsing's `Invocation`).
    typealias Declaration = CommandDeclaration<@Sendable (ParsedArguments, SquadRun) throws -> Int32>

    /// This command as dispatch sees it, with `squad COMMAND --help` as its help.
    var declaration: Declaration {
        let help = "usage: \(synopsis)\n\n\(about)\n\n\(OptionSpec.helpLines(options))"
        return Declaration(name: name, options: options, repeatable: repeatable, help: help, run: run)
    }
}

/// What a command runs with (where it was started, the repository, git, stdin) and what it prints.
final class SquadRun {
    let directory: URL
    let root: URL
    let shell: Shell
    let stdin: () throws -> String
    var output = ""
    var errors = ""

    init(directory: URL, root: URL, stdin: @escaping () throws -> String) {
        (self.directory, self.root, self.shell, self.stdin) = (directory, root, Shell(directory: root), stdin)
    }
}

extension SquadApp {
    /// Every command, in the order the usage lists them.
    static let commands: [SquadCommand] = [
        SquadCommand(
            name: "owners", synopsis: "squad owners [options] PATH... | -",
            about:
                "Who owns each path (\"-\": nobody). Paths are relative to where you are, absolute inside the repository, "
                + "or folders (every tracked file below). \"-\" reads paths from stdin, one a line (-z: NUL-separated).",
            options: [codeowners, format, nulSeparated, ownedBy, unowned, help]
        ) { parsed, run in
            let file = try loadCodeOwners(parsed.value(codeowners), root: run.root, directory: run.directory)
            if let ignored = file.ignored { run.errors += "warning: \(ignored); every path answers \(Gate.platform)\n" }
            let query = OwnersQuery(root: run.root, directory: realDirectory(run.directory), shell: run.shell)
            if let team = parsed.value(ownedBy) {
                return try query.listOwned(by: team, owners: file.owners, output: &run.output, errors: &run.errors)
            }
            if parsed.isSet(unowned) { return try query.listOwned(by: nil, owners: file.owners, output: &run.output) }
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "owners needs at least one PATH, '-' for stdin, --owner TEAM or --unowned")
            }
            let paths = try query.resolve(
                parsed.positionals, stdin: run.stdin, nulSeparated: parsed.isSet(nulSeparated))
            return printOwners(paths, owners: file.owners, json: try isJSON(parsed), output: &run.output)
        },
        SquadCommand(
            name: "lint", synopsis: "squad lint [--codeowners FILE]",
            about:
                "CODEOWNERS syntax, coverage, duplicates, shadowed and dead patterns, and the dependency rule over the "
                + "manifest and every import line.",
            options: [codeowners, help]
        ) { parsed, run in
            let owners = try loadCodeOwners(parsed.value(codeowners), root: run.root, directory: run.directory)
            return try lint(owners, shell: run.shell, root: run.root, output: &run.output)
        },
        SquadCommand(
            name: "gate", synopsis: "squad gate --base REF [options]",
            about: "May this change merge? Every changed file needs an approval from one of its owners in the base's "
                + "CODEOWNERS; unowned files and CODEOWNERS itself need @courier/platform.",
            options: [mergeBase, prHead, reviews, teams, dismissStale, approvedBy, author, files, format, help],
            repeatable: [approvedBy.name]
        ) { parsed, run in
            return try gate(parsed, shell: run.shell, stdin: run.stdin, output: &run.output, errors: &run.errors)
        },
        SquadCommand(
            name: "affected", synopsis: "squad affected --base REF [options]",
            about: "Changed files → targets → every target depending on them → the test targets to run.",
            options: [compareBase, compareHead, files, format, help]
        ) { parsed, run in
            let paths = try changedPaths(parsed, shell: run.shell, stdin: run.stdin)
            // From the revisions compared (the head's manifest, else the base's); with --files, the working tree.
            let revisions = [parsed.value(compareHead) ?? "HEAD"] + (parsed.value(compareBase).map { [$0] } ?? [])
            let graph =
                parsed.value(files) == nil
                ? try PackageGraph.dump(run.shell, revisions: revisions) : try PackageGraph.dump(run.shell)
            let result = Affected(graph: graph).explain(paths)
            if try isJSON(parsed) {
                let object: JSONValue = .object([
                    "changed": .array(result.changed.map(JSONValue.string)),
                    "affected": .array(result.affected.map(JSONValue.string)),
                    "tests": .array(result.tests.map(JSONValue.string)),
                    "why": .object(result.why.mapValues(JSONValue.string)),
                    "everything": result.everything.map(JSONValue.string) ?? .null,
                    "command": result.command.isEmpty ? .null : .string(result.command),
                ])
                run.output += object.text + "\n"
            } else {
                run.output += "changed targets: \(result.changed.joined(separator: " "))\n"
                run.output += "affected targets: \(result.affected.joined(separator: " "))\n"
                run.output += "test targets: \(result.tests.joined(separator: " "))\n"
                if let everything = result.everything {
                    run.output += "why: \(everything)\n"
                } else if !result.why.isEmpty {
                    run.output += "why:\n"
                    for target in result.affected { run.output += "  \(target): \(result.why[target] ?? "")\n" }
                }
                run.output += result.command.isEmpty ? "nothing to test\n" : "run: \(result.command)\n"
            }
            return 0
        },
        SquadCommand(
            name: "check", synopsis: "squad check [--base REF]",
            about:
                "What CI will say about your change, before you push: CI's fast checks from .ci/checks, narrowed to the "
                + "files changed since REF (default main) and not yet committed; one verdict line each.",
            options: [checkBase, help]
        ) { parsed, run in
            return try CheckCommand(root: run.root, shell: run.shell, base: parsed.value(checkBase) ?? "main").run(
                output: &run.output, errors: &run.errors)
        },
        SquadCommand(
            name: "new", synopsis: "squad new NAME --owner OWNER",
            about: "Scaffolds a module that builds, tests, lints and previews, and is owned, in one command.",
            options: [newOwner, help]
        ) { parsed, run in
            guard parsed.positionals.count == 1 else {
                throw UsageError(
                    message: parsed.positionals.isEmpty
                        ? "missing NAME (e.g. squad new Rewards --owner @courier/rewards)"
                        : "new takes one NAME, got \(parsed.positionals.count)")
            }
            guard let owner = parsed.value(newOwner) else {
                let example = "@courier/" + parsed.positionals[0].lowercased()
                throw UsageError(message: "missing --owner (e.g. --owner \(SafeText.visible(example)))")
            }
            let written = try Scaffold(root: run.root, name: parsed.positionals[0], owner: owner).run()
            run.output += written.map { "wrote \($0)\n" }.joined()
            // The templates are laid out for short names; the repository's formatter lays out any name (to 30).
            let sources = written.filter { $0.hasSuffix(".swift") }
            do { _ = try run.shell.run("swift", ["format", "format", "--in-place"] + sources) } catch {
                run.errors += "note: swift format did not run on the new files (\(error)); run it before pushing\n"
            }
            run.output += Scaffold.nextSteps(
                name: parsed.positionals[0], owner: owner, teams: written.contains(Teams.path))
            return 0
        },
    ]
}
