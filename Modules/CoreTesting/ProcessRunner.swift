import Foundation

/// What a finished child process left behind.
public struct ProcessResult: Sendable {
    /// The exit status (or 128 + signal when killed).
    public let status: Int32
    /// Everything written to stdout.
    public let stdout: String
    /// Everything written to stderr.
    public let stderr: String
    /// Wall time from launch to exit.
    public let elapsed: Duration
}

/// Runs real executables from tests (the built CLIs, git, tmux) with a hard time limit, so an end-to-end test
/// can never hang the suite.
public enum ProcessRunner {
    /// The directory holding the built products (next to the running test bundle).
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// Runs `executable` (a path, or a name looked up on PATH) and waits at most `limit`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: String? = nil, limit: Duration = .seconds(60)
    ) throws -> ProcessResult {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let files = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("courier-proc-\(UUID().uuidString)")
        }
        for file in files { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        defer { for file in files { try? FileManager.default.removeItem(at: file) } }
        process.standardOutput = try FileHandle(forWritingTo: files[0])
        process.standardError = try FileHandle(forWritingTo: files[1])
        let input = Pipe()
        process.standardInput = input
        let started = ContinuousClock.now
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        while process.isRunning {
            if ContinuousClock.now - started > limit {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw ProcessTimedOut(command: ([executable] + arguments).joined(separator: " "), limit: limit)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - started
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: read(files[0]), stderr: read(files[1]), elapsed: elapsed)
    }
}

/// A child process outlived its time limit and was killed.
public struct ProcessTimedOut: Error, CustomStringConvertible {
    /// The command line.
    public let command: String
    /// The limit it exceeded.
    public let limit: Duration
    /// Names the command and the limit.
    public var description: String { "'\(command)' did not finish within \(limit) and was killed" }
}
