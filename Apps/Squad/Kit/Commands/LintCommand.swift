import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

extension SquadApp {
    /// `squad lint`: CODEOWNERS, the dependency rule and the squads' declarations, checked.
    static let lintCommand = SquadCommand(
        name: "lint", options: [codeowners], summary: "CODEOWNERS, the dependency rule, events and opt-ins, checked",
        about:
            "CODEOWNERS syntax, coverage, duplicates, shadowed and dead patterns; the dependency rule over the "
            + "manifest and every import line; events nobody publishes; and a warning for an opt-in a component "
            + "implements without declaring it.",
    ) { parsed, run in
        let owners = try loadCodeOwners(parsed[codeowners], root: run.root, directory: run.directory)
        return try lint(owners, shell: run.shell, root: run.root, print: run.print)
    }

    /// The lint run: CODEOWNERS findings, the dependency rule, the event and opt-in lints; warnings beside.
    static func lint(
        _ owners: (path: String, owners: CodeOwners, ignored: String?), shell: Shell, root: URL, print: SquadOutput
    ) throws -> Int32 {
        let files = try Git(shell: shell).trackedFiles()
        var findings =
            owners.ignored.map { ["\($0); split it or remove rules"] }
            ?? CodeOwnersLint(owners: owners.owners, path: owners.path).findings(trackedFiles: files)
        let teamsFile = root.appendingPathComponent(Teams.path)
        // Gaps in the team list are warnings: the gate fails closed on them (nobody can approve), and a new
        // module's team is listed before its people are. A malformed file is a finding.
        var warnings: [String] = []
        if let data = FileManager.default.contents(atPath: teamsFile.path) {
            do {
                warnings = CodeOwnersLint.teamFindings(owners.owners, teams: try Teams.parse(data), path: owners.path)
            } catch { findings.append("\(Teams.path): \(error)") }
        }
        // The dependency rule is a Swift package's; a repository without a root manifest has only CODEOWNERS.
        let manifest = FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
        if manifest {
            let text = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
            let rule = DependencyRule(graph: try PackageGraph.dump(shell), kinds: try ManifestKinds.read(text))
            findings += rule.manifestViolations()
            for target in rule.moduleTargets {
                // A README squad new wrote and nobody filled in is a prompt, not a failure.
                let readme = root.appendingPathComponent(target.path + "/README.md")
                if let text = try? String(contentsOf: readme, encoding: .utf8) {
                    let todos = text.split(separator: "\n").filter { $0.contains("TODO") }.count
                    if todos > 0 {
                        warnings.append(
                            "\(target.path)/README.md: \(todos) line(s) still say TODO; describe the module")
                    }
                }
                // A squad's interface target sits in its module's folder (Modules/Payments/Interface); its files
                // are its own, not the module's.
                let nested = rule.moduleTargets.filter { $0.path.hasPrefix(target.path + "/") }.map { $0.path + "/" }
                for file in files
                where PathBytes.hasPrefix(file, target.path + "/") && file.hasSuffix(".swift")
                    && !nested.contains(where: { PathBytes.hasPrefix(file, $0) })
                {
                    let source = (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? ""
                    findings += rule.importViolations(module: target.name, file: file, source: source)
                }
            }
        }
        let sources = files.filter { $0.hasPrefix("Modules/") && $0.hasSuffix(".swift") }.map { file in
            (path: file, text: (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)) ?? "")
        }
        let events = EventLint.check(sources: sources)
        (findings, warnings) = (findings + events.findings, warnings + events.warnings)
        findings += FixtureLint.findings(trackedFiles: files, sources: sources)
        warnings += OptInLint.warnings(sources: sources)
        var output = findings.map { $0 + "\n" }.joined()
        output += warnings.map { "warning: \($0)\n" }.joined()
        if !manifest { output += "dependency rule: skipped (no Package.swift at the repository root)\n" }
        if !FileManager.default.fileExists(atPath: teamsFile.path) {
            output += "teams: skipped (no \(Teams.path): reviews can satisfy only @user owners)\n"
        }
        output +=
            findings.isEmpty
            ? "lint: clean (\(files.count) tracked files, \(owners.owners.rules.count) rules)\n"
            : "lint: \(findings.count) finding(s)\n"
        print.out(output)
        return findings.isEmpty ? 0 : 1
    }
}
