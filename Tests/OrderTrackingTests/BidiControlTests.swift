import CoreTesting
import Foundation
import SafeText
import Testing

/// Invisible bidirectional controls from a backend (a screen definition's title and action words, a card's data)
/// never reach stdout raw: a right-to-left override read on a terminal shows the rest of the line backwards. JSON
/// escapes them as `\uXXXX`; text shows each as a visible stand-in.
@Suite struct BidiControlTests {
    /// Overrides, embeddings, isolates and marks: what reorders what a terminal shows.
    static let controls = "\u{202E}\u{202A}\u{2066}\u{2069}\u{200F}\u{061C}"

    /// The demo fixtures with the tracking screen's title and its cancel action's words, and order 1234's
    /// restaurant name, each holding `controls`, served over real HTTP.
    static func serve() throws -> (server: TestServer, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        for (file, from, to) in [
            ("screens/tracking.json", "\"Order {order}\"", "\"Order \(controls){order}\""),
            ("screens/tracking.json", "can't be cancelled", "can't \(controls)be cancelled"),
            ("screens/tracking.json", "can be cancelled.", "can \(controls)be cancelled."),
            ("orders/1234/details.json", "Al Baik", "Al \(controls)Baik"),
        ] {
            let url = root.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(from), "\(file) holds \(from)")
            try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: url)
        }
        return (try TestServer.staticFiles(root), root)
    }

    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.filter { "\u{202A}\u{202E}\u{2066}\u{2069}\u{200F}\u{061C}".unicodeScalars.contains($0) }
            .map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test func jsonEscapesThemAndTextShowsThem() async throws {
        let (server, root) = try Self.serve()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let api = ["--api", server.baseURL.absoluteString]
        let action = ["screen", "tracking", "--input", "order=1234", "--action", "cancel-order"]
        for arguments in [["1234"], action] {
            let json = try await CLI.run(arguments + api + ["--format", "json"])
            #expect(json.stdout.hasPrefix("{"), "\(arguments): \(json.stderr)")
            #expect(Self.raw(json.stdout).isEmpty, "raw in \(arguments) --format json: \(Self.raw(json.stdout))")
            #expect(json.stdout.contains(#"\u202e\u202a\u2066\u2069\u200f\u061c"#), "escaped: \(json.stdout)")
            let text = try await CLI.run(arguments + api + ["--plain"])
            #expect(!text.stdout.isEmpty, "\(arguments): \(text.stderr)")
            #expect(Self.raw(text.stdout).isEmpty, "raw in \(arguments) text: \(Self.raw(text.stdout))")
            #expect(Self.raw(text.stderr).isEmpty, "raw on stderr: \(Self.raw(text.stderr))")
        }
        let screen = try await CLI.run(["1234", "--plain"] + api)
        #expect(screen.stdout.hasPrefix("Order ������1234\n"), "each shown, in place:\n\(screen.stdout)")
        #expect(screen.stdout.contains("Al ������Baik"))
        // What JSON carries reads back as what the backend sent.
        let report = try CLI.json(try await CLI.run(["1234", "--format", "json"] + api).stdout)
        let order = (report["components"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "order" }
        #expect((order?["info"] as? [String: Any])?["restaurant"] as? String == "Al \(Self.controls)Baik")
    }
}
