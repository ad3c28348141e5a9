import SafeText

/// One command of a command-line tool, declared once: its name, the options it takes, its help text and what
/// runs it. Dispatch, `--help`, `help COMMAND` and every did-you-mean read one list of these, so a command's
/// name never lives in two places.
public struct CommandDeclaration<Run: Sendable>: Sendable {
    /// The word that selects it.
    public let name: String
    /// Every option it takes, each once (the parser and its help lines read these).
    public let options: [OptionSpec]
    /// Options that may be given more than once.
    public let repeatable: Set<String>
    /// What `COMMAND --help` and `help COMMAND` print; built only when asked (a run never pays for it).
    public var help: String { helpText() }
    private let helpText: @Sendable () -> String
    /// What runs it; each tool chooses the shape (its context, sync or async).
    public let run: Run

    /// A command; `run` last, so it reads as a trailing closure.
    public init(
        name: String, options: [OptionSpec], repeatable: Set<String> = [],
        help: @autoclosure @escaping @Sendable () -> String, run: Run
    ) {
        (self.name, self.options, self.repeatable, self.helpText, self.run) = (name, options, repeatable, help, run)
    }

    /// A command whose help is `about` followed by an OPTIONS section made from `options`: every option it
    /// accepts is listed, and nothing it does not accept, so the help cannot drift from the parser.
    public init(
        name: String, options: [OptionSpec], repeatable: Set<String> = [],
        about: @autoclosure @escaping @Sendable () -> String, run: Run
    ) {
        self.init(
            name: name, options: options, repeatable: repeatable,
            help: about() + "\n\nOPTIONS\n" + OptionSpec.helpLines(options), run: run)
    }
}

/// What a command line asks a tool to do: print a help text, or run one command with its parsed arguments.
public enum Invocation<Run: Sendable>: Sendable {
    /// Print this text and succeed.
    case help(String)
    /// Run the command.
    case run(CommandDeclaration<Run>, ParsedArguments)

    /// Reads `arguments` against `commands`: `help [COMMAND]`, `COMMAND … [--help]`, and otherwise the `fallback`
    /// command's arguments when there is one (`order-tracking 1234`), else the tool's `usage` for no command or
    /// `--help`. An unknown word is a usage error with a did-you-mean.
    public static func of(
        _ arguments: [String], commands: [CommandDeclaration<Run>], usage: @autoclosure () -> String,
        fallback: String? = nil
    ) throws(UsageError) -> Invocation {
        let names = commands.map(\.name)
        if arguments.first == "help" {
            guard let topic = arguments.dropFirst().first, !["help", "--help", "-h"].contains(topic) else {
                return .help(usage())
            }
            guard let command = commands.first(where: { $0.name == topic }) else {
                throw UsageError(message: "no help for '\(topic)'" + suggestion(for: topic, among: names + ["help"]))
            }
            return .help(command.help)
        }
        let named = arguments.first.flatMap { word in commands.first { $0.name == word } }
        guard let command = named ?? commands.first(where: { $0.name == fallback }) else {
            guard let word = arguments.first, !["--help", "-h"].contains(word) else { return .help(usage()) }
            throw UsageError(message: "unknown command '\(word)'" + suggestion(for: word, among: names + ["help"]))
        }
        // A mistyped command with its arguments (`logn 1234`) is a command, not the fallback's first value.
        if named == nil, let word = arguments.first, !word.hasPrefix("-"), !word.allSatisfy(\.isNumber) {
            let hint = suggestion(for: word, among: names + ["help"])
            if !hint.isEmpty { throw UsageError(message: "unknown command '\(SafeText.visible(word))'" + hint) }
        }
        let parsed = try ArgumentParser(options: command.options, repeatable: command.repeatable).parse(
            named == nil ? arguments : Array(arguments.dropFirst()))
        return parsed.options["--help"] != nil ? .help(command.help) : .run(command, parsed)
    }
}
