import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

/// One `squad` command (ArgumentParsing's declaration): its run gets the parsed arguments and a ``SquadRun``.
typealias SquadCommand = CommandDeclaration<@Sendable (ParsedArguments, SquadRun) throws -> Int32>

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
