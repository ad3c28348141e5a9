import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

extension SquadApp {
    /// `squad owners`: who owns each path.
    static let ownersCommand = SquadCommand(
        name: "owners", positionals: .many("PATH", atLeast: 0, synopsis: "PATH... | -"),
        options: [codeowners, format, nulSeparated, ownedBy, unowned],
        summary: "who owns each path (\"-\": nobody); --owner TEAM or --unowned lists files",
        about:
            "Who owns each path (\"-\": nobody). Paths are relative to where you are, absolute inside the repository, "
            + "or folders (every tracked file below). \"-\" reads paths from stdin, one a line as git ls-files prints "
            + "them (quoted names unquoted; -z: NUL-separated)."
    ) { parsed, run in
        let file = try loadCodeOwners(parsed[codeowners], root: run.root, directory: run.directory)
        if let ignored = file.ignored { run.print.err("warning: \(ignored); every path answers \(Gate.platform)\n") }
        let query = OwnersQuery(root: run.root, directory: realDirectory(run.directory), shell: run.shell)
        if let team = parsed[ownedBy] {
            return try query.listOwned(by: team, owners: file.owners, print: run.print)
        }
        if parsed.isSet(unowned) { return try query.listOwned(by: nil, owners: file.owners, print: run.print) }
        guard !parsed.positionals.isEmpty else {
            throw UsageError(message: "owners needs at least one PATH, '-' for stdin, --owner TEAM or --unowned")
        }
        let paths = try query.resolve(
            parsed.positionals, stdin: run.stdin, nulSeparated: parsed.isSet(nulSeparated))
        OwnersListing(owners: file.owners, json: isJSON(parsed)).write(
            paths, to: run.print.out, stopped: run.print.stopped)
        return 0
    }
}
