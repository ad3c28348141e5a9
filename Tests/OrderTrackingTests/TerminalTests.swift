import CoreTesting
import Foundation
import Testing

/// A real terminal: order-tracking runs inside a detached tmux session and the test reads the screen.
final class TmuxSession {
    /// What a command line ends with to keep its pane, and what it left there, until the test has looked: the
    /// session ends with the test (`deinit`, or the watcher a second after the test process), never on a timer
    /// that a test kept waiting by a busy machine could outlive.
    static let hold = "sleep 86400"

    let socket = "courier-\(UUID().uuidString.prefix(8))"
    let name = "t"
    /// Where the server listens: tmux leaves the socket file when its server is killed, so `deinit` removes it.
    private var socketPath = ""

    init(command: String, columns: Int = 80, rows: Int = 60) async throws {
        // A data folder of the session's own, as every other run of the binary has (`CLI.environment`): a payment
        // one session settles is kept for a day (issue 66), and in the real home it refused the next run's.
        let data = CLI.dataHome.appendingPathComponent(UUID().uuidString).path
        let started = try await tmux(
            [
                "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", "-e", "XDG_DATA_HOME=\(data)",
                command,
            ])
        guard started.status == 0 else { throw TmuxUnavailable(reason: started.stderr) }
        // `deinit` ends the server, but a test process that dies (a crash, a signal) runs no deinit: the server
        // watches this process and ends itself within a second of it, or stops watching when it is gone.
        let watch =
            "while kill -0 \(ProcessInfo.processInfo.processIdentifier) 2>/dev/null && tmux -L \(socket) has-session "
            + "2>/dev/null; do sleep 1; done; tmux -L \(socket) kill-server 2>/dev/null"
        try await tmux(["run-shell", "-b", watch])
        socketPath = try await query(["display-message", "-p", "#{socket_path}"]).stdout
            .trimmingCharacters(in: .newlines)
    }

    @discardableResult
    func tmux(_ arguments: [String]) async throws -> ProcessResult {
        // Through python's subprocess (close_fds): the tmux server must not inherit Foundation's process-monitoring
        // descriptor, or the client would never look finished. The signal mask is cleared first: the test process
        // blocks most signals, and a shell that inherits that mask ignores kill-server's SIGHUP and outlives the test.
        let relay =
            "import signal,subprocess,sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "sys.exit(subprocess.run(sys.argv[1:]).returncode)"
        return try await ProcessRunner.run(
            "python3", ["-c", relay, "tmux", "-L", socket] + arguments, limit: .seconds(10))
    }

    /// A question that changes nothing, asked again once if tmux does not answer within its limit (one
    /// capture-pane in a CI run on a loaded machine never came back).
    func query(_ arguments: [String]) async throws -> ProcessResult {
        do { return try await tmux(arguments) } catch is ProcessTimedOut { return try await tmux(arguments) }
    }

    func screen() async throws -> String { try await query(["capture-pane", "-p", "-t", name]).stdout }

    /// The screen with everything scrolled off above it.
    func history() async throws -> String { try await query(["capture-pane", "-p", "-S", "-", "-t", name]).stdout }

    func cursorVisible() async throws -> Bool {
        try await query(["display-message", "-p", "-t", name, "#{cursor_flag}"]).stdout.hasPrefix("1")
    }

    /// Polls the screen until `condition` holds or `limit` passes; returns the last screen. It sleeps as a task,
    /// never holding one of the test pool's threads (two on a two-core machine), so other suites run meanwhile.
    /// The limit only turns a hang into a failure (a screen that never comes): it is generous, and a test waits
    /// for a state that stays until the test acts, never for one that a capture must catch in passing.
    func waitFor(
        _ limit: Duration = .seconds(60), scrollback: Bool = false, _ condition: (String) -> Bool
    ) async throws -> String {
        let deadline = ContinuousClock.now + limit
        var text = try await scrollback ? history() : screen()
        while !condition(text) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            text = try await scrollback ? history() : screen()
        }
        return text
    }

    deinit {
        _ = try? ProcessRunner.runBlocking("tmux", ["-L", socket, "kill-server"], limit: .seconds(10))
        if socketPath.hasSuffix("/" + socket) { try? FileManager.default.removeItem(atPath: socketPath) }
    }
}

struct TmuxUnavailable: Error {
    let reason: String
}

/// Whether the suites that need a real terminal can run.
let tmuxInstalled = (try? ProcessRunner.runBlocking("tmux", ["-V"]).status) == 0

@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct TerminalTests {
    func command(_ arguments: String) -> String {
        "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) \(arguments); echo EXIT=$?; \(TmuxSession.hold)"
    }

    /// How many cards a demo order shows when done, from the host's own JSON report (no squad's text pinned).
    func visibleCards(_ order: String) async throws -> Int {
        let report = try CLI.json(try await CLI.run([order, "--format", "json"]).stdout)
        return (report["components"] as? [[String: Any]] ?? []).filter { $0["hidden"] as? Bool == false }.count
    }

    /// The rider's answer is held until the test has seen the screen with every other card filled in and the
    /// rider's still a skeleton, then released: the screen state is waited for, however slow the machine, rather
    /// than caught by a capture inside a fixed delay.
    @Test func skeletonsFirstThenCardsFillInInPlace() async throws {
        let cards = try await visibleCards("9012")
        let held = try HeldAnswer(root: CLI.fixtures, path: "orders/9012/delivery.json")
        let session = try await TmuxSession(
            command: command("9012 --timeout 600 --api \(held.server.baseURL.absoluteString)"))
        let early = try await session.waitFor(.seconds(120)) {
            let drawn = ScreenComposition.cards(in: $0).cards
            return drawn.count == cards && drawn.filter { $0.joined().contains("░") }.count == 1
        }
        held.release()
        let drawn = ScreenComposition.cards(in: early).cards
        #expect(drawn.count == cards, "every slot is on screen from the start:\n\(early)")
        #expect(
            drawn.filter { $0.joined().contains("░") }.count == 1,
            "only the slow card shows its skeleton: the fast cards did not wait")
        let done = try await session.waitFor(.seconds(120)) { $0.contains("EXIT=") }
        #expect(done.contains("EXIT=0"))
        #expect(!done.contains("░"))
        #expect(ScreenComposition.cards(in: done).cards.count == cards, "each card drawn once (redrawn in place)")
        #expect(!done.contains("[?25") && !done.contains("\u{1B}"), "no escape codes left as text")
        #expect(try await session.cursorVisible())
    }

    @Test func ctrlCRestoresTheTerminalAndExits130() async throws {
        let session = try await TmuxSession(command: command("9012 --watch --every 30"))
        _ = try await session.waitFor { $0.contains("q quit") }
        #expect(try await session.cursorVisible() == false, "cursor hidden while drawing")
        try await session.tmux(["send-keys", "-t", session.name, "C-c"])
        let after = try await session.waitFor { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=130"))
        #expect(
            after.contains("interrupted\n"), "the goodbye is the last thing written, not overwritten by a late paint")
        #expect(try await session.cursorVisible())
        let tops = after.components(separatedBy: "╭─").count
        let bottoms = after.components(separatedBy: "╰─").count
        #expect(tops == bottoms, "no half-drawn card left behind:\n\(after)")
    }

    @Test func ctrlZGivesTheTerminalBackAndFgRepaintsTheWholeScreen() async throws {
        // An interactive shell with job control, as a person has: Ctrl-Z stops the job, `fg` brings it back.
        let session = try await TmuxSession(command: "env PS1='$ ' bash --norc --noprofile -i")
        let run = "COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 1234 --watch --every 30"
        try await session.tmux(["send-keys", "-t", session.name, run, "Enter"])
        _ = try await session.waitFor { $0.contains("q quit") }
        #expect(try await session.cursorVisible() == false)
        try await session.tmux(["send-keys", "-t", session.name, "C-z"])
        let stopped = try await session.waitFor { $0.contains("Stopped") }
        #expect(
            stopped.contains("Stopped") && !stopped.contains("q quit"), "the shell's own screen is back:\n\(stopped)")
        #expect(try await session.cursorVisible(), "the cursor is given back while the job is stopped")
        try await session.tmux([
            "send-keys", "-t", session.name, "stty -a | grep -o -- '-icanon' | head -1; echo STTY", "Enter",
        ])
        let stty = try await session.waitFor { $0.contains("STTY\n") }.split(separator: "\n")
        #expect(!stty.contains("-icanon"), "line editing is back while the job is stopped")
        try await session.tmux(["send-keys", "-t", session.name, "fg", "Enter"])
        let resumed = try await session.waitFor { $0.contains("q quit") && $0.contains("Order 1234") }
        let cards = ScreenComposition.cards(in: resumed).cards
        #expect(!cards.isEmpty && cards.allSatisfy { $0.last?.hasPrefix("╰") == true }, "whole again:\n\(resumed)")
        #expect(try await session.cursorVisible() == false)
        try await session.tmux(["send-keys", "-t", session.name, "C-c"])
        let after = try await session.waitFor { $0.contains("interrupted") }
        #expect(after.contains("interrupted"))
        #expect(try await session.cursorVisible())
    }

    /// Ctrl-\\ (SIGQUIT) is an ending signal like the others: the terminal back (main screen, cursor, line
    /// editing), "quit" as the goodbye, status 131, and no crash reporter drawn over the screen or holding it.
    @Test func ctrlBackslashRestoresTheTerminalAndExits131() async throws {
        let run = "COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 1234 --watch --every 30"
        let after = "echo EXIT=$?; stty -a | grep -o -- '-icanon' | head -1; echo STTY-CHECKED; \(TmuxSession.hold)"
        let session = try await TmuxSession(command: "\(run); \(after)")
        _ = try await session.waitFor { $0.contains("q quit") }
        try await session.tmux(["send-keys", "-t", session.name, "C-\\"])
        // What was written says nothing held the terminal: the program's own goodbye right before the status (a
        // process killed by SIGQUIT leaves 131 too), and no crash reporter's text. The limit only ends a hang.
        let done = try await session.waitFor(.seconds(60)) { $0.contains("STTY-CHECKED") }
        #expect(done.contains("quit\nEXIT=131"), "\(done)")
        #expect(!done.split(separator: "\n").contains("-icanon"), "line editing is back")
        #expect(
            !done.contains("q quit") && !done.lowercased().contains("crash"), "the main screen, no reporter:\n\(done)")
        #expect(try await session.cursorVisible())
    }

    /// Ctrl-Z then `bg`: the job runs on without the terminal and draws nothing over the shell; `fg` brings the
    /// whole screen back and the keys work again (`q` quits with the usual status).
    @Test func aBackgroundedScreenDrawsNothingAndFgBringsTheKeysBack() async throws {
        let session = try await TmuxSession(command: "env PS1='$ ' bash --norc --noprofile -i")
        let run = "COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 1234 --watch --every 1"
        try await session.tmux(["send-keys", "-t", session.name, run, "Enter"])
        _ = try await session.waitFor { $0.contains("q quit") }
        try await session.tmux(["send-keys", "-t", session.name, "C-z"])
        _ = try await session.waitFor { $0.contains("Stopped") }
        try await session.tmux(["send-keys", "-t", session.name, "clear; bg; sleep 3; echo SHELL-STILL-HERE", "Enter"])
        let background = try await session.waitFor { $0.contains("SHELL-STILL-HERE\n") }
        #expect(!background.contains("q quit") && !background.contains("╭"), "painted over the shell:\n\(background)")
        try await session.tmux(["send-keys", "-t", session.name, "fg", "Enter"])
        let resumed = try await session.waitFor { $0.contains("q quit") && $0.contains("Order 1234") }
        #expect(resumed.contains("q quit"), "fg repaints the screen:\n\(resumed)")
        try await session.tmux(["send-keys", "-t", session.name, "q"])
        // The shell's prompt first (a slow build, such as ThreadSanitizer's, is still exiting): keys typed before
        // it would go to the screen, not the shell.
        let prompt = try await session.waitFor(.seconds(30)) {
            $0.split(separator: "\n").last.map { $0.hasPrefix("$") } == true
        }
        #expect(prompt.split(separator: "\n").last?.hasPrefix("$") == true, "q was read after fg:\n\(prompt)")
        try await session.tmux(["send-keys", "-t", session.name, "echo EXIT=$?", "Enter"])
        let after = try await session.waitFor { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=0"), "q quits with the usual status:\n\(after)")
    }

    @Test func sigtermLeavesTheTerminalCleanAndExits143() async throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url.appendingPathComponent("pid").path
        // `exec` keeps the pid the inner shell wrote: the signal goes to order-tracking itself.
        let run = "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 9012 --watch --every 30"
        let session = try await TmuxSession(
            command: "sh -c 'echo $$ > \(pidFile); exec \(run)'; echo EXIT=$?; \(TmuxSession.hold)")
        _ = try await session.waitFor { $0.contains("q quit") && !$0.contains("░") }
        #expect(try await session.cursorVisible() == false)
        let pid = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await ProcessRunner.run("kill", ["-TERM", pid])
        let after = try await session.waitFor { $0.contains("EXIT=") }
        #expect(after.contains("EXIT=143"))
        #expect(after.contains("terminated\nEXIT=143"), "the goodbye, on the shell's own screen:\n\(after)")
        #expect(try await session.cursorVisible())
    }
}

/// A live order on a real terminal, its own suite so it runs beside the other terminal suites.
@Suite(.enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct LiveOrderTerminalTests {
    func command(_ arguments: String) -> String { TerminalTests().command(arguments) }

    /// Order 4242 served from a copy of the fixtures without its timeline: each endpoint answers what the test
    /// last put there, and moves on only when the test has seen the screen it expects. The demo's own timeline
    /// (a minute of wall time, an outage from 25 s to 38 s) is followed in-process on the virtual clock
    /// (`LiveConsoleTests.theLiveDemoOrderIsDrawnFromPreparingToDeliveredWithTheOutageMarked`).
    final class DrivenOrder {
        private let tree: TemporaryDirectory
        var root: URL { tree.url }
        private var folder: URL { tree.url.appendingPathComponent("orders/4242") }

        init() throws {
            tree = try TemporaryDirectory()
            try FileManager.default.removeItem(at: tree.url)
            try FileManager.default.copyItem(at: CLI.fixtures, to: tree.url)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("_timeline.json"))
            try answer(details: "preparing", step: 0, payment: "pending")
        }

        /// The order's endpoints answer stage `step` of the demo: its status, the rider and ETA at that step,
        /// and the payment.
        func answer(details: String, step: Int, payment: String) throws {
            for (endpoint, file) in [
                ("details.json", "_details.\(details).json"), ("delivery.json", "_delivery.\(step).json"),
                ("eta.json", "_eta.\(step).json"), ("payment.json", "_payment.\(payment).json"),
            ] {
                let data = try Data(contentsOf: folder.appendingPathComponent(file))
                try data.write(to: folder.appendingPathComponent(endpoint), options: .atomic)
            }
        }

        /// The payment endpoint answers HTTP 503 (the fault server reads `_faults.json` at each request), or
        /// answers again.
        func paymentFails(_ failing: Bool) throws {
            let faults = failing ? #"{"payment.json": {"status": 503}}"# : "{}"
            try Data(faults.utf8).write(to: folder.appendingPathComponent("_faults.json"), options: .atomic)
        }
    }

    /// A live order from the first screen to "delivered", redrawn whole, with an "updated" line; an outage of the
    /// payment endpoint keeps the card, marked "as of", until it answers again; the watch ends by itself once the
    /// order is delivered and leaves the last frame on the shell's screen. Each step waits for a screen (the limits
    /// only end a hang); nothing depends on a capture landing inside a window of time.
    @Test func theLiveOrderIsFollowedUntilDelivered() async throws {
        let order = try DrivenOrder()
        let server = try TestServer.faults(root: order.root)
        defer { server.stop() }
        let session = try await TmuxSession(
            command: command(
                "4242 --watch --every 1 --stale-limit 86400 --timeout 60 --api \(server.baseURL.absoluteString)"))
        let limit = Duration.seconds(120)
        // A capture can land while a frame is being written (a frame is more than one read of the terminal): the
        // top from the new frame, the rest from the old. Each wait is for a whole screen, every card once and in
        // order, so what is asserted is never a half-drawn frame; a card that hid would make the wait fail.
        let cards = ["Order", "Arrival", "Rider", "Payment", "Account", "Promo"]
        func whole(_ screen: String) -> Bool {
            let drawn = ScreenComposition.cards(in: screen).cards
            return drawn.map { $0.first ?? "" }.elementsEqual(cards) { $0.hasPrefix("╭─ \($1) ") }
                && drawn.allSatisfy { $0.last?.hasPrefix("╰") == true } && screen.contains("q quit")
        }
        let first = try await session.waitFor(limit) {
            whole($0) && $0.contains("updated ") && $0.contains("Preparing") && !$0.contains("░")
        }
        #expect(whole(first) && first.contains("updated ") && first.contains("Order 4242"), "\(first)")
        try order.answer(details: "on_the_way", step: 2, payment: "pending")
        let onTheWay = try await session.waitFor(limit) { whole($0) && $0.contains("On the way") }
        #expect(whole(onTheWay), "\(onTheWay)")
        // The payment endpoint's outage keeps the card, marked with when it was last fresh.
        try order.paymentFails(true)
        let outage = try await session.waitFor(limit) { whole($0) && $0.contains("as of ") }
        #expect(whole(outage), "no card hides during the outage:\n\(outage)")
        #expect(outage.contains("stale"), "\(outage)")
        try order.paymentFails(false)
        let back = try await session.waitFor(limit) { whole($0) && !$0.contains("as of ") }
        #expect(whole(back), "and the mark goes once it answers:\n\(back)")
        try order.answer(details: "delivered", step: 5, payment: "paid")
        let done = try await session.waitFor(limit) { $0.contains("EXIT=") }
        #expect(done.contains("EXIT=0"), "the watch ends by itself once the order is finished")
        #expect(done.contains("Delivered"), "\(done)")
        #expect(!done.contains("updated "), "the updated line is gone once the watch ends")
        #expect(done.components(separatedBy: "Order 4242").count == 2, "one screen, redrawn in place")
        #expect(try await session.cursorVisible())
    }
}
