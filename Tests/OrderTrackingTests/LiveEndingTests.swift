import CoreTesting
import Foundation
import Testing

/// A live screen in a real terminal (tmux) whose process id the test knows, so it can end it as a person or a
/// system does: a key, Ctrl-C, `kill`, a terminal that goes away. The shell says the status afterwards and whether
/// line editing is back.
final class LiveRun {
    let session: TmuxSession
    private let folder: TemporaryDirectory
    /// Set once the test saw the process end; otherwise it is killed when the test is done, failing or not.
    var ended = false

    /// `order-tracking ARGUMENTS` on a terminal, its pid written to a file first.
    init(_ arguments: String) async throws {
        folder = try TemporaryDirectory()
        let run =
            "sh -c 'echo $$ > \(folder.url.path)/pid; exec env COURIER_NOW=2027-01-15T08:00:00Z "
            + "TERM=xterm-256color \(CLI.binary) \(arguments)'"
        let after = "echo EXIT=$?; stty -a | grep -o -- '-icanon' | head -1; echo STTY-CHECKED; sleep 60"
        session = try await TmuxSession(command: "\(run); \(after)")
    }

    /// Runs `job` (which writes its pid to `PIDFILE` and its status to `STATUSFILE`, both words replaced) as a
    /// job of an interactive shell, as a person's terminal runs it: when the terminal goes, the shell hands the
    /// job its SIGHUP.
    init(job: String) async throws {
        folder = try TemporaryDirectory()
        session = try await TmuxSession(command: "env PS1='$ ' bash --norc --noprofile -i")
        let line = job.replacingOccurrences(of: "PIDFILE", with: folder.url.path + "/pid")
            .replacingOccurrences(of: "STATUSFILE", with: folder.url.path + "/status")
        _ = try await session.waitFor { $0.hasPrefix("$") }
        try await session.tmux(["send-keys", "-t", session.name, line, "Enter"])
    }

    /// The process's id, once it has written it.
    func pid() async throws -> String {
        let file = folder.url.appendingPathComponent("pid").path
        let deadline = ContinuousClock.now + .seconds(15)
        while (try? String(contentsOfFile: file, encoding: .utf8))?.hasSuffix("\n") != true,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        return try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The status a job wrote to its STATUSFILE, once it has, within `limit`; nil if it never did.
    func jobStatus(within limit: Duration = .seconds(30)) async throws -> String? {
        let file = folder.url.appendingPathComponent("status").path
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), text.hasSuffix("\n") {
                return text.trimmingCharacters(in: .newlines)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Sends `signal` ("TERM", "HUP", …) to the process.
    func kill(_ signal: String) async throws {
        let sent = try await ProcessRunner.run("kill", ["-\(signal)", try await pid()], limit: .seconds(10))
        #expect(sent.status == 0, "kill -\(signal): \(sent.stderr)")
    }

    /// Whether the process is still there, asked until it is gone or `limit` passes.
    func stillRunning(after limit: Duration) async throws -> Bool {
        let pid = try await pid()
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try await ProcessRunner.run("kill", ["-0", pid], limit: .seconds(10)).status != 0 { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    deinit {
        let file = folder.url.appendingPathComponent("pid").path
        if !ended, let pid = try? String(contentsOfFile: file, encoding: .utf8) {
            _ = try? ProcessRunner.runBlocking(
                "kill", ["-KILL", pid.trimmingCharacters(in: .whitespacesAndNewlines)], limit: .seconds(10))
        }
    }
}

/// Whatever ends the live screen leaves its last frame on the main screen, then the goodbye, with the documented
/// status (README, "gives the terminal back"): a person who pressed Ctrl-C, or whose terminal was hung up during a
/// payment, finds what the screen last said.
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct LiveEndingTests {
    /// How a run is ended: the key or signal, the goodbye on stderr (none for `q`) and the status.
    struct Ending: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [String]?
        let signal: String?
        let farewell: String?
        let status: Int
        var testDescription: String { name }
    }

    static let endings = [
        Ending(name: "q", key: ["q"], signal: nil, farewell: nil, status: 0),
        Ending(name: "Ctrl-C", key: ["C-c"], signal: nil, farewell: "interrupted", status: 130),
        // A burst, as a person hammers it: the later ones must not cut the hand-back of the first short.
        Ending(name: "Ctrl-C ×3", key: ["C-c", "C-c", "C-c"], signal: nil, farewell: "interrupted", status: 130),
        Ending(name: "Ctrl-\\", key: ["C-\\"], signal: nil, farewell: "quit", status: 131),
        Ending(name: "SIGTERM", key: nil, signal: "TERM", farewell: "terminated", status: 143),
        Ending(name: "SIGHUP", key: nil, signal: "HUP", farewell: "hung up", status: 129),
        Ending(name: "SIGINT", key: nil, signal: "INT", farewell: "interrupted", status: 130),
    ]

    /// The main screen after `ending`: the live screen's title and every card it showed (their top lines, at the
    /// same width), whole, before the goodbye and the status; the alternate screen left, the cursor shown, line
    /// editing back.
    func end(_ run: LiveRun, _ ending: Ending, title: String, live: String) async throws -> String {
        if let keys = ending.key { try await run.session.tmux(["send-keys", "-t", run.session.name] + keys) }
        if let signal = ending.signal { try await run.kill(signal) }
        let after = try await run.session.waitFor { $0.contains("STTY-CHECKED") }
        run.ended = after.contains("EXIT=")
        let status = "EXIT=\(ending.status)\n"
        #expect(after.contains((ending.farewell.map { $0 + "\n" } ?? "") + status), "\(ending.name):\n\(after)")
        #expect(!after.contains("q quit"), "the alternate screen is left:\n\(after)")
        let frame = String(after[..<(after.range(of: "EXIT=")?.lowerBound ?? after.endIndex)])
        #expect(frame.contains(title + "\n"), "the title stays:\n\(after)")
        let tops = ScreenComposition.cards(in: live).cards.compactMap(\.first)
        #expect(!tops.isEmpty)
        for top in tops { #expect(frame.contains(top), "\(ending.name) leaves \(top):\n\(after)") }
        let cards = ScreenComposition.cards(in: frame).cards
        #expect(cards.allSatisfy { $0.last?.hasPrefix("╰") == true }, "each card whole:\n\(after)")
        #expect(!after.split(separator: "\n").contains("-icanon"), "line editing is back")
        #expect(try await run.session.cursorVisible())
        let screen = ["display-message", "-p", "-t", run.session.name, "#{alternate_on}"]
        #expect(try await run.session.query(screen).stdout.hasPrefix("0"), "the main screen")
        return after
    }

    @Test(arguments: endings)
    func everyEndingLeavesTheLastFrameOnTheMainScreen(_ ending: Ending) async throws {
        let run = try await LiveRun("1234 --watch --every 30")
        let live = try await run.session.waitFor { $0.contains("q quit") && !$0.contains("░") }
        _ = try await end(run, ending, title: "Order 1234", live: live)
    }

    @Test func theLiveCheckoutEndedBySIGTERMLeavesItsLastFrame() async throws {
        let run = try await LiveRun("checkout C100 --watch --every 30")
        let live = try await run.session.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        let ending = Ending(name: "SIGTERM", key: nil, signal: "TERM", farewell: "terminated", status: 143)
        _ = try await end(run, ending, title: "Checkout C100", live: live)
    }

    /// The diagnostics `q` leaves on stderr are left too, before the goodbye: a hidden card's reason (order 5678's
    /// payment), or why the screen could not be shown at all (cart C300's total fails, a critical card).
    @Test func aSignalLeavesTheDiagnosticsQLeaves() async throws {
        let hidden = try await LiveRun("5678 --watch --every 30")
        let live = try await hidden.session.waitFor { $0.contains("q quit") && !$0.contains("░") }
        let term = Ending(name: "SIGTERM", key: nil, signal: "TERM", farewell: "terminated", status: 143)
        let after = try await end(hidden, term, title: "Order 5678", live: live)
        #expect(after.contains("\npayment hidden: "), "the hidden card's reason:\n\(after)")
        let failed = try await LiveRun("checkout C300 --watch --every 30")
        _ = try await failed.session.waitFor { $0.contains("Can't show this screen") }
        try await failed.kill("TERM")
        let done = try await failed.session.waitFor { $0.contains("STTY-CHECKED") }
        failed.ended = done.contains("EXIT=")
        #expect(done.contains("Checkout C300 cannot be shown: total: "), "why, as q says it:\n\(done)")
        #expect(done.contains("try again later\nterminated\nEXIT=143\n"), "\(done)")
    }

    /// Ctrl-C while the payment's answer is awaited: the frame and what is known of the payment stay, the only
    /// trace a person has of it.
    @Test func ctrlCDuringAPaymentLeavesTheFrameAndWhatIsKnownOfThePayment() async throws {
        let server = try TestServer.faults(root: CLI.fixtures, rules: #"{"carts/C100/pay": {"delay_ms": 60000}}"#)
        defer { server.stop() }
        let run = try await LiveRun(
            "checkout C100 --watch --every 30 --timeout 90 --api \(server.baseURL.absoluteString)")
        let live = try await run.session.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        try await run.session.tmux(["send-keys", "-t", run.session.name, "P"])
        _ = try await run.session.waitFor { $0.contains("(y/n)") }
        try await run.session.tmux(["send-keys", "-t", run.session.name, "y"])
        _ = try await run.session.waitFor { !$0.contains("(y/n)") }
        let ending = Ending(name: "Ctrl-C", key: ["C-c"], signal: nil, farewell: "interrupted", status: 130)
        let after = try await end(run, ending, title: "Checkout C100", live: live)
        let lines = after.split(separator: "\n").map(String.init)
        let lastCard = lines.lastIndex { $0.hasPrefix("╰") } ?? lines.endIndex
        let goodbye = lines.firstIndex(of: "interrupted") ?? lines.startIndex
        #expect(
            lastCard < goodbye && lines[(lastCard + 1)..<goodbye].contains { $0.lowercased().contains("pay") },
            "what is known of the payment, after the frame:\n\(after)")
    }

    /// A hang-up whose terminal is gone (the window closed, the connection dropped): the shell hands its job the
    /// SIGHUP; every write fails, and the process still ends at once with 129.
    @Test func aHangUpWithTheTerminalGoneStillEndsWith129() async throws {
        let run = try await LiveRun(
            job: "sh -c 'trap \"\" HUP; echo $$ > PIDFILE; COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color "
                + "\(CLI.binary) 1234 --watch --every 30; echo $? > STATUSFILE'")
        _ = try await run.session.waitFor { $0.contains("q quit") && !$0.contains("░") }
        try await run.session.tmux(["kill-server"])
        let status = try await run.jobStatus()
        run.ended = status != nil
        #expect(status == "129", "the job's status: \(status ?? "none: the process did not end")")
    }

    /// A terminal that stopped reading (Ctrl-S, a stalled connection) holds every write, the goodbye's too: the
    /// process still ends (a second signal at once, else a few seconds later), with the signal's status and line
    /// editing back. The same signal twice: two different ones may be handled in either order.
    @Test func aRunWhoseTerminalHoldsItsWritesStillEnds() async throws {
        let run = try await LiveRun("1234 --watch --every 30")
        _ = try await run.session.waitFor { $0.contains("q quit") && !$0.contains("░") }
        try await run.session.tmux(["send-keys", "-t", run.session.name, "C-s"])
        try await run.kill("TERM")
        try await run.kill("TERM")
        let running = try await run.stillRunning(after: .seconds(30))
        #expect(!running, "the process ended")
        try await run.session.tmux(["send-keys", "-t", run.session.name, "C-q"])
        let after = try await run.session.waitFor { $0.contains("STTY-CHECKED") }
        run.ended = after.contains("EXIT=")
        #expect(after.contains("EXIT=143\n"), "the signal's status:\n\(after)")
        #expect(!after.split(separator: "\n").contains("-icanon"), "line editing is back")
    }
}
