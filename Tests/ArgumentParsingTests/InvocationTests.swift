import ArgumentParsing
import Testing

/// Dispatch from one list of declarations: help topics, `--help`, a default command, declared counts and
/// required options, generated usage lines and did-you-mean.
@Suite struct InvocationTests {
    typealias Run = @Sendable () -> String
    static let watch = Option.flag("--watch", help: "follow it")
    static let base = Option.text("--base", "REF", required: true, help: "the branch")
    let commands: [CommandDeclaration<Run>] = [
        CommandDeclaration(
            name: "track", positionals: .optional("ORDER-ID"), options: [watch], summary: "track an order",
            about: "Tracks."
        ) { "tracked" },
        CommandDeclaration(
            name: "cancel", positionals: .one("ORDER-ID"), options: [], summary: "cancel it", about: "Cancels."
        ) { "cancelled" },
        CommandDeclaration(
            name: "gate", positionals: .many("PATH", atLeast: 0, synopsis: "[PATH]..."), options: [base],
            summary: "may it merge?", about: "Gates."
        ) { "gated" },
    ]

    func invoke(_ arguments: [String], fallback: String? = nil) throws(UsageError) -> String {
        switch try Invocation.of(arguments, tool: "tool", commands: commands, usage: "usage", fallback: fallback) {
        case .help(let text): "help: " + text
        case .run(let command, let parsed): command.run() + " " + parsed.positionals.joined(separator: ",")
        }
    }

    @Test func helpTopicsAndTheHelpFlagPrintTheCommandsGeneratedHelp() throws {
        let cancel = "help: usage: tool cancel ORDER-ID\n\nCancels.\n\nOPTIONS\n  -h, --help  this text"
        #expect(try invoke(["help"]) == "help: usage")
        #expect(try invoke(["help", "help"]) == "help: usage")
        #expect(try invoke(["help", "cancel"]) == cancel)
        #expect(try invoke(["cancel", "--help"]) == cancel)
        #expect(try invoke(["cancel", "--help", "1", "2"]) == cancel, "help before the count is checked")
        #expect(try invoke(["gate", "--help"]).hasPrefix("help: usage: tool gate [PATH]... --base REF\n"))
        #expect(try invoke([]) == "help: usage")
        #expect(try invoke(["--help"]) == "help: usage")
        #expect(try invoke(["--help"], fallback: "track") == "help: usage", "the default command's help is the tool's")
    }

    @Test func aNamedCommandGetsTheRestAndTheFallbackGetsEverything() throws {
        #expect(try invoke(["cancel", "1234"]) == "cancelled 1234")
        #expect(try invoke(["1234", "--watch"], fallback: "track") == "tracked 1234")
        #expect(try invoke(["track", "1234"], fallback: "track") == "tracked 1234")
        #expect(try invoke(["gate", "--base", "main"]) == "gated ")
    }

    @Test(
        arguments: [
            (["cancle"], nil, "unknown command 'cancle'; did you mean 'cancel'?"),
            (["help", "trak"], nil, "no help for 'trak'; did you mean 'track'?"),
            (["cancel", "--wtch"], "cancel", "unknown option '--wtch'"),
            (["cancel"], "cancel", "cancel needs one ORDER-ID"),
            (["cancel", "1", "2"], "cancel", "cancel needs one ORDER-ID, got 2: 1 2"),
            (["1", "2"], nil, "expected at most one ORDER-ID, got 2: 1 2"),
            (["track", "1", "2"], "track", "track needs at most one ORDER-ID, got 2: 1 2"),
            (["gate", "a"], "gate", "gate needs --base REF: the branch"),
        ] as [([String], String?, String)])
    func mistakesAreUsageErrorsThatNameTheCommand(arguments: [String], command: String?, message: String) {
        #expect(throws: UsageError(message: message, command: command)) { try invoke(arguments, fallback: "track") }
    }

    /// `-h` wherever `--help` works: alone, after the default command's id, after a command, before it.
    @Test func dashHIsHelpEverywhere() throws {
        let cancel = "help: usage: tool cancel ORDER-ID\n\nCancels.\n\nOPTIONS\n  -h, --help  this text"
        #expect(try invoke(["-h"]) == "help: usage")
        #expect(try invoke(["-h"], fallback: "track") == "help: usage")
        #expect(try invoke(["1234", "-h"], fallback: "track") == "help: usage")
        #expect(try invoke(["cancel", "-h"]) == cancel)
        #expect(try invoke(["cancel", "1", "-h"], fallback: "track") == cancel)
        #expect(try invoke(["-h", "cancel"]) == cancel, "options before the command apply to it")
        #expect(try invoke(["help", "-h"]) == "help: usage")
        #expect(try invoke(["gate", "-h"]).hasPrefix("help: usage: tool gate [PATH]... --base REF\n"))
    }

    /// The command is the first word that is neither an option nor an option's value; options before it apply
    /// to it, and the default command is the tracking one only when that word names no command.
    @Test func optionsMayComeBeforeTheCommand() throws {
        #expect(try invoke(["--base", "main", "gate", "a"]) == "gated a")
        #expect(try invoke(["--base", "cancel", "gate"]) == "gated ", "an option's value is never the command")
        #expect(try invoke(["--base=cancel", "gate", "a"]) == "gated a")
        #expect(try invoke(["--watch", "track", "1"], fallback: "track") == "tracked 1")
        #expect(try invoke(["--watch", "1234"], fallback: "track") == "tracked 1234")
        #expect(try invoke(["--", "cancel"], fallback: "track") == "tracked cancel", "after --, a word is data")
        #expect(try invoke(["--base", "main", "help", "cancel"]).hasPrefix("help: usage: tool cancel"))
        switch try Invocation.of(
            ["--base", "dev", "gate", "--base", "main"], tool: "tool", commands: commands, usage: "usage")
        {
        case .run(_, let parsed): #expect(parsed[Self.base] == "main", "before or after, the last value wins")
        case .help: Issue.record("not help")
        }
    }

    @Test(
        arguments: [
            (["--watch", "cancel", "1"], "track", "cancel", "unknown option '--watch'"),
            (["--watch", "cancle", "1"], "track", nil, "unknown command 'cancle'; did you mean 'cancel'?"),
            (["1234", "cancel"], "track", nil, "expected at most one ORDER-ID, got 2: 1234 cancel"),
            (["--base", "main"], nil, nil, "no command given: use one of track, cancel, gate"),
            (["--base", "main", "gate", "--base"], nil, "gate", "option '--base' needs a value: --base REF"),
        ] as [([String], String?, String?, String)])
    func optionsBeforeAnUnknownOrMissingCommandAreUsageErrors(
        arguments: [String], fallback: String?, command: String?, message: String
    ) {
        #expect(throws: UsageError(message: message, command: command)) { try invoke(arguments, fallback: fallback) }
    }

    @Test func theUsageLinesAreGeneratedFromTheDeclarations() {
        let synopsis = CommandLineSynopsis(tool: "tool", commands: commands, fallback: "track", trailer: "--help")
        #expect(
            synopsis.text == """
                tool [ORDER-ID] [options]        track an order
                tool cancel ORDER-ID             cancel it
                tool gate [PATH]... --base REF   may it merge?
                tool --help
                """)
    }
}
