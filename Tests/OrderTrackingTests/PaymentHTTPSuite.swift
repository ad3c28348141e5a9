import CoreTesting
import Foundation

/// What the payment suites over real HTTP share: the fault server's POST log read back, a POST's key, and the
/// demo's fixtures copied into a test's own folder with some answers changed.
protocol PaymentHTTPSuite {}

extension PaymentHTTPSuite {
    /// Every POST the server logged: its path, headers and body.
    func posts(_ log: URL) -> [[String: Any]] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? CLI.json(String($0)) }
    }

    /// A logged POST's `Idempotency-Key`, however its name was cased.
    func key(_ post: [String: Any]?) -> String? {
        (post?["headers"] as? [String: String] ?? [:]).first { $0.key.lowercased() == "idempotency-key" }?.value
    }

    /// The demo's fixtures in a folder of the test's own, with `changes` (path → text) written over them.
    func tree(_ folder: TemporaryDirectory, _ changes: [String: String]) throws -> URL {
        let root = folder.url.appendingPathComponent("tree")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        for (path, text) in changes {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return root
    }
}
