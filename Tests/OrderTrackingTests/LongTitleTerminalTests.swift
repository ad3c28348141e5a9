import CoreTesting
import Foundation
import Testing

/// A screen definition's title is the backend's text and may be longer than the window: the one-shot painter
/// counts each line of the frame as one row, so a title that wrapped put every in-place repaint rows too high
/// (a card's last line under the title's tail, a card drawn twice in the scrollback). Cut to the width, as the
/// live screen cuts it, the terminal ends holding exactly the `--plain` frame.
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct LongTitleTerminalTests {
    static let title = "Order {order} " + String(repeating: "followed with a very long title ", count: 6)

    /// The demo fixtures with the tracking screen's title made `title`, served over real HTTP.
    static func serve() throws -> (server: TestServer, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("title-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        let url = root.appendingPathComponent("screens/tracking.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"Order {order}\""))
        try Data(text.replacingOccurrences(of: "\"Order {order}\"", with: "\"\(title)\"").utf8).write(to: url)
        return (try TestServer.staticFiles(root), root)
    }

    /// Every line the terminal holds once `arguments` ran in a `columns`×`rows` window, up to the exit status.
    func ran(_ arguments: String, columns: Int, rows: Int) async throws -> [String] {
        let command =
            "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) \(arguments); echo EXIT=$?; sleep 300"
        let session = try await TmuxSession(command: command, columns: columns, rows: rows)
        // A generous deadline: on a loaded machine the run may start minutes late; the frame, not the time, is judged.
        _ = try await session.waitFor(.seconds(180), scrollback: true) { $0.contains("EXIT=") }
        let history = try await session.history().split(separator: "\n", omittingEmptySubsequences: false)
        return history.prefix { !$0.hasPrefix("EXIT=") }.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    @Test(arguments: [(80, 24), (40, 20)])
    func aTitleLongerThanTheWindowLeavesExactlyThePlainFrame(columns: Int, rows: Int) async throws {
        let (server, root) = try Self.serve()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let screen = "9012 --api \(server.baseURL.absoluteString)"
        let live = try await ran(screen, columns: columns, rows: rows)
        let plain = try await ran(screen + " --plain", columns: columns, rows: rows)
        #expect(plain.first?.hasPrefix("Order 9012 followed") == true && plain.first?.hasSuffix("…") == true)
        #expect(plain.allSatisfy { $0.count <= columns }, "every line fits: \(plain.joined(separator: "\n"))")
        #expect(
            live == plain,
            "\(columns)×\(rows):\n\(live.joined(separator: "\n"))\n--- plain:\n\(plain.joined(separator: "\n"))")
    }
}
