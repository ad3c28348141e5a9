import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

/// `squad gate`: gathers the evidence (base CODEOWNERS and teams, the PR's reviews, the head commit), asks the
/// ``Gate`` and prints what is missing. Exit 0 may merge, 1 blocked, 2 a file or git failure (fail closed).
extension SquadApp {
    static func gate(
        _ parsed: ParsedArguments, shell: Shell, stdin: () throws -> [UInt8], print: SquadOutput
    ) throws -> Int32 {
        let base = parsed[SquadApp.mergeBase, default: "HEAD"]  // declared required: the parser refused its absence
        if parsed[SquadApp.reviews] == "-" && parsed[SquadApp.files] == "-" {
            throw UsageError(message: "--reviews - and --files - both read stdin; give one of them as a file")
        }
        let json = isJSON(parsed)
        let git = Git(shell: shell)
        try git.verify(base)
        if let head = parsed[SquadApp.prHead] { try git.verify(head) }
        let head = parsed[SquadApp.prHead, default: "HEAD"]
        let paths = try changedPaths(parsed, base: base, head: head, shell: shell, stdin: stdin)
        // A CODEOWNERS GitHub ignores (3 MB or more) enforces nothing: every file needs the platform team.
        let ignored = git.ignoredCodeOwners(at: base)
        if let ignored { print.err("warning: \(ignored); every file needs \(Gate.platform)\n") }
        let codeOwners = ignored == nil ? git.codeOwners(at: base) : nil
        let gate = Gate(
            owners: codeOwners?.owners, codeOwnersPath: codeOwners?.path ?? "CODEOWNERS",
            headOwners: git.codeOwners(at: head)?.owners)
        var evidence = Gate.Evidence()
        evidence.approvedOwners = parsed.all(SquadApp.approvedBy)
        evidence.author = parsed[SquadApp.author]
        evidence.dismissStale = parsed.isSet(SquadApp.dismissStale)
        if let file = parsed[SquadApp.reviews] {
            let data = try readEvidence(file, option: "--reviews", stdin: stdin)
            do { evidence.reviews = try Review.parse(data) } catch {
                throw ShellError(
                    message: "--reviews '\(SafeText.visible(file))': \(error); give the JSON GitHub's API returns")
            }
        }
        evidence.teams = try teams(parsed, git: git, base: base, print: print)
        if evidence.dismissStale { evidence.headCommit = try git.commit(head) }
        let result = gate.evaluate(paths: paths, evidence: evidence)
        if codeOwners == nil && ignored == nil {
            print.err("warning: \(base) has no CODEOWNERS; every file needs \(Gate.platform)\n")
        }
        for warning in result.warnings { print.err("warning: \(SafeText.visible(warning))\n") }
        if parsed[SquadApp.files] == nil, parsed[SquadApp.prHead] == nil, let dirty = git.uncommitted(),
            !dirty.isEmpty
        {
            let shown = dirty.prefix(3).map(PathBytes.quoted).joined(separator: ", ") + (dirty.count > 3 ? ", …" : "")
            print.err(
                "warning: \(dirty.count) uncommitted change(s) are not part of the gate (\(shown)); commit them to have "
                    + "them checked\n")
        }
        print.out(json ? report(result).text + "\n" : text(result))
        return result.mayMerge ? 0 : 1
    }

    /// Teams from `--teams`, else from the base revision (so a PR cannot add its author to a team).
    private static func teams(_ parsed: ParsedArguments, git: Git, base: String, print: SquadOutput) throws -> Teams {
        let source: String
        let data: Data
        if let file = parsed[SquadApp.teams] {
            source = file
            data = try readEvidence(file, option: "--teams", stdin: { [] })
        } else if let text = git.show(Teams.path, at: base) {
            source = "\(base):\(Teams.path)"
            data = Data(text.utf8)
        } else {
            if parsed[SquadApp.reviews] != nil {
                print.err("warning: \(base) has no \(Teams.path); reviews satisfy only @user owners\n")
            }
            return Teams(members: [:])
        }
        do { return try Teams.parse(data) } catch {
            throw ShellError(message: "teams file '\(SafeText.visible(source))': \(error)")
        }
    }

    private static func readEvidence(_ file: String, option: String, stdin: () throws -> [UInt8]) throws -> Data {
        if file == "-" { return Data(try stdin()) }
        guard let data = try BoundedInput.file(file, name: "\(option) '\(SafeText.visible(file))'") else {
            throw ShellError(message: "\(option) '\(SafeText.visible(file))' cannot be read; give a readable file")
        }
        return Data(data)
    }

    private static func text(_ result: Gate.Result) -> String {
        var output = ""
        for decision in result.decisions {
            let verdict =
                decision.approvedBy.map { "approved by \(SafeText.visible($0))" }
                ?? "needs one of \(decision.approvers.joined(separator: " "))"
            // Paths are quoted as git quotes them: a name holding a tab, a newline or an escape cannot fake a line.
            output += "\(PathBytes.quoted(decision.path))\t\(verdict)\(decision.note.map { " (\($0))" } ?? "")\n"
        }
        for request in result.changesRequested {
            output +=
                "changes requested by \(SafeText.visible(request.login)) (owner through \(request.owners.joined(separator: ", "))): "
                + "blocks until they approve or the review is dismissed\n"
        }
        for skip in result.ignored {
            output += "ignored approval by \(SafeText.visible(skip.login)): \(skip.reason)\n"
        }
        guard result.mayMerge else {
            output += "blocked: " + (result.missing.isEmpty ? "changes requested\n" : "missing approvals:\n")
            for group in result.missing {
                let owners = group.approvers.map { owner in
                    let people = result.people[owner] ?? []
                    return people.isEmpty || owner == "@" + (people.first ?? "")
                        ? owner : "\(owner) (\(people.map(SafeText.visible).joined(separator: ", ")))"
                }
                output +=
                    "  \(owners.joined(separator: " or ")) for \(group.paths.map(PathBytes.quoted).joined(separator: ", "))\n"
            }
            return output
        }
        return output + "may merge: \(result.decisions.count) changed path(s), each approved by an owner\n"
    }

    private static func report(_ result: Gate.Result) -> JSONValue {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        return .object([
            "may_merge": .bool(result.mayMerge),
            "files": .array(
                result.decisions.map { decision in
                    .object([
                        "path": .string(decision.path), "owners": strings(decision.approvers),
                        "approved_by": decision.approvedBy.map(JSONValue.string) ?? .null,
                        "note": decision.note.map(JSONValue.string) ?? .null,
                    ])
                }),
            "missing": .array(
                result.missing.map { group in
                    .object([
                        "owners": strings(group.approvers),
                        "people": strings(Array(Set(group.approvers.flatMap { result.people[$0] ?? [] })).sorted()),
                        "paths": strings(group.paths),
                    ])
                }),
            "changes_requested": .array(
                result.changesRequested.map { .object(["login": .string($0.login), "owners": strings($0.owners)]) }),
            "ignored": .array(
                result.ignored.map { .object(["login": .string($0.login), "reason": .string($0.reason)]) }),
            "warnings": strings(result.warnings),
        ])
    }
}

extension SquadApp {
    /// `squad gate`: may this change merge?
    static let gateCommand = SquadCommand(
        name: "gate",
        options: [mergeBase, prHead, reviews, teams, dismissStale, approvedBy, author, files, format],
        summary: "may this change merge? the approvals it still needs",
        about: "May this change merge? Every changed file needs an approval from one of its owners in the base's "
            + "CODEOWNERS; unowned files and CODEOWNERS itself need @courier/platform."
    ) { parsed, run in
        return try gate(parsed, shell: run.shell, stdin: run.stdin, print: run.print)
    }
}
