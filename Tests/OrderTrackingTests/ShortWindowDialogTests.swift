import CoreTesting
import Foundation
import Testing

/// The live screen in a window too short for what is open (the pay question at 80×8): it says so instead of
/// leaving the screen blank but for the keys line, and a `y` answers nothing, since the question is not shown.
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct ShortWindowDialogTests {
    @Test func aQuestionTallerThanTheWindowIsSaidAndNeverAnswered() async throws {
        let command =
            "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) checkout C100 --watch --every 30; "
            + "echo EXIT=$?; sleep 60"
        let live = try await TmuxSession(command: command, columns: 80, rows: 8)
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("Checkout C100") && !$0.contains("░") }
        try await live.tmux(["send-keys", "-t", live.name, "P"])
        let small = try await live.waitFor { $0.contains("Too small") }
        #expect(small.contains("Too small for what is open (80×8): make it at least 9 rows; Esc closes"), "\(small)")
        try await live.tmux(["send-keys", "-t", live.name, "y"])
        try await live.tmux(["send-keys", "-t", live.name, "Escape"])
        let back = try await live.waitFor { !$0.contains("Too small") && $0.contains("q quit") }
        #expect(back.contains("Checkout C100"), "still the checkout: the y paid nothing\n\(back)")
        try await live.tmux(["send-keys", "-t", live.name, "q"])
        let done = try await live.waitFor(.seconds(30), scrollback: true) { $0.contains("EXIT=") }
        #expect(done.contains("EXIT=0"), "\(done)")
        let history = try await live.history()
        #expect(!history.contains("Paid") && !history.contains("sending"), "nothing was paid:\n\(history)")
    }
}
