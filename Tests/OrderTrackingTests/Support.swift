import ArgumentParsing
import Core
import CoreTesting
import Foundation
import HostIO

@testable import OrderTrackingKit

/// The built `order-tracking` binary, run the way a user or a script runs it.
enum CLI {
    /// A run's environment, each read with a data folder of its own (`XDG_DATA_HOME`): a payment one test settles
    /// is kept there for a day, and must never answer another test's. A test that follows one attempt across runs
    /// passes its own `--data-dir`.
    static var environment: [String: String] {
        sanitizerOptions.merging([
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "COURIER_NOW": "2027-01-15T08:00:00Z", "COLUMNS": "60", "HOME": NSTemporaryDirectory(),
            "XDG_DATA_HOME": dataHome.appendingPathComponent(UUID().uuidString).path,
        ]) { $1 }
    }

    /// Sanitizer settings (suppressions, exit codes) reach the child processes too.
    static let sanitizerOptions = ProcessInfo.processInfo.environment.filter {
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key)
    }

    /// A data directory nobody signs in to, so the account card reads "Not signed in". Payments keep their
    /// attempts there (`courier/attempts`), so it lives beside the built products, emptied once per test process,
    /// as the merged fixtures do: the tests' temporary folder must stay empty.
    static let dataHome: URL = {
        let folder = ProcessRunner.productsDirectory.appendingPathComponent("courier-tests-data")
        try? FileManager.default.removeItem(at: folder)
        return folder
    }()

    static var binary: String { ProcessRunner.productsDirectory.appendingPathComponent("order-tracking").path }

    static func run(_ arguments: [String], extra: [String: String] = [:], limit: Duration = .seconds(30))
        async throws -> ProcessResult
    {
        try await ProcessRunner.run(binary, arguments, environment: environment.merging(extra) { $1 }, limit: limit)
    }

    /// The demo's fixture trees in the source checkout as one folder, for serving over real HTTP and copying: the
    /// host's (screens, layouts, declared faults and timelines) with every squad's `Modules/<Name>/Fixtures` laid
    /// over it, as the embedded backend and Scripts/serve-fixtures serve them. Merged once per test process
    /// beside the built products (the tests' temporary folder must stay empty); a path two trees give stops the
    /// run, naming both.
    static let fixtures: URL = {
        let files = FileManager.default
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let merged = ProcessRunner.productsDirectory.appendingPathComponent("merged-fixtures")
        let api = merged.appendingPathComponent("api")
        do {
            try? files.removeItem(at: merged)
            try files.createDirectory(at: merged, withIntermediateDirectories: true)
            try files.copyItem(at: repository.appendingPathComponent("Apps/OrderTracking/Kit/Fixtures/api"), to: api)
            let modules = try files.contentsOfDirectory(atPath: repository.appendingPathComponent("Modules").path)
            for module in modules.sorted() {
                let tree = repository.appendingPathComponent("Modules/\(module)/Fixtures")
                guard let walker = files.enumerator(atPath: tree.path) else { continue }
                while let relative = walker.nextObject() as? String {
                    var isFolder: ObjCBool = false
                    let source = tree.appendingPathComponent(relative)
                    guard files.fileExists(atPath: source.path, isDirectory: &isFolder), !isFolder.boolValue else {
                        continue
                    }
                    let target = api.appendingPathComponent(relative)
                    precondition(!files.fileExists(atPath: target.path), "fixture \(relative) is in two trees")
                    try files.createDirectory(
                        at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try files.copyItem(at: source, to: target)
                }
            }
        } catch { preconditionFailure("cannot merge the demo's fixture trees into \(merged.path): \(error)") }
        return api
    }()

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}

extension String {
    /// The text with a trailing newline, as the CLI prints a frame.
    var line: String { self + "\n" }
}

/// `order-tracking` run in-process, the way a squad runs its component: the real dispatch and commands, on
/// captured streams and a `VirtualClock` at `COURIER_NOW`, with no process and no signal handlers. Slow
/// endpoints, deadlines and watch rounds take milliseconds. For everything that needs no argv of a real
/// process, no exit of one, no signal and no real terminal.
enum InProcess {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private final class Written: Sendable {
        let text = Locked((out: "", err: ""))
    }

    static func run(_ arguments: [String], extra: [String: String] = [:], within limit: Duration = .seconds(3600))
        async -> Run
    {
        let written = Written()
        let streams = StandardStreams { descriptor, text in
            written.text.withLock { if descriptor == 1 { $0.out += text } else { $0.err += text } }
        }
        let environment = CLI.environment.merging(extra) { $1 }
        let clock = VirtualClock()
        let status = await clock.drive(within: limit) { () async -> Int32 in
            do {
                return try await OrderTrackingApp.run(
                    arguments, environment: environment, streams: streams, clock: clock, signals: false
                ).rawValue
            } catch {
                streams.err((error as? UsageError)?.line(tool: "order-tracking") ?? "order-tracking: \(error)")
                return ExitCode.usage.rawValue
            }
        }
        let (out, err) = written.text.withLock { ($0.out, $0.err) }
        return Run(status: status ?? -1, stdout: out, stderr: err)
    }
}

extension ChildProcess {
    /// Reads `pipe` to its end (when given) and waits for the process, on a thread of its own: the awaiting test
    /// holds none of the test pool's threads (two on a two-core machine), so a process that takes its time
    /// delays no other suite. Past `limit` the process is killed (status 137), so a hang ends as a failure; the
    /// limit says nothing about how fast it should be.
    func finish(reading pipe: FileHandle? = nil, within limit: Duration = .seconds(120)) async -> (
        status: Int32, text: String
    ) {
        let process = self
        let watchdog = Task {
            try await Task.sleep(for: limit)
            process.send(SIGKILL)
        }
        defer { watchdog.cancel() }
        return await OwnThread.run {
            let text = pipe.map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
            return (process.wait(), text)
        }
    }
}
