import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

extension SquadApp {
    /// `squad new`: a module scaffolded in one command.
    static let newCommand = SquadCommand(
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
    }
}
