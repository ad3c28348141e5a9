import CodeOwnership
import Foundation
import SafeText

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
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("squad-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", "-c", "set -euo pipefail; " + commandLine]
        process.currentDirectoryURL = directory
        do {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            (process.standardOutput, process.standardError) = (handle, handle)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch { throw ShellError(message: "cannot run bash: \(error.localizedDescription)") }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))
    }

    /// Runs `command` and returns stdout's bytes as they are (git paths are bytes, not text).
    func runBytes(_ command: String, _ arguments: [String], environment: [String: String] = [:]) throws(ShellError)
        -> Data
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("squad-\(UUID().uuidString)")
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("squad-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        do {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch { throw ShellError(message: "cannot run \(command): \(error.localizedDescription)") }
        process.waitUntilExit()
        let stdout = (try? Data(contentsOf: output)) ?? Data()
        guard process.terminationStatus == 0 else {
            let stderr = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
            throw ShellError(
                message: "\(command) \(arguments.map(PathBytes.quoted).joined(separator: " ")) failed: "
                    + SafeText.visible(stderr.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return stdout
    }
}
