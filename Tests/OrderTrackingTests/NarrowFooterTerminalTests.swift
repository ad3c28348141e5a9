import CoreTesting
import Foundation
import Testing

/// `--watch` on a terminal whose keys are not a terminal (stdin from a file or a pipe) repaints the frame in place
/// with an "updated HH:MM:SS · Ctrl-C to stop" line under it. The painter counts that line as one row: at 33
/// columns or fewer it wrapped, and every repaint landed a row too high, leaving a stack of "updated" lines.
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct NarrowFooterTerminalTests {
    @Test func theUpdatedLineFitsANarrowWindowAndIsRepaintedInPlace() async throws {
        let command =
            "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 1234 --watch --every 1 "
            + "< /dev/null; echo EXIT=$?; sleep 60"
        let session = try await TmuxSession(command: command, columns: 24, rows: 80)
        // Three rounds or more have repainted the line (a loaded machine may skip seconds of the clock, or start
        // the process so late that the first round is already minutes past 08:00).
        let shown = try await session.waitFor(.seconds(180), scrollback: true) { (Self.seconds($0) ?? 0) >= 3 }
        let lines = shown.split(separator: "\n").map(String.init)
        let updated = lines.filter { $0.hasPrefix("updated") }
        #expect(updated.count == 1, "one line, repainted in place:\n\(shown)")
        #expect(Self.seconds(shown) ?? 0 >= 3 && updated.first?.contains(" ·") == true, "\(shown)")
        #expect(lines.last?.hasPrefix("updated") == true, "under the frame:\n\(shown)")
    }

    /// The seconds since 08:00:00 of the last "updated HH:MM:SS" line on `screen`.
    static func seconds(_ screen: String) -> Int? {
        guard let line = screen.split(separator: "\n").last(where: { $0.hasPrefix("updated ") }) else { return nil }
        let parts = line.dropFirst("updated ".count).prefix(8).split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, parts[0] == 8 else { return nil }
        return parts[1] * 60 + parts[2]
    }
}
