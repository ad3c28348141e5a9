import CoreTesting
import Foundation
import Testing

/// Paying on the live checkout in a real terminal: a question is answered only once it is on the screen, what
/// is paid is what it showed, and a pasted or typed-ahead "Py" never pays.
extension LiveTerminalTests {
    /// "Py2024" typed in one burst (a promo code typed ahead on the main screen): `P` asks, the `y` lands before
    /// the question is drawn and answers nothing; the person's own `y` after reading it pays.
    @Test func aTypedAheadPyOpensTheQuestionButNeverAnswersIt() async throws {
        let live = try await session("checkout C100 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        try await send(live, "-l", "Py2024")
        let asked = try await live.waitFor { $0.contains("(y/n)") }
        #expect(asked.contains("Pay SAR 50.50 with Visa •••• 4242? (y/n)"), "\(asked)")
        try await send(live, "Escape")
        _ = try await live.waitFor { !$0.contains("(y/n)") }
        try await send(live, "q")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"))
        let history = try await live.history()
        #expect(!history.contains("Paid") && !history.contains("sending"), "nothing was paid:\n\(history)")
    }

    /// A bracketed paste of "Py2024" on the main screen presses no key at all; pasted into the promo prompt it is
    /// the code.
    @Test func aPastedPyPressesNothingAndAPastedCodeFillsThePrompt() async throws {
        let live = try await session("checkout C100 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        try await live.tmux(["set-buffer", "-b", live.name, "Py2024"])
        try await live.tmux(["paste-buffer", "-p", "-b", live.name, "-t", live.name])
        try await send(live, "p")
        let prompt = try await live.waitFor { $0.contains("Promo code:") }
        #expect(!prompt.contains("(y/n)"), "the paste opened nothing:\n\(prompt)")
        try await live.tmux(["set-buffer", "-b", live.name, "save10"])
        try await live.tmux(["paste-buffer", "-p", "-b", live.name, "-t", live.name])
        _ = try await live.waitFor { $0.contains("Promo code: save10") }
        try await send(live, "Enter")
        _ = try await live.waitFor { $0.contains("Promo SAVE10") && $0.contains("SAR 45.45") }
        try await send(live, "q")
        #expect(try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"))
        #expect(!(try await live.history()).contains("Paid"))
    }

    /// `P` in the same burst as the promo code's Enter asks before the discount arrives ("Pay SAR 50.50"); the
    /// total changes under the open question, which asks again, and `y` pays the amount now shown.
    @Test func aTotalThatChangesUnderTheQuestionIsAskedAgainAndPaidAsShown() async throws {
        let folder = try TemporaryDirectory()
        let analytics = folder.url.appendingPathComponent("analytics.jsonl").path
        let live = try await session("checkout C100 --watch --every 30 --analytics \(analytics)")
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        try await send(live, "p")
        try await send(live, "-l", "save10")
        _ = try await live.waitFor { $0.contains("Promo code: save10") }
        try await send(live, "Enter", "P")
        let asked = try await live.waitFor { $0.contains("Pay SAR 45.45 with Visa •••• 4242? (y/n)") }
        #expect(asked.contains("total: ok: SAR 45.45"), "\(asked)")
        try await send(live, "y")
        let tracking = try await live.waitFor { $0.contains("Order 4242") && $0.contains("q quit") }
        #expect(tracking.contains("Tracking"))
        try await send(live, "q")
        #expect(try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"))
        #expect(try await live.history().contains("Paid SAR 45.45 with Visa •••• 4242: order 4242"))
        // Each screen's analytics carry that screen's subject: the cart's, then the new order's.
        let lines = try String(contentsOfFile: analytics, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(events.allSatisfy { $0["cart"] == nil || $0["order"] == nil })
        #expect(events.contains { $0["order"] as? String == "4242" && $0["cart"] == nil })
        #expect(!events.contains { $0["order"] as? String == "C100" }, "a cart is never called an order")
    }

    /// A code the person typed that the total did not apply (an unknown one) is never dropped in silence: the
    /// question says so in words and asks to pay without it, and only the `y` to that question pays the full price.
    @Test func aCodeNotAppliedIsSaidInTheQuestionAndOnlyAYesPaysWithoutIt() async throws {
        let live = try await session("checkout C100 --watch --every 30")
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        try await send(live, "p")
        try await send(live, "-l", "nope42")
        _ = try await live.waitFor { $0.contains("Promo code: nope42") }
        try await send(live, "Enter")
        _ = try await live.waitFor { $0.contains("is not recognised") }
        try await send(live, "P")
        let asked = try await live.waitFor { $0.contains("(y/n)") }
        let question =
            "Promo code nope42 is not applied (the cards did not apply it). Pay SAR 50.50 with Visa •••• 4242 "
            + "without it? (y/n)"
        #expect(Self.unwrapped(asked).contains(question), "\(asked)")
        try await send(live, "n")
        _ = try await live.waitFor { !$0.contains("(y/n)") }
        try await send(live, "P")
        _ = try await live.waitFor { $0.contains("(y/n)") }
        try await send(live, "y")
        _ = try await live.waitFor { $0.contains("Order 4242") && $0.contains("q quit") }
        try await send(live, "q")
        #expect(try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"))
        let history = try await live.history()
        #expect(history.contains("Paid SAR 50.50 with Visa •••• 4242: order 4242"), "\(history)")
    }

    /// A dialog's text as one line: its borders and line breaks gone, runs of spaces one.
    static func unwrapped(_ screen: String) -> String {
        screen.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// A pay answer that names no order (`{"id": "4242"}`) is still a payment made: the run ends done (0) and
    /// says why there is no tracking screen, instead of a usage error after the money moved.
    @Test func aPayAnswerWithoutAnOrderEndsDone() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("no-order-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(#"{"id": "4242"}"#.utf8).write(to: root.appendingPathComponent("carts/C100/_pay.post.json"))
        let server = try TestServer.faults(root: root)
        defer { server.stop() }
        let live = try await session("checkout C100 --watch --every 30 --api \(server.baseURL.absoluteString)")
        _ = try await live.waitFor { $0.contains("q quit") && $0.contains("To pay") && !$0.contains("░") }
        try await send(live, "P")
        _ = try await live.waitFor { $0.contains("(y/n)") }
        try await send(live, "y")
        let done = try await live.waitFor { $0.contains("STTY-CHECKED") }
        #expect(done.contains("EXIT=0"), "\(done)")
        let history = try await live.history()
        #expect(history.contains("the answer named no order"), "\(history)")
        #expect(!history.contains("needs --input"))
    }
}

/// The live screen taller than its window scrolls like `less`, and says which rows it shows.
extension LiveTerminalTests {
    @Test func aScreenTallerThanTheWindowScrollsAndAResizeKeepsThePosition() async throws {
        let live = try await session("1234 --watch --every 30")
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "24"])
        let top = try await live.waitFor { $0.contains("rows 1–") && !$0.contains("░") }
        let total = try #require(top.firstMatch(of: /rows 1–(\d+) of (\d+)/).map { (Int($0.1)!, Int($0.2)!) })
        #expect(total.0 < total.1, "\(top)")
        #expect(top.contains("╭─ Order") && !top.contains("╭─ Account"), "the top of the screen first:\n\(top)")
        try await send(live, "End")
        let bottom = try await live.waitFor { $0.contains("of \(total.1) ↑↓") && $0.contains("╭─ Account") }
        #expect(bottom.contains("–\(total.1) of \(total.1)"), "its last row at the window's bottom:\n\(bottom)")
        try await send(live, "Home", "Down", "Down", "Down")
        _ = try await live.waitFor { $0.contains("rows 4–") }
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "22"])
        let resized = try await live.waitFor { $0.split(separator: "\n").count <= 22 && $0.contains("rows 4–") }
        #expect(resized.contains("rows 4–"), "a resize keeps the position:\n\(resized)")
        try await send(live, "PPage")
        _ = try await live.waitFor { $0.contains("rows 1–") }
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "60"])
        let whole = try await live.waitFor { !$0.contains("rows ") && $0.contains("╭─ Account") }
        #expect(whole.contains("╭─ Order"), "a window that holds it all shows it all:\n\(whole)")
        try await send(live, "q")
        #expect(try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"))
    }

    /// Scrolled down, the window grows past the content (all of it shown) and shrinks back: the rows shown are
    /// the ones shown before, not the top.
    @Test func aWindowThatGrowsPastTheScreenAndShrinksBackKeepsThePosition() async throws {
        let live = try await session("1234 --watch --every 30")
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "22"])
        _ = try await live.waitFor { $0.contains("rows 1–") && !$0.contains("░") }
        try await send(live, "Down", "Down", "Down")
        let scrolled = try await live.waitFor { $0.contains("rows 4–") }
        #expect(scrolled.contains("rows 4–"), "\(scrolled)")
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "60"])
        let whole = try await live.waitFor { !$0.contains("rows ") && $0.contains("╭─ Account") }
        #expect(whole.contains("╭─ Order"), "a window that holds it all shows it all:\n\(whole)")
        try await live.tmux(["resize-window", "-t", live.name, "-x", "80", "-y", "22"])
        let back = try await live.waitFor { $0.split(separator: "\n").count <= 22 && $0.contains("rows ") }
        #expect(back.contains("rows 4–"), "shrunk back, the same rows:\n\(back)")
        try await send(live, "Up")
        let up = try await live.waitFor(.seconds(10)) { $0.contains("rows 3–") }
        #expect(up.contains("rows 3–"), "keys move from there:\n\(up)")
        try await send(live, "q")
        #expect(try await live.waitFor { $0.contains("STTY-CHECKED") }.contains("EXIT=0"))
    }
}
