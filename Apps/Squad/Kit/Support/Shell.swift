import CodeOwnership
import Foundation
import HostIO
import SafeText

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A failed or unrunnable command; the message names it and what it printed.
public struct ShellError: Error, CustomStringConvertible, Equatable {
    /// The message.
    public let message: String
    /// Creates an error with a message that says what failed.
    public init(message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Runs git and swift for the gate and the linter, in the repository's directory.
struct Shell: Sendable {
    let directory: URL

    /// Runs `command` and returns stdout; a non-zero exit is a ``ShellError`` carrying stderr. `environment`
    /// adds to (or overrides) this process's.
    func run(_ command: String, _ arguments: [String], environment: [String: String] = [:]) throws(ShellError)
        -> String
    {
        String(decoding: try runBytes(command, arguments, environment: environment), as: UTF8.self)
    }

    /// Runs a bash command line with stdout and stderr in one log, as a person would see them in a terminal,
    /// and returns its exit status and that log (a check's failures may be reported on either stream).
    func runLogged(_ commandLine: String) throws(ShellError) -> (status: Int32, log: String) {
        let log = try Shell.unnamedFile()
        let status = try spawn(["bash", "-c", "set -euo pipefail; " + commandLine], nil, output: log, error: log)
        return (status, String(decoding: Shell.contents(log), as: UTF8.self))
    }

    /// Runs `command` and returns stdout's bytes as they are (git paths are bytes, not text).
    func runBytes(_ command: String, _ arguments: [String], environment: [String: String] = [:]) throws(ShellError)
        -> Data
    {
        let (output, errors) = (try Shell.unnamedFile(), try Shell.unnamedFile())
        let status = try spawn(
            [command] + arguments,
            environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: output, error: errors)
        let stdout = Shell.contents(output)
        guard status == 0 else {
            let stderr = String(decoding: Shell.contents(errors), as: UTF8.self)
            throw ShellError(
                message: "\(command) \(arguments.map(PathBytes.quoted).joined(separator: " ")) failed: "
                    + SafeText.visible(stderr.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return stdout
    }

    /// Runs `command` in the repository with no input and waits for it: its exit status.
    private func spawn(_ command: [String], _ environment: [String: String]?, output: FileHandle, error: FileHandle)
        throws(ShellError) -> Int32
    {
        do {
            return try ChildProcess.start(
                command, environment: environment, directory: directory.path, output: output.fileDescriptor,
                error: error.fileDescriptor
            ).wait()
        } catch { throw ShellError(message: error.message) }
    }

    /// A file with no name (libc's `tmpfile`: on Linux opened with O_TMPFILE, never named; elsewhere removed
    /// as it is made): a child writes into it without a pipe that could fill, and a signal that ends squad
    /// mid-command (Ctrl-C exits at once) leaves nothing behind, at any instant.
    private static func unnamedFile() throws(ShellError) -> FileHandle {
        guard let file = tmpfile() else {
            throw ShellError(message: "cannot make a temporary file: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        let descriptor = dup(fileno(file))
        guard descriptor >= 0 else { throw ShellError(message: "cannot make a temporary file: too many open files") }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Everything the child wrote into `file` (read from its start), the file then closed.
    private static func contents(_ file: FileHandle) -> Data {
        defer { try? file.close() }
        try? file.seek(toOffset: 0)
        return (try? file.readToEnd()) ?? Data()
    }
}
