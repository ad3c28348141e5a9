import ArgumentParsing
import CodeOwnership
import Foundation
import JSON
import SafeText

/// One `squad` command (ArgumentParsing's declaration): its run gets the parsed arguments and a ``SquadRun``.
typealias SquadCommand = CommandDeclaration<@Sendable (ParsedArguments, SquadRun) throws -> Int32>

/// What a command runs with (where it was started, the repository, git, stdin) and where it prints.
final class SquadRun {
    let directory: URL
    let root: URL
    let shell: Shell
    let stdin: () throws -> [UInt8]
    let print: SquadOutput

    init(directory: URL, root: URL, stdin: @escaping () throws -> [UInt8], print: SquadOutput) {
        (self.directory, self.root, self.shell, self.stdin) = (directory, root, Shell(directory: root), stdin)
        self.print = print
    }
}

/// Where a command's text goes as soon as it is made: the process's streams when squad runs (so `squad check`
/// shows each verdict as its check ends), or two strings for in-process tests.
struct SquadOutput {
    /// Text for stdout, whole lines.
    let out: (String) -> Void
    /// Text for stderr, whole lines.
    let err: (String) -> Void
    /// Whether stdout is gone (its reader left, or the disk is full): a long listing stops making text.
    var stopped: () -> Bool = { false }
}

extension SquadApp {
    /// Every command, in the order the usage lists them.
    static let commands: [SquadCommand] = [
        ownersCommand, lintCommand, gateCommand, affectedCommand, checkCommand, newCommand,
    ]
}
