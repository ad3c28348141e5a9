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

    /// Runs `executable` (a path, or a name looked up on PATH) and waits at most `limit`, suspended: the waiting
    /// task holds none of the test pool's threads, so a suite of process tests cannot starve the others.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: String? = nil, limit: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        let child = try Child(executable, arguments, environment: environment, directory: directory)
        defer { child.removeFiles() }
        let (exits, exited) = AsyncStream<Void>.makeStream()
        child.process.terminationHandler = { _ in exited.finish() }
        try child.start(stdin: stdin)
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in exits {}
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard finished else {
            child.kill()
            try Task.checkCancellation()
            throw ProcessTimedOut(command: child.commandLine, limit: limit)
        }
        return child.result()
    }

    /// The blocking form, for what cannot await: the benchmark executable (which times whole processes and has
    /// no pool to starve), a `deinit`'s clean-up, a global's initial value.
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: String? = nil, limit: Duration = .seconds(60)
    ) throws -> ProcessResult {
        let child = try Child(executable, arguments, environment: environment, directory: directory)
        defer { child.removeFiles() }
        try child.start(stdin: stdin)
        while child.process.isRunning {
            if ContinuousClock.now - child.started > limit {
                child.kill()
                throw ProcessTimedOut(command: child.commandLine, limit: limit)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        child.process.waitUntilExit()
        return child.result()
    }
}

/// One child process with its output captured in files (a pipe could fill and stall it).
private final class Child: @unchecked Sendable {
    let process = Process()
    let commandLine: String
    private let files: [URL]
    private let input = Pipe()
    private(set) var started = ContinuousClock.now

    init(_ executable: String, _ arguments: [String], environment: [String: String]?, directory: URL?) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if var environment {
            // Scripts/test-clean's marker reaches every child, also one given an environment of its own, so a
            // child the test failed to end (a crash of the test process) is still found and ended.
            environment["COURIER_TEST_RUN"] = ProcessInfo.processInfo.environment["COURIER_TEST_RUN"]
            process.environment = environment
        }
        if let directory { process.currentDirectoryURL = directory }
        files = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("courier-proc-\(UUID().uuidString)")
        }
        for file in files { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: files[0])
        process.standardError = try FileHandle(forWritingTo: files[1])
        process.standardInput = input
    }

    func start(stdin: String?) throws {
        started = .now
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func result() -> ProcessResult {
        let elapsed = ContinuousClock.now - started
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return ProcessResult(status: status, stdout: read(files[0]), stderr: read(files[1]), elapsed: elapsed)
    }

    func removeFiles() {
        for file in files { try? FileManager.default.removeItem(at: file) }
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
