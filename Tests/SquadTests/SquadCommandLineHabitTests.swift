import ArgumentParsing
import Foundation
import Testing

@testable import SquadKit

/// What a person types out of habit from other tools, for `squad`: `-h`, options before the command, and an
/// option given twice taking its last value while `--approved-by` keeps every one.
@Suite struct SquadCommandLineHabitTests {
    func squad(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
        var output = ""
        var errors = ""
        let status = SquadApp.run(
            arguments, directory: FileManager.default.temporaryDirectory, stdin: { [] }, output: &output,
            errors: &errors)
        return (status, output, errors)
    }

    @Test(arguments: [
        (["-h"], ["--help"]), (["--format", "json", "-h"], ["--help"]), (["gate", "-h"], ["gate", "--help"]),
        (["-h", "gate"], ["help", "gate"]), (["owners", "a", "-h"], ["owners", "--help"]),
        (["new", "-h"], ["help", "new"]), (["help", "-h"], ["help"]),
    ])
    func dashHIsHelpEverywhereHelpWorks(arguments: [String], same: [String]) {
        let short = squad(arguments)
        #expect(short.status == 0 && short.errors.isEmpty, "\(arguments): \(short.errors)")
        #expect(short.output == squad(same).output && !short.output.isEmpty, "\(arguments)")
    }

    /// Every command's help lists `-h, --help`; the tool's says that options go before or after the command.
    @Test func helpSaysHowTheCommandLineIsRead() {
        for name in SquadApp.commands.map(\.name) {
            #expect(squad([name, "--help"]).output.contains("\n  -h, --help "), "\(name)")
        }
        let usage = squad(["--help"]).output
        #expect(usage.contains("-h is --help. Options go before or after the command"))
        #expect(usage.contains("option takes its last value (--approved-by keeps every one)"))
    }

    @Test func optionsBeforeTheCommandApplyToIt() async throws {
        let repo = try await GitRepository()
        try repo.write("CODEOWNERS", "* @org/everyone\n/a/ @org/a\n/b/ @org/b\n")
        try repo.write("a/x.txt")
        try repo.write("b/x.txt")
        try await repo.commit("base")
        try await repo.git("checkout", "-q", "-b", "pr")
        try repo.write("a/x.txt", "changed\n")
        try repo.write("b/x.txt", "changed\n")
        try await repo.commit("change")
        let late = await repo.squad(["owners", "a/x.txt", "--format", "json"])
        #expect(late.status == 0 && late.output.hasPrefix("[{"), "\(late.errors)")
        let early = await repo.squad(["--format", "json", "owners", "a/x.txt"])
        #expect(early.status == late.status && early.output == late.output && early.errors == late.errors)
        // --base's value is never the command, and the last --format wins.
        let both = ["--approved-by", "@org/a", "--approved-by", "@org/b"]
        let gate = await repo.squad(["--base", "main", "--format", "json", "gate", "--format", "text"] + both)
        #expect(gate.status == 0, "every --approved-by counts: \(gate.output)\(gate.errors)")
        #expect(!gate.output.hasPrefix("{") && gate.output.contains("may merge"), "\(gate.output)")
        let one = await repo.squad(["--approved-by", "@org/a", "--base", "main", "gate", "--base", "main"])
        #expect(one.status == 1, "@org/b has not approved: \(one.output)")
        let overridden = await repo.squad(["gate", "--base", "nope", "--base", "main"] + both)
        #expect(overridden.status == 0, "the last --base wins: \(overridden.errors)")
    }

    @Test(
        arguments: [
            (["--format", "json"], "squad: no command given: use one of owners, lint, gate, affected, check, new"),
            (["--format", "json", "ownres", "a"], "squad: unknown command 'ownres'; did you mean 'owners'?"),
            (["--base", "main", "owners", "a"], "squad: unknown option '--base' (see 'squad owners --help')"),
        ])
    func optionsWithoutAKnownCommandAreUsageErrors(arguments: [String], line: String) {
        let run = squad(arguments)
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(run.errors.hasPrefix(line), "\(run.errors)")
    }

    /// Every option of every command may come before the command's name, even with a value that is itself a
    /// command's name (`--base affected gate`): the dispatch picks that command (its run, its help, or a usage error
    /// that names it). This also holds an option name to one shape (a value or none) in every command, which the
    /// dispatch relies on to know which word is a value.
    @Test func everyOptionOfEveryCommandMayComeBeforeIt() {
        let commands = SquadApp.commands
        for (index, command) in commands.enumerated() {
            for option in command.options {
                // The value is another command's name: only the dispatch's knowledge of values tells them apart.
                let value = option.placeholder == nil ? [] : [commands[(index + 1) % commands.count].name]
                let arguments = [option.name] + value + [command.name]
                let chosen: String?
                do {
                    switch try Invocation.of(arguments, tool: "squad", commands: SquadApp.commands, usage: "usage") {
                    case .run(let declaration, _): chosen = declaration.name
                    case .help(let text): chosen = text.hasPrefix("usage: squad \(command.name)") ? command.name : text
                    }
                } catch { chosen = error.command }
                #expect(chosen == command.name, "\(arguments)")
            }
        }
    }
}
