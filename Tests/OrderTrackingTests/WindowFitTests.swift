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

/// The window changes while a one-shot screen paints: the frame is laid out at the new width and painted over
/// every row the terminal reflowed the last one to, so the run still ends with a screen holding exactly the plain
/// frame of the window it ends in (it once ended garbled: each repaint moved up as many rows as lines, not as
/// rows). A wider window keeps the scrollback clean too; a narrower one cannot: tmux's reflow itself pushes the
/// rows it added above the window into the scrollback, where no program's cursor reaches.
extension WindowFitTests {
    @Test(arguments: [(80, 60), (60, 100)])
    func aWindowResizedWhileItPaintsEndsHoldingExactlyThePlainFrame(from: Int, to: Int) async throws {
        let held = try HeldAnswer(root: CLI.fixtures, path: "orders/9012/delivery.json")
        let api = "--api \(held.server.baseURL.absoluteString)"
        let command =
            "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 9012 --timeout 600 \(api); "
            + "echo EXIT=$?; \(TmuxSession.hold)"
        let session = try await TmuxSession(command: command, columns: from, rows: 60)
        let skeletons = try await session.waitFor(.seconds(120)) { $0.contains("░") && $0.contains("╰") }
        #expect(skeletons.contains("░"), "the first frame is painted, the rider's card loading")
        try await session.tmux(["resize-window", "-t", session.name, "-x", "\(to)", "-y", "60"])
        // Laid out again at the new width while the rider's card still loads.
        let card = CardRendererWidth.of(columns: to)
        let relaid = try await session.waitFor {
            $0.contains("░") && $0.split(separator: "\n").contains { $0.hasPrefix("╭") && $0.count == card }
        }
        #expect(relaid.contains("░"), "\(relaid)")
        held.release()
        let screen = try await session.waitFor(.seconds(120)) { $0.contains("EXIT=") }
        let history = try await session.history()
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.hasPrefix("EXIT=") }.map {
                String($0.reversed().drop { $0 == " " }.reversed())
            }
        }
        let plain = try await ran("9012 --plain \(api)", columns: to, rows: 60)
        #expect(
            lines(screen) == plain.lines,
            "\(from)→\(to):\n\(lines(screen).joined(separator: "\n"))\n--- plain:\n\(plain.lines.joined(separator: "\n"))"
        )
        if to > from { #expect(lines(history) == plain.lines, "a wider window: the scrollback too\n\(history)") }
        #expect(screen.contains("EXIT=0"))
    }
}

/// The card width a window gives (CardRenderer's rule: the window's, at least 16, at most 64).
enum CardRendererWidth {
    static func of(columns: Int) -> Int { min(max(columns, 16), 64) }
}
