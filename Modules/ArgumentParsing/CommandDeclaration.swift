import SafeText

/// One command of a command-line tool, declared once: its name, its positionals, its typed options, its help and
/// what runs it. Dispatch, the count and required-option checks, `--help`, `help COMMAND`, the tool's USAGE
/// lines and every did-you-mean read one list of these, so nothing about a command lives in two places.
public struct CommandDeclaration<Run: Sendable>: Sendable {
    /// The word that selects it.
    public let name: String
    /// The words it takes besides options.
    public let positionals: Positionals
    /// Every option it takes, each once, `--help` last (the parser and the OPTIONS section read these).
    public let options: [OptionSpec]
    /// One line for the tool's USAGE list.
    public let summary: String
    /// What it does, for `COMMAND --help`; built only when asked (a run never pays for it).
    private let about: @Sendable () -> String
    /// What runs it; each tool chooses the shape (its context, sync or async).
    public let run: Run

    /// A command; `run` last, so it reads as a trailing closure. `--help` is added to `options`.
    public init(
        name: String, positionals: Positionals = .none, options: [any OptionDeclaration], summary: String,
        about: @autoclosure @escaping @Sendable () -> String, run: Run
    ) {
        let specs = options.map(\.spec)
        let options = specs.contains { $0.name == OptionSpec.help.name } ? specs : specs + [OptionSpec.help]
        (self.name, self.positionals, self.options) = (name, positionals, options)
        (self.summary, self.about, self.run) = (summary, about, run)
    }

    /// "cancel ORDER-ID --base REF [options]": the command as typed (`named` false for a tool's default command,
    /// whose name is never typed).
    public func synopsis(named: Bool = true) -> String {
        let required = options.filter(\.required).map(\.synopsis)
        let optional = options.contains { !$0.required && $0.name != OptionSpec.help.name } ? ["[options]"] : []
        return ((named ? [name] : []) + [positionals.synopsis] + required + optional).filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    /// `COMMAND --help`: its usage line, what it does and an OPTIONS section made from the options it accepts.
    public func help(tool: String) -> String {
        "usage: \(tool) \(synopsis())\n\n\(about())\n\nOPTIONS\n\(OptionSpec.helpLines(options))"
    }

    /// Refuses what parsing alone cannot see: a wrong number of positionals, a required option left out.
    func check(_ parsed: ParsedArguments, named: Bool) throws(UsageError) {
        try positionals.check(parsed.positionals, command: named ? name : nil)
        for option in options where option.required && !parsed.has(option.name) {
            throw UsageError(message: "\(name) needs \(option.synopsis): \(option.help)")
        }
    }
}

/// A tool's command list: the USAGE lines of its `--help` and README are generated from it.
public struct CommandLineSynopsis: Sendable {
    /// The tool's name, as typed.
    public let tool: String
    /// Each command's synopsis and summary, in order.
    public let lines: [(synopsis: String, summary: String)]

    /// The lines for `commands` (the `fallback` command, the tool's default, shown without its name), then
    /// `trailer` (such as "squad COMMAND --help | --version").
    public init<Run>(tool: String, commands: [CommandDeclaration<Run>], fallback: String? = nil, trailer: String) {
        self.tool = tool
        lines =
            commands.map { ("\(tool) \($0.synopsis(named: $0.name != fallback))", $0.summary) }
            + [("\(tool) \(trailer)", "")]
    }

    /// The USAGE section: one line a command, summaries aligned.
    public var text: String {
        let width = lines.filter { !$0.summary.isEmpty }.map(\.synopsis.count).max() ?? 0
        return lines.map { line in
            line.summary.isEmpty
                ? line.synopsis
                : line.synopsis + String(repeating: " ", count: width - line.synopsis.count + 3) + line.summary
        }.joined(separator: "\n")
    }
}

/// What a command line asks a tool to do: print a help text, or run one command with its parsed arguments.
public enum Invocation<Run: Sendable>: Sendable {
    /// Print this text and succeed.
    case help(String)
    /// Run the command.
    case run(CommandDeclaration<Run>, ParsedArguments)

    /// Reads `arguments` against `commands`: `help [COMMAND]`, `COMMAND … [--help | -h]`, and otherwise the
    /// `fallback` command's arguments when there is one (`order-tracking 1234`), else the tool's `usage` for no
    /// command or `--help`. The command is the first word that is neither an option nor an option's value, so
    /// options typed before it apply to it (`order-tracking --timeout 3 checkout C100`), as people type them
    /// with git or swift-argument-parser. An unknown word is a usage error with a did-you-mean; a command's
    /// usage error names it.
    public static func of(
        _ arguments: [String], tool: String, commands: [CommandDeclaration<Run>], usage: @autoclosure () -> String,
        fallback: String? = nil
    ) throws(UsageError) -> Invocation {
        let names = commands.map(\.name)
        func help(_ command: CommandDeclaration<Run>) -> String {
            command.name == fallback ? usage() : command.help(tool: tool)
        }
        let position = commandPosition(in: arguments, commands: commands)
        let word = position.map { arguments[$0] }
        if let position, word == "help" {
            guard let topic = arguments.dropFirst(position + 1).first, !["help", "--help", "-h"].contains(topic)
            else {
                return .help(usage())
            }
            guard let command = commands.first(where: { $0.name == topic }) else {
                throw UsageError(
                    message: "no help for '\(SafeText.visible(topic))'" + suggestion(for: topic, among: names))
            }
            return .help(help(command))
        }
        let named = word.flatMap { word in commands.first { $0.name == word } }
        guard let command = named ?? commands.first(where: { $0.name == fallback }) else {
            guard let word else {
                let helps = [OptionSpec.help.name] + OptionSpec.help.aliases
                if arguments.isEmpty || arguments.contains(where: helps.contains) { return .help(usage()) }
                throw UsageError(message: "no command given: use one of " + names.joined(separator: ", "))
            }
            throw UsageError(
                message: "unknown command '\(SafeText.visible(word))'" + suggestion(for: word, among: names + ["help"]))
        }
        // A mistyped command with its arguments (`logn 1234`) is a command, not the fallback's first value.
        if named == nil, let word, !word.allSatisfy(\.isNumber) {
            let hint = suggestion(for: word, among: names + ["help"])
            if !hint.isEmpty { throw UsageError(message: "unknown command '\(SafeText.visible(word))'" + hint) }
        }
        let shown = command.name == fallback && named == nil ? nil : command.name
        var rest = arguments
        if named != nil, let position { rest.remove(at: position) }
        do {
            let parsed = try ArgumentParser(options: command.options).parse(rest)
            if parsed.has(OptionSpec.help.name) { return .help(help(command)) }
            try command.check(parsed, named: shown != nil)
            return .run(command, parsed)
        } catch {
            throw UsageError(message: error.message, command: shown)
        }
    }

    /// Where the command's name is: the first argument before `--` that is neither an option nor an option's
    /// value (nil: none). Whether an option takes a value is read from every command's declarations, so
    /// `--timeout 3 checkout` skips the 3; a tool gives a name one shape in all its commands (each app's tests
    /// hold that), or a word after it could be taken for the command.
    static func commandPosition(in arguments: [String], commands: [CommandDeclaration<Run>]) -> Int? {
        let valued = Set(
            commands.flatMap(\.options).filter { $0.placeholder != nil }.flatMap { [$0.name] + $0.aliases })
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument != "--" else { return nil }
            guard argument.hasPrefix("-"), argument != "-" else { return index }
            index += valued.contains(argument) ? 2 : 1
        }
        return nil
    }
}
