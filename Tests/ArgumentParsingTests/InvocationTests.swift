import ArgumentParsing
import Testing

/// Dispatch from one list of declarations: help topics, `--help`, a default command and did-you-mean.
@Suite struct InvocationTests {
    typealias Run = @Sendable () -> String
    let commands: [CommandDeclaration<Run>] = [
        CommandDeclaration(name: "track", options: [OptionSpec("--help"), OptionSpec("--watch")], help: "track help") {
            "tracked"
        },
        CommandDeclaration(name: "cancel", options: [OptionSpec("--help")], help: "cancel help") { "cancelled" },
    ]

    func invoke(_ arguments: [String], fallback: String? = nil) throws(UsageError) -> String {
        switch try Invocation.of(arguments, commands: commands, usage: "usage", fallback: fallback) {
        case .help(let text): "help: " + text
        case .run(let command, let parsed): command.run() + " " + parsed.positionals.joined(separator: ",")
        }
    }

    @Test func helpTopicsAndTheHelpFlagPrintTheCommandsOwnText() throws {
        #expect(try invoke(["help"]) == "help: usage")
        #expect(try invoke(["help", "help"]) == "help: usage")
        #expect(try invoke(["help", "cancel"]) == "help: cancel help")
        #expect(try invoke(["cancel", "--help"]) == "help: cancel help")
        #expect(try invoke([]) == "help: usage")
        #expect(try invoke(["--help"]) == "help: usage")
        #expect(try invoke(["--help"], fallback: "track") == "help: track help")
    }

    @Test func aNamedCommandGetsTheRestAndTheFallbackGetsEverything() throws {
        #expect(try invoke(["cancel", "1234"]) == "cancelled 1234")
        #expect(try invoke(["1234", "--watch"], fallback: "track") == "tracked 1234")
        #expect(try invoke(["track", "1234"], fallback: "track") == "tracked 1234")
    }

    @Test func unknownWordsAreUsageErrorsWithADidYouMean() {
        #expect(throws: UsageError(message: "unknown command 'cancle'; did you mean 'cancel'?")) {
            try invoke(["cancle"])
        }
        #expect(throws: UsageError(message: "no help for 'trak'; did you mean 'track'?")) {
            try invoke(["help", "trak"])
        }
        #expect(throws: UsageError(message: "unknown option '--wtch'"), "cancel has no --watch") {
            try invoke(["cancel", "--wtch"])
        }
    }
}
