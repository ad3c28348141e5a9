import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

extension SquadApp {
    /// `squad new`: a module scaffolded in one command.
    static let newCommand = SquadCommand(
        name: "new", positionals: .one("NAME"), options: [newOwner, newScreen],
        summary: "a module that builds, tests, lints and previews, in one command",
        about:
            "Scaffolds a module that builds, tests, lints and previews, and is owned, in one command: its card reads "
            + "the screen's subject (an order on tracking, a cart on checkout), answers for every demo subject from "
            + "its own fixtures and joins the screen's definition."
    ) { parsed, run in
        let owner = parsed[newOwner, default: ""]  // declared required: the parser refused its absence
        let scaffold = try Scaffold(
            root: run.root, name: parsed.positionals[0], owner: owner, screen: parsed[newScreen, default: "tracking"])
        let written = try scaffold.run()
        run.print.out(written.map { "wrote \($0)\n" }.joined())
        // The templates are laid out for short names; the repository's formatter lays out any name (to 30).
        let sources = written.filter { $0.hasSuffix(".swift") }
        do { _ = try run.shell.run("swift", ["format", "format", "--in-place"] + sources) } catch {
            run.print.err("note: swift format did not run on the new files (\(error)); run it before pushing\n")
        }
        run.print.out(scaffold.nextSteps(teams: written.contains(Teams.path)))
        return 0
    }
}
