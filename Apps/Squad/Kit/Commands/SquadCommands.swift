import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

/// One `squad` command, declared once: its name, usage line, what it does, its options and what runs it. The
/// dispatcher, the usage text, `help COMMAND` and every did-you-mean read the one list below.
struct SquadCommand: Sendable {
    let name: String
    let synopsis: String
    let about: String
    let options: [OptionSpec]
    var repeatable: Set<String> = []
    let run: @Sendable (ParsedArguments, SquadRun) throws -> Int32

    /// What dispatch reads (ArgumentParsing's `Invocation`).
    typealias Declaration = CommandDeclaration<@Sendable (ParsedArguments, SquadRun) throws -> Int32>

    /// This command as dispatch sees it, with `squad COMMAND --help` as its help.
    var declaration: Declaration {
        let help = "usage: \(synopsis)\n\n\(about)\n\n\(OptionSpec.helpLines(options))"
        return Declaration(name: name, options: options, repeatable: repeatable, help: help, run: run)
    }
}

/// What a command runs with (where it was started, the repository, git, stdin) and what it prints.
final class SquadRun {
    let directory: URL
    let root: URL
    let shell: Shell
    let stdin: () throws -> String
    var output = ""
    var errors = ""

    init(directory: URL, root: URL, stdin: @escaping () throws -> String) {
        (self.directory, self.root, self.shell, self.stdin) = (directory, root, Shell(directory: root), stdin)
    }
}

extension SquadApp {
    /// Every command, in the order the usage lists them.
    static let commands: [SquadCommand] = [
        ownersCommand, lintCommand, gateCommand, affectedCommand, checkCommand, newCommand,
    ]
}
