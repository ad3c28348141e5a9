import ArgumentParsing
import CodeOwnership
import Foundation
import HostIO
import JSON
import SafeText

/// The `squad` command: owners, lint, gate, affected, check, new. Exit 0 ok, 1 blocked, findings or unwritable
/// output, 2 error, 64 usage, 128 + a signal's number when one ends it.
public enum SquadApp {
    static let version = "squad 0.1.0"

    // Every command's options once, typed, with their help lines: the parser and `--help` read the same lists.
    static let codeowners = Option.text("--codeowners", "FILE", help: "a CODEOWNERS file other than the repository's")
    static let format = Option<OutputFormat>.choice("--format", help: "output format (default text)")
    static let nulSeparated = Option.flag("-z", help: "paths on stdin are NUL-separated (git ls-files -z)")
    static let ownedBy = Option.text("--owner", "TEAM", help: "list the tracked files TEAM owns")
    static let unowned = Option.flag("--unowned", help: "list the tracked files nobody owns")
    static let mergeBase = Option.text(
        "--base", "REF", required: true, help: "the branch the pull request merges into")
    static let prHead = Option.text("--head", "REF", help: "the pull request's head (default HEAD)")
    static let reviews = Option.text(
        "--reviews", "FILE|-", help: "the PR's reviews as GitHub's API lists them (gh api --paginate …/pulls/N/reviews)"
    )
    static let teams = Option.text(
        "--teams", "FILE", help: "team and email members (default: the base's .github/teams.json)")
    static let dismissStale = Option.flag(
        "--dismiss-stale", help: "an approval of an older commit than the head counts for nothing")
    static let approvedBy = Option.text(
        "--approved-by", "OWNER", repeatable: true, help: "an owner's approval, for what-ifs (repeat for each)")
    static let author = Option.text("--author", "USER", help: "the pull request's author (cannot approve)")
    static let files = Option.text("--files", "FILE|-", help: "changed paths from a file or stdin instead of git")
    static let compareBase = Option.text("--base", "REF", help: "the branch to compare with (or --files)")
    static let compareHead = Option.text("--head", "REF", help: "the revision to compare (default HEAD)")
    static let checkBase = Option.text("--base", "REF", help: "the branch you will merge into (default main)")
    static let newOwner = Option.text(
        "--owner", "OWNER", required: true, help: "the owning team, e.g. @courier/rewards")
    static let newScreen = Option.text(
        "--screen", "SCREEN", help: "the screen the card joins: tracking (default), checkout, …")

    /// `squad --help`: one line a command, generated from the declarations (the README's synopsis is this text).
    static var synopsis: String {
        CommandLineSynopsis(tool: "squad", commands: commands, trailer: "COMMAND --help | --help | --version").text
    }

    static var usage: String {
        """
        squad: the monorepo's own tool.

        \(synopsis)

        -h is --help. Options go before or after the command (squad --format json owners PATH); given twice, an
        option takes its last value (--approved-by keeps every one).

        Exit status: 0 ok / may merge, 1 blocked or lint findings (or stdout could not be written), 2 error
        (git failure, an unreadable or malformed file), 64 usage error, 129/130/131/143 ended by SIGHUP,
        Ctrl-C, SIGQUIT, SIGTERM.
        """
    }

    /// Standard input as bytes (git names need not be UTF-8), read in pieces and refused past ``BoundedInput/limit``
    /// (the default for ``main(_:closed:stdin:)``).
    public static func standardInput() throws -> [UInt8] { try BoundedInput.standardInput() }

    /// Gives closed standard descriptors to /dev/null before anything else opens a file (HostIO); call it first.
    public static func reserveStandardDescriptors() -> Set<Int32> { StandardStreams.reserveDescriptors() }

    /// Runs the command line in the current directory and returns the exit status, the way every Courier CLI
    /// runs (HostIO's `CommandLineTool`): a closed stdout refused, Ctrl-C 130, SIGTERM 143, SIGHUP 129, and a
    /// failed write to stdout (a full disk) said on stderr and exit 1, never a silent 0 (`closed`: what
    /// `StandardStreams.reserveDescriptors()` found first thing).
    public static func main(
        argumentBytes: [[UInt8]], closed: Set<Int32>,
        stdin: @escaping @Sendable () throws -> [UInt8] = {
            try SquadApp.standardInput()
        }
    ) async -> Int32 {
        let tool = CommandLineTool(name: "squad")
        return await tool.main(closed: closed) { streams throws(UsageError) in
            let arguments = try SquadApp.arguments(argumentBytes)
            let terminal = Terminal(environment: [:], noColorFlag: true, streams: streams)
            return try await CommandLineTool.running(terminal, streams: streams, signals: true) {
                // The commands block on git, files and stdin: on a thread of their own, so a signal ends squad
                // at once (the run unwinds without waiting for them).
                await blockingWork(ifCancelled: 1) {
                    let print = SquadOutput(
                        out: { streams.out($0) },
                        err: { text in
                            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                                streams.err(String(line))
                            }
                        }, stopped: { streams.failure != nil })
                    return run(
                        arguments, directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                        stdin: stdin, print: print)
                }
            }
        }
    }

    /// The command line as text. Any argument may be a path, and one that is not UTF-8 would be read with U+FFFD
    /// in place of its bytes, which names another file: refused instead (64), with the way to pass such a name.
    static func arguments(_ bytes: [[UInt8]]) throws(UsageError) -> [String] {
        var arguments: [String] = []
        for (index, argument) in bytes.enumerated() {
            guard let text = String(validating: argument, as: UTF8.self) else {
                var quoted: [UInt8] = []
                argument.withUnsafeBufferPointer { PathBytes.appendQuoted($0, to: &quoted) }
                throw UsageError(
                    message: "argument \(index + 1), \(String(decoding: quoted, as: UTF8.self)), is not UTF-8; "
                        + "give such a name on stdin as git lists it: git ls-files -z | squad owners - -z")
            }
            arguments.append(text)
        }
        return arguments
    }

    /// Runs a command in `directory`, collecting what it prints; the testable entry point.
    public static func run(
        _ arguments: [String], directory: URL, stdin: () throws -> [UInt8] = { [] }, output: inout String,
        errors: inout String
    ) -> Int32 {
        final class Collected {
            var output = ""
            var errors = ""
        }
        let collected = Collected()
        let status = withoutActuallyEscaping(stdin) { stdin in
            run(
                arguments, directory: directory, stdin: stdin,
                print: SquadOutput(out: { collected.output += $0 }, err: { collected.errors += $0 }))
        }
        (output, errors) = (output + collected.output, errors + collected.errors)
        return status
    }

    /// Runs a command in `directory`, printing as it goes.
    static func run(_ arguments: [String], directory: URL, stdin: @escaping () throws -> [UInt8], print: SquadOutput)
        -> Int32
    {
        do {
            return try dispatch(arguments, directory: directory, stdin: stdin, print: print)
        } catch let error as UsageError {
            print.err(error.line(tool: "squad") + "\n")
            return 64
        } catch {
            print.err("squad: \(SafeText.visible("\(error)"))\n")
        }
        return 2
    }

    static func dispatch(
        _ arguments: [String], directory: URL, stdin: @escaping () throws -> [UInt8], print: SquadOutput
    ) throws -> Int32 {
        if arguments.first == "--version" {
            print.out(version + "\n")
            return 0
        }
        let command: SquadCommand
        let parsed: ParsedArguments
        switch try Invocation.of(arguments, tool: "squad", commands: commands, usage: usage) {
        case .help(let text):
            print.out(text + "\n")
            return 0
        case .run(let declaration, let arguments): (command, parsed) = (declaration, arguments)
        }
        let run = SquadRun(directory: directory, root: repositoryRoot(from: directory), stdin: stdin, print: print)
        return try command.run(parsed, run)
    }

    /// The changed paths: from `--files` when given, else git's changes from `base` to `head`.
    static func changedPaths(
        _ parsed: ParsedArguments, base: String?, head: String?, shell: Shell, stdin: () throws -> [UInt8]
    ) throws -> [String] {
        if let files = parsed[files] {
            let text: [UInt8]
            let source: String
            if files == "-" {
                (text, source) = (try stdin(), "standard input")
            } else {
                source = "--files '\(SafeText.visible(files))'"
                guard let data = try BoundedInput.file(files, name: source) else {
                    throw UsageError(message: "--files '\(files)' cannot be read")
                }
                text = data
            }
            // A name that is not UTF-8 keeps U+FFFD where its bytes were, which the gate answers with the
            // platform team (fail closed), as it does for such a name from git.
            return try GitPathLines.split(
                text, source: source, hint: "list the paths as git diff --name-only prints them"
            )
            .map { String(decoding: $0, as: UTF8.self) }
        }
        guard let base else {
            throw UsageError(message: "needs --base REF (or --files FILE|-)")
        }
        let git = Git(shell: shell)
        try git.verify(base)
        return try git.changes(base: base, head: head ?? "HEAD").flatMap(\.paths)
    }

    static func loadCodeOwners(_ file: String?, root: URL, directory: URL) throws -> (
        path: String, owners: CodeOwners, ignored: String?
    ) {
        let url: URL
        if let file {
            url = URL(fileURLWithPath: file, relativeTo: directory)
        } else {
            guard let found = CodeOwners.locate(in: root) else {
                throw ShellError(message: "no CODEOWNERS in .github/, the root or docs/ of \(root.path)")
            }
            url = found
        }
        guard let data = try BoundedInput.file(url.path, name: url.path) else {
            throw ShellError(message: "cannot read \(url.path)")
        }
        let path = url.path.hasPrefix(root.path + "/") ? String(url.path.dropFirst(root.path.count + 1)) : url.path
        // A file GitHub ignores is no rules at all: every path falls to the platform team (fail closed), and the
        // huge file is never parsed.
        if let reason = CodeOwners.ignoredBySize(data.count, path: path) {
            return (path, CodeOwners(text: "* \(Gate.platform)"), reason)
        }
        return (path, CodeOwners(text: String(decoding: data, as: UTF8.self)), nil)
    }

    static func isJSON(_ parsed: ParsedArguments) -> Bool { parsed[format] == .json }

    static func repositoryRoot(from directory: URL) -> URL {
        let top = try? Shell(directory: directory).run("git", ["rev-parse", "--show-toplevel"])
        return top.map { URL(fileURLWithPath: $0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? directory
    }

    /// The directory with symlinks resolved, so it compares with git's top level.
    static func realDirectory(_ directory: URL) -> URL { directory.resolvingSymlinksInPath() }
}
