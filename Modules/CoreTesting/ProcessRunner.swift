import Core
import Foundation
import HostIO

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
    /// task holds none of the test pool's threads (a thread of its own waits for the child), so a suite of
    /// process tests cannot starve the others.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: String? = nil, limit: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        let child = try Child(executable, arguments, environment: environment, directory: directory)
        defer { child.removeFiles() }
        let process = try child.start(stdin: stdin)
        let (exits, exited) = AsyncStream<Int32>.makeStream()
        let ended = Locked(Int32?.none)
        Thread {
            let status = process.wait()
            ended.withLock { $0 = status }
            exited.yield(status)
            exited.finish()
        }
        .start()
        // The exit status, or nil when the limit (or the test's cancellation) came first.
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in exits { return status }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        // A busy test pool can run the limit's task before the one that heard the exit: a child that ended is
        // not a timeout, however late the test got round to looking.
        guard let status = status ?? ended.withLock({ $0 }) else {
            process.send(SIGKILL)
            for await _ in exits {}
            try Task.checkCancellation()
            throw ProcessTimedOut(command: child.commandLine, limit: limit)
        }
        return child.result(status)
    }

    /// The blocking form, for what cannot await: the benchmark executable (which times whole processes and has
    /// no pool to starve), a `deinit`'s clean-up, a global's initial value.
    public static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        stdin: String? = nil, limit: Duration = .seconds(60)
    ) throws -> ProcessResult {
        let child = try Child(executable, arguments, environment: environment, directory: directory)
        defer { child.removeFiles() }
        let process = try child.start(stdin: stdin)
        while true {
            if let status = process.endedStatus() { return child.result(status) }
            if ContinuousClock.now - child.started > limit {
                process.send(SIGKILL)
                _ = process.wait()
                throw ProcessTimedOut(command: child.commandLine, limit: limit)
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }
}

/// One child process with its output captured in files (a pipe could fill and stall it), started with HostIO's
/// `ChildProcess` (Foundation's `Process.run()` crashes the test process now and then on Linux).
private final class Child: @unchecked Sendable {
    let commandLine: String
    private let command: [String]
    private let environment: [String: String]?
    private let directory: String?
    private let files: [URL]
    private(set) var started = ContinuousClock.now

    init(_ executable: String, _ arguments: [String], environment: [String: String]?, directory: URL?) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        command = [executable] + arguments
        if var environment {
            // Scripts/test-clean's marker reaches every child, also one given an environment of its own, so a
            // child the test failed to end (a crash of the test process) is still found and ended; so does the
            // run's temporary folder, so what a child leaves there (a sanitizer's file, when a test kills the
            // child as it starts) goes with the run's folder instead of landing in /tmp.
            environment["COURIER_TEST_RUN"] = ProcessInfo.processInfo.environment["COURIER_TEST_RUN"]
            if environment["TMPDIR"] == nil {
                environment["TMPDIR"] = ProcessInfo.processInfo.environment["TMPDIR"]
            }
            self.environment = environment
        } else {
            self.environment = nil
        }
        self.directory = directory?.path
        files = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("courier-proc-\(UUID().uuidString)")
        }
        for file in files { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    }

    /// Starts the child with `stdin` on its standard input (then closed) and its output in the files.
    func start(stdin: String?) throws -> ChildProcess {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ChildProcessError(message: "cannot make a pipe for \(commandLine)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let output = files.map { open($0.path, O_WRONLY | O_CLOEXEC) }
        defer { for descriptor in output where descriptor >= 0 { close(descriptor) } }
        guard output.allSatisfy({ $0 >= 0 }) else {
            for end in ends { close(end) }
            throw ChildProcessError(message: "cannot open the output files for \(commandLine)")
        }
        started = .now
        let process: ChildProcess
        do {
            process = try ChildProcess.start(
                command, environment: environment, directory: directory, input: ends[0], output: output[0],
                error: output[1])
        } catch {
            for end in ends { close(end) }
            throw error
        }
        close(ends[0])
        if let stdin {
            var bytes = Array(stdin.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { break }
                bytes = bytes.dropFirst(written)
            }
        }
        close(ends[1])
        return process
    }

    func result(_ status: Int32) -> ProcessResult {
        let elapsed = ContinuousClock.now - started
        let read = { (url: URL) in String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self) }
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
