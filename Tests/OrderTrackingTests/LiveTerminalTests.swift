import CoreTesting
import Foundation
import Testing

/// The live screen in a real terminal (tmux): keys sent as a person types them, the screen read back.
@Suite(.serialized, .enabled(if: tmuxInstalled, "tmux is not installed (.ci/run installs it)"))
struct LiveTerminalTests {
    /// `order-tracking ARGS` in a terminal; afterwards the shell says the status and whether line editing is back.
    func session(_ arguments: String, before: String = "") async throws -> TmuxSession {
        let run = "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) \(arguments)"
        let after = "echo EXIT=$?; stty -a | grep -o -- '-icanon' | head -1; echo STTY-CHECKED; \(TmuxSession.hold)"
        return try await TmuxSession(command: "\(before)\(run); \(after)")
    }

    func send(_ session: TmuxSession, _ keys: String...) async throws { try await send(session, keys) }

    func send(_ session: TmuxSession, _ keys: [String]) async throws {
        try await session.tmux(["send-keys", "-t", session.name] + keys)
    }

    @Test func thePromoPromptAppliesACodeAndPaymentsShowsIt() async throws {
        let live = try await session("1234 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        try await send(live, "p")
        _ = try await live.waitFor { $0.contains("Promo code:") }
        try await send(live, "-l", "save10")
        let typed = try await live.waitFor { $0.contains("Promo code: save10") }
        #expect(typed.contains("Promo code: save10"))
        try await send(live, "Enter")
        let applied = try await live.waitFor { $0.contains("Promo SAVE10") && $0.contains("✓ SAVE10") }
        #expect(applied.contains("SAR 45.45"), "\(applied)")
        try await send(live, "q")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"))
        #expect(!done.split(separator: "\n").contains("-icanon"), "line editing and echo are back after q")
        #expect(done.contains("Promo SAVE10"), "the last frame stays on the shell's screen")
        #expect(try await live.cursorVisible())
    }

    /// Alt+r and the terminal's own replies (an OSC colour answer, a DCS string) are not Esc: the screen stays.
    @Test func altKeysAndTerminalRepliesDoNotQuit() async throws {
        let live = try await session("1234 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        try await send(live, "M-r")
        let osc = "\u{1B}]11;rgb:0000/0000/0000\u{07}".utf8.map { String(format: "%02x", $0) }
        let dcs = "\u{1B}P1$r0m\u{1B}\\".utf8.map { String(format: "%02x", $0) }
        try await send(live, ["-H"] + osc)
        try await send(live, ["-H"] + dcs)
        try await send(live, "?")
        let help = try await live.waitFor { $0.contains("these keys") }
        #expect(!help.contains("EXIT="), "still running after Alt+r and the replies:\n\(help)")
        #expect(help.contains("these keys"), "the next key is read as a key")
        try await send(live, "Escape")
        try await send(live, "q")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"))
    }

    /// The checkout a person drives: a method chosen by its id, a coupon (the total changes), Pay asked and
    /// confirmed, and the same run then follows the new order's tracking screen.
    @Test func theLiveCheckoutChoosesAMethodAppliesACouponPaysAndFollowsTheNewOrder() async throws {
        let live = try await session("checkout C100 --watch --every 30")
        let first = try await live.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        #expect(first.contains("Checkout C100") && first.contains("● Visa •••• 4242 (visa4242)"))
        try await send(live, "m")
        _ = try await live.waitFor { $0.contains("Pay with (method id):") }
        try await send(live, "-l", "cash")
        try await send(live, "Enter")
        _ = try await live.waitFor { $0.contains("● Cash on delivery (cash)") }
        try await send(live, "m")
        try await send(live, "-l", "mada1111")
        try await send(live, "Enter")
        let expired = try await live.waitFor { $0.contains("Mada •••• 1111: expired") }
        #expect(expired.contains("Choose how to pay"), "an expired card is not chosen, and nothing else is")
        try await send(live, "P")
        let refused = try await live.waitFor { $0.contains("payment-method: veto: choose how to pay") }
        #expect(!refused.contains("(y/n)"))
        try await send(live, "Escape")
        _ = try await live.waitFor { !$0.contains("Esc closes") }
        try await send(live, "m")
        try await send(live, "-l", "visa4242")
        try await send(live, "Enter")
        _ = try await live.waitFor { $0.contains("● Visa •••• 4242 (visa4242)") }
        try await send(live, "p")
        try await send(live, "-l", "save10")
        try await send(live, "Enter")
        let discounted = try await live.waitFor { $0.contains("Promo SAVE10") && $0.contains("SAR 45.45") }
        #expect(discounted.contains("− SAR 5.05"))
        try await send(live, "P")
        let question = try await live.waitFor { $0.contains("(y/n)") }
        #expect(question.contains("Pay SAR 45.45 with Visa •••• 4242? (y/n)"), "\(question)")
        try await send(live, "y")
        let tracking = try await live.waitFor { $0.contains("Order 4242") && $0.contains("q quit") }
        #expect(tracking.contains("Tracking"), "the new order's screen, with its tab bar")
        try await send(live, "q")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"))
        #expect(try await live.history().contains("Paid SAR 45.45 with Visa •••• 4242: order 4242"))
        #expect(!done.split(separator: "\n").contains("-icanon"), "line editing and echo are back after q")
    }

    @Test func theCancelDialogSaysEachVerdictAndEscClosesIt() async throws {
        let live = try await session("3333 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        try await send(live, "c")
        let dialog = try await live.waitFor { $0.contains("Cancel order? (y/n)") }
        #expect(dialog.contains("Order 3333 can be cancelled."))
        #expect(dialog.contains("payment: ok: refund SAR 50.50"))
        try await send(live, "Escape")
        let closed = try await live.waitFor { !$0.contains("Cancel order? (y/n)") }
        #expect(!closed.contains("(y/n)"))
        try await send(live, "c")
        _ = try await live.waitFor { $0.contains("Cancel order? (y/n)") }
        try await send(live, "y")
        let confirmed = try await live.waitFor { $0.contains("Cancel requested") }
        #expect(confirmed.contains("Cancel requested for order 3333"))
        try await send(live, "Escape")
        #expect(
            try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"), "Esc with nothing open quits")
    }

    @Test func tabsSwitchWithArrowsAndDigitsAndSignOutAsksFirst() async throws {
        let folder = try TemporaryDirectory()
        let login = "\(CLI.binary) login 1234 --data-dir \(folder.url.path) > /dev/null; "
        let live = try await session("1234 --watch --every 30 --data-dir \(folder.url.path)", before: login)
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("Feed") }
        try await send(live, "Right")
        let profile = try await live.waitFor { $0.contains("▸ Profile") }
        #expect(!profile.contains("╭─ Order"), "the Profile tab's screen, not the cards:\n\(profile)")
        try await send(live, "1")
        _ = try await live.waitFor { $0.contains("▸ Tracking") && $0.contains("╭─ Order") }
        try await send(live, "BTab")
        let asked = try await live.waitFor { $0.contains("Sign out? (y/n)") }
        #expect(asked.contains("▸ Tracking"), "nothing happens before the answer")
        try await send(live, "y")
        let out = try await live.waitFor { $0.contains("Signed out user 1234") }
        #expect(!out.contains("Profile"))
        try await send(live, "q")
        _ = try await live.waitFor { $0.contains("STTY-CHECKED") }
    }

    /// A burst of keys is a burst: 2,000 pasted `r` reload the screen a couple of times, not once per key, and
    /// 10,000 more `r` then `q` quit with the usual status, having reloaded a couple of times more at most. Counted
    /// in the backend's answers (`--record`), written before and after each burst: the count cannot depend on
    /// how fast the machine is, and the limits only end a hang.
    @Test func aPasteOfReloadsIsOneBurstAndQQuitsAtOnce() async throws {
        let folder = try TemporaryDirectory()
        let recording = folder.url.appendingPathComponent("answers.jsonl").path
        let live = try await session("1234 --watch --every 600 --record \(recording)")
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        let lines = { (try? String(contentsOfFile: recording, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        let first = lines()
        try await send(live, "-l", String(repeating: "r", count: 2_000))
        // The reload is seen when its first answer is recorded (or the limit ends the wait).
        for _ in 0..<1200 where lines() == first { try await Task.sleep(for: .milliseconds(50)) }
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        let reloaded = lines() - first
        #expect(
            reloaded > 0 && reloaded <= 3 * first, "\(reloaded) requests after 2,000 r (\(first) for the first load)")
        try await send(live, "-l", String(repeating: "r", count: 10_000) + "q")
        let done = try await live.waitFor(.seconds(120)) { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"))
        let all = lines() - first
        #expect(
            all <= 6 * first,
            "\(all) requests after 12,000 r (\(first) for the first load, layout included; \(reloaded) after 2,000)")
    }

    /// A tab with a huge content (a 200,000-item feed) draws what fits and never holds `q`.
    @Test func aHugeTabNeverHoldsQ() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("huge-feed-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let items = (0..<200_000).map { #"{"title": "Feed item number \#($0) with some words"}"# }
        try Data(#"{"items": [\#(items.joined(separator: ","))]}"#.utf8)
            .write(to: root.appendingPathComponent("users/1234/feed.json"))
        let server = try TestServer.staticFiles(root)
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let api = "--api \(server.baseURL.absoluteString) --data-dir \(folder.url.path)"
        let login = "\(CLI.binary) login 1234 \(api) > /dev/null; "
        let live = try await session("1234 --watch --every 30 --timeout 600 \(api)", before: login)
        _ = try await live.waitFor(.seconds(120)) { $0.contains("q quit") && $0.contains("Feed") }
        try await send(live, "3")
        // Both, since a screen captured while a frame is being written can hold its rows but not yet its last.
        let feed = try await live.waitFor(.seconds(120)) { $0.contains("Feed item number 1 ") && $0.contains("q quit") }
        #expect(
            feed.contains("Feed item number 1 ") && feed.contains("q quit"), "what fits, and the keys line:\n\(feed)")
        // q is read while the tab's 200,000 items are on screen, and the screen closes with the usual status; the
        // limit only ends a hang.
        try await send(live, "q")
        let done = try await live.waitFor(.seconds(60)) { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"))
    }

    /// `q` is never held behind a tab's content: the Profile tab asks for its content, which the server holds
    /// (and never releases), and `q` still ends the screen with the usual status. An order of events: a `q` that
    /// waited for the content would never be read, and the limit turns that into a failure.
    @Test func qIsNeverHeldBehindATabsContent() async throws {
        let folder = try TemporaryDirectory()
        _ = try await CLI.run(["login", "1234", "--data-dir", folder.url.path])
        let held = try HeldAnswer(root: CLI.fixtures, path: "users/1234/profile.json")
        let api = "--api \(held.server.baseURL.absoluteString) --data-dir \(folder.url.path)"
        let live = try await session("1234 --watch --every 30 \(api)")
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("Profile") && !$0.contains("░") }
        try await send(live, "2")
        for _ in 0..<2400 where !held.wasAsked { try await Task.sleep(for: .milliseconds(50)) }
        #expect(held.wasAsked, "the Profile tab asked for its content")
        try await send(live, "q")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"), "\(done)")
    }

    /// Narrower than a card or one row high: one line says so (no garble, no blank), and it draws again when
    /// there is room.
    @Test func aTerminalTooSmallSaysSoOnOneLine() async throws {
        let live = try await session("1234 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        for (columns, rows) in [(12, 40), (60, 1)] {
            try await live.tmux(["resize-window", "-t", live.name, "-x", "\(columns)", "-y", "\(rows)"])
            let small = try await live.waitFor { $0.hasPrefix("Too small") }
            let lines = small.split(separator: "\n", omittingEmptySubsequences: true)
            #expect(lines.count == 1 && lines[0].hasPrefix("Too small"), "\(columns)×\(rows):\n\(small)")
            #expect(!small.contains("╭") && !small.contains("│"), "no garbled card")
        }
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "60"])
        #expect(try await live.waitFor { $0.contains("q quit") && $0.contains("╭") }.contains("Order 1234"))
        try await send(live, "q")
        #expect(try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"))
    }

    @Test func aResizeRedrawsAtTheNewWidthWithWholeBorders() async throws {
        let live = try await session("1234 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && !$0.contains("░") }
        try await live.tmux(["resize-window", "-t", live.name, "-x", "48", "-y", "60"])
        let narrow = try await live.waitFor { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix("╭") && $0.count == 48 }
        }
        let lines = narrow.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 48 }, "\(narrow)")
        let borders = lines.filter { $0.hasPrefix("╭") || $0.hasPrefix("╰") }
        #expect(!borders.isEmpty && borders.allSatisfy { $0.hasSuffix("╮") || $0.hasSuffix("╯") }, "\(narrow)")
        #expect(
            narrow.components(separatedBy: "╭").count == narrow.components(separatedBy: "╰").count,
            "no cut or doubled card:\n\(narrow)")
        try await live.tmux(["resize-window", "-t", live.name, "-x", "48", "-y", "16"])
        let short = try await live.waitFor { $0.split(separator: "\n").count <= 16 && $0.contains("q quit") }
        #expect(short.contains("q quit"), "the keys line stays on a short terminal:\n\(short)")
        #expect(short.contains("rows 1–"), "and says which rows of the screen are shown:\n\(short)")
        try await live.tmux(["resize-window", "-t", live.name, "-x", "48", "-y", "60"])
        try await send(live, "?")
        #expect(try await live.waitFor { $0.contains("reload every card") }.contains("enter a promo code"))
        try await send(live, "q")
        try await send(live, "q")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0") && !done.split(separator: "\n").contains("-icanon"))
    }

    @Test func aDumbTerminalGetsTimedFramesAndNoKeysAsBefore() async throws {
        let live = try await TmuxSession(
            command: "env TERM=dumb \(CLI.binary) 1234 --watch --every 30; echo EXIT=$?; \(TmuxSession.hold)")
        let frames = try await live.waitFor { $0.contains("╰") && $0.hasPrefix("── ") }
        #expect(!frames.contains("q quit") && !frames.contains("\u{1B}"), "\(frames)")
        try await send(live, "q")
        try await send(live, "C-c")
        #expect(try await live.waitFor { $0.contains("EXIT=") }.contains("EXIT=130"), "q is not a key here; Ctrl-C is")
    }

    /// A crash (here SIGABRT, as a failed precondition in a squad's code raises) still gives the terminal back:
    /// line editing, the main screen and the cursor, before the process dies with the crash's status.
    @Test func aCrashStillGivesTheTerminalBack() async throws {
        let folder = try TemporaryDirectory()
        let pidFile = folder.url.appendingPathComponent("pid").path
        let run = "env COURIER_NOW=2027-01-15T08:00:00Z TERM=xterm-256color \(CLI.binary) 1234 --watch --every 30"
        let after = "echo EXIT=$?; stty -a | grep -o -- '-icanon' | head -1; echo STTY-CHECKED; \(TmuxSession.hold)"
        let live = try await TmuxSession(command: "sh -c 'echo $$ > \(pidFile); exec \(run)'; \(after)")
        _ = try await live.waitFor { $0.contains("q quit") }
        let pid = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await ProcessRunner.run("kill", ["-ABRT", pid])
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=134"), "\(done)")
        #expect(!done.split(separator: "\n").contains("-icanon"), "line editing is back after the crash")
        #expect(!done.contains("q quit"), "the main screen is back")
        #expect(try await live.cursorVisible())
    }
}
