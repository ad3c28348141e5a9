import CoreTesting
import Foundation

/// The built `order-tracking` binary, run the way a user or a script runs it.
enum CLI {
    static let environment = sanitizerOptions.merging([
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "COURIER_NOW": "2027-01-15T08:00:00Z",
        "COLUMNS": "60", "HOME": NSTemporaryDirectory(), "XDG_DATA_HOME": dataHome.path,
    ]) { $1 }

    /// Sanitizer settings (suppressions, exit codes) reach the child processes too.
    static let sanitizerOptions = ProcessInfo.processInfo.environment.filter {
        ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].contains($0.key)
    }

    /// A data directory nobody signs in to, so the account card reads "Not signed in".
    static let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent(
        "courier-tests-\(UUID().uuidString)")

    static var binary: String { ProcessRunner.productsDirectory.appendingPathComponent("order-tracking").path }

    static func run(_ arguments: [String], extra: [String: String] = [:], limit: Duration = .seconds(30)) throws
        -> ProcessResult
    {
        try ProcessRunner.run(binary, arguments, environment: environment.merging(extra) { $1 }, limit: limit)
    }

    /// The fixture tree in the source checkout, for serving over real HTTP.
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Apps/OrderTracking/Kit/Fixtures/api")
    }

    static func json(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}

extension String {
    /// The text with a trailing newline, as the CLI prints a frame.
    var line: String { self + "\n" }
}
