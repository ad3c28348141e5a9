import CoreTesting
import Foundation
import Testing

/// A one-shot screen in a real terminal of the common sizes: whatever the frame's height, the terminal ends
/// holding exactly the frame `--plain` prints (screen and scrollback together), the cursor shown. A frame taller
/// than the window once made every in-place repaint land on the wrong lines (the cursor stops at the top row).
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct WindowFitTests {
    static let sizes = [(80, 24), (40, 20), (100, 40)]
    static let screens = ["1234", "9012", "checkout C100"]

    /// What the terminal holds once `arguments` has run in a `columns`×`rows` window: every line from the top of
    /// the scrollback to the line before the exit status, trailing blanks removed.
    func ran(_ arguments: String, columns: Int, rows: Int) async throws -> (lines: [String], cursorShown: Bool) {
        let command =
            "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) \(arguments); echo EXIT=$?; \(TmuxSession.hold)"
        let session = try await TmuxSession(command: command, columns: columns, rows: rows)
        _ = try await session.waitFor(.seconds(120), scrollback: true) { $0.contains("EXIT=") }
        let history = try await session.history().split(separator: "\n", omittingEmptySubsequences: false)
        let lines = history.prefix { !$0.hasPrefix("EXIT=") }.map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        return (lines, try await session.cursorVisible())
    }

    @Test(arguments: sizes.flatMap { size in screens.map { (size.0, size.1, $0) } })
    func theTerminalEndsHoldingExactlyThePlainFrame(columns: Int, rows: Int, screen: String) async throws {
        let live = try await ran(screen, columns: columns, rows: rows)
        let plain = try await ran(screen + " --plain", columns: columns, rows: rows)
        #expect(!plain.lines.isEmpty && plain.lines.contains { $0.contains("╰") })
        #expect(
            live.lines == plain.lines,
            "\(columns)×\(rows) \(screen):\n\(live.lines.joined(separator: "\n"))\n--- plain:\n\(plain.lines.joined(separator: "\n"))"
        )
        #expect(live.cursorShown)
    }
}
