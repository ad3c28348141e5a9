import Core
import CoreTesting
import Foundation
import LiveScreen
import ScreenRuntime
import Testing

/// The live screen's console as a value, fed what reaches it (keys, the frames the runtime hands out, what the host
/// drew): the rules that keep a person from answering a question they could not read, and the action's line that
/// stays. None of this is the runtime's.
@Suite struct ConsoleReducerTests {
    static let pay = ActionSpec(id: "pay", key: "P", label: "Pay")
    static let shown = ActionCheck(
        action: "pay", verdicts: [ActionVerdict(id: "total", verdict: .confirm("SAR 45.45", facts: [:]), reason: nil)],
        inputs: ["cart": "C100"])
    static let dialog = ActionNotice.dialog(
        id: "pay", title: "Pay", lines: ["total: ok: SAR 45.45", "Pay: nobody objects."],
        question: "Pay SAR 45.45?", check: shown)

    /// A frame of no cards whose action's reducer has told `told`, with the action at `progress`.
    static func frame(_ told: [ActionNotice], _ progress: ActionProgress? = nil) -> ScreenFrame {
        ScreenFrame(cards: [], elapsedMs: 0, finished: false, action: progress, told: told)
    }

    @Test func aDialogTheRuntimeToldOpensOnceAndAYesCountsOnlyOnceItWasDrawn() {
        var console = ScreenConsole(actions: [Self.pay])
        #expect(console.take([.character("P")]) == [.act("pay")], "the runtime is asked; nothing is shown yet")
        #expect(console.overlay == .asking(id: "pay") && !console.asks)
        #expect(console.reduce(.frame(Self.frame([Self.dialog]), .changed)) == ConsoleStep())
        #expect(console.asks && !console.questionIsOnScreen)
        let revision = console.revision
        _ = console.reduce(.frame(Self.frame([]), .settled))
        #expect(console.revision == revision, "a frame that carries no notice shows none")
        #expect(console.take([.character("y")]).isEmpty, "a yes before the question was drawn")
        _ = console.reduce(.drawn(revision: revision, rows: 0, page: 0))
        #expect(console.take([.character("y")]) == [.confirm("pay", shown: Self.shown)], "exactly what was shown")
        #expect(console.overlay == .none)
    }

    /// "Py2024" typed ahead (or pasted without bracketed paste): `P` asks the runtime, and nothing in the burst
    /// answers the question it opens, which is not even on the screen yet.
    @Test func aYesInTheBurstThatAskedAnswersNothing() {
        var console = ScreenConsole(actions: [Self.pay])
        let keys: [Key] = ["P", "y", "2", "0", "2", "4"].map { .character($0) }
        #expect(console.take(keys) == [.act("pay")])
        _ = console.reduce(.frame(Self.frame([Self.dialog]), .changed))
        #expect(console.asks && !console.questionIsOnScreen)
    }

    /// Keys typed ahead after an action's key answer its dialog to come, as they would the dialog: `q` and digits
    /// mean nothing, and Esc in the same burst closes it before it is ever shown.
    @Test func aBurstThatAsksAndClosesShowsNoDialogAndQuitsNothing() {
        var console = ScreenConsole(actions: [Self.pay], tabs: [ConsoleTab(id: "tracking"), ConsoleTab(id: "feed")])
        let keys: [Key] = [.character("P"), .character("2"), .character("q"), .escape]
        #expect(console.take(keys) == [.act("pay"), .close("pay")])
        _ = console.reduce(.frame(Self.frame([Self.dialog]), .changed))
        #expect(console.overlay == .none && console.selected == 0, "closed unseen, and no tab was opened")
        #expect(console.take([.character("P")]) == [.act("pay")])
        _ = console.reduce(.frame(Self.frame([Self.dialog]), .changed))
        #expect(console.asks, "asked again, it is shown")
    }

    /// A paste while the question is open and drawn presses nothing, and a `y` in the same burst after it (a paste
    /// whose text carries its own end marker, `x ESC [201~ y`) answers nothing: the question must be drawn again
    /// first. Then a typed `y` confirms it.
    @Test func aYesThatCameWithAPasteAnswersNothing() {
        var console = ScreenConsole(actions: [Self.pay])
        _ = console.reduce(.frame(Self.frame([Self.dialog]), .changed))
        _ = console.reduce(.drawn(revision: console.revision, rows: 0, page: 0))
        #expect(console.take([.paste("x"), .character("y")]).isEmpty)
        #expect(console.asks, "the question is still open")
        _ = console.reduce(.drawn(revision: console.revision, rows: 0, page: 0))
        #expect(console.take([.character("y")]) == [.confirm("pay", shown: Self.shown)])
    }

    /// What a send came to, or that it is under way, is the only trace of it on a screen that stays: a key that is
    /// no action (a scroll, `?`) does not wipe that line as it wipes other messages, so a person who scrolled still
    /// reads "may have gone through" before pressing P again. A line whose action does not keep it goes.
    @Test func anActionsLineStaysThroughTheKeysThatFollow() {
        var console = ScreenConsole(actions: [Self.pay])
        let held = ActionProgress.pending(action: "pay", reason: "an earlier attempt is pending", verdicts: [])
        _ = console.reduce(.frame(Self.frame([.line("Pay not sent: held")], held), .settled))
        #expect(console.take([.down, .character("?"), .character("x")]).isEmpty)
        #expect(console.message == "Pay not sent: held")
        _ = console.take([.escape])
        let failed = ActionProgress.failed(action: "pay", reason: "refused")
        _ = console.reduce(
            .frame(Self.frame([.line("Pay failed: refused")], failed), .settled))
        #expect(console.message == "Pay failed: refused")
        _ = console.take([.down])
        #expect(console.message == nil, "a failure's line goes with the next key")
    }

    @Test func aBurstOfRIsOneReloadAndAQInItQuitsAtOnce() {
        var console = ScreenConsole()
        let burst: [Key] = ["r", "r", "r", "q", "r"].map { .character($0) }
        #expect(console.take(burst) == [.reload, .quit])
    }

    /// Enter sends a prompt's code to the runtime; its "Looking up …" line goes once a frame says the screen settled.
    @Test func aPromptsCodeIsSubmittedAndItsLineGoesOnceTheScreenSettles() {
        let promo = ConsolePrompt(key: "p", label: "Promo code", effect: "enter a promo code", event: "promo.entered")
        var console = ScreenConsole(prompts: [promo])
        #expect(
            console.take([.character("p"), .character("s"), .enter]) == [
                .submit(DomainEvent("promo.entered", text: "s"))
            ])
        #expect(console.overlay == .none && console.message == "Looking up S…")
        _ = console.reduce(.frame(Self.frame([]), .changed))
        #expect(console.message == "Looking up S…")
        _ = console.reduce(.frame(Self.frame([]), .settled))
        #expect(console.message == nil)
    }
}
