import Core
import HostIO
import LiveScreen
import ScreenRuntime
import ScreenSinks
import TerminalUI
import Testing

/// Every key of the live screen, as a value: what it opens, what it asks the host to do, what it ignores.
@Suite struct ScreenConsoleTests {
    let tabs = [
        ConsoleTab(id: "tracking"), ConsoleTab(id: "profile"), ConsoleTab(id: "feed"),
        ConsoleTab(id: "signout", confirmation: "Sign out?"),
    ]
    /// A host's prompt, as order-tracking declares its promo prompt.
    static let promo = ConsolePrompt(
        key: "p", label: "Promo code", effect: "enter a promo code", event: "promo.entered")

    @Test func arrowsTabsAndDigitsMoveBetweenScreenTabsAndWrap() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.right, tabs: tabs) == .open(tab: "profile"))
        #expect(console.handle(.tab, tabs: tabs) == .open(tab: "feed"))
        #expect(console.handle(.backTab, tabs: tabs) == .open(tab: "profile"))
        #expect(console.handle(.character("1"), tabs: tabs) == .open(tab: "tracking"))
        #expect(console.handle(.left, tabs: tabs) == nil, "← from Tracking wraps to Sign out, which asks first")
        #expect(console.overlay == .confirmTab(id: "signout", question: "Sign out?"))
        #expect(console.selected == 0, "nothing is selected until the person says yes")
        #expect(console.handle(.character("n"), tabs: tabs) == nil)
        #expect(console.overlay == .none)
        #expect(console.handle(.character("9"), tabs: tabs) == nil, "no ninth tab: ignored")
        #expect(console.handle(.character("3"), tabs: tabs) == .open(tab: "feed"))
        #expect(console.selected == 2)
    }

    @Test func anActionTabActsOnlyOnYes() {
        var console = ScreenConsole(prompts: [Self.promo])
        _ = console.handle(.character("4"), tabs: tabs)
        #expect(console.handle(.character("x"), tabs: tabs) == nil, "any other key leaves the question open")
        #expect(console.overlay != .none)
        #expect(console.handle(.character("y"), tabs: tabs) == nil, "a yes before the question was drawn")
        #expect(console.overlay != .none)
        console.wasDrawn(console.revision, rows: 0, page: 0)
        #expect(console.handle(.character("y"), tabs: tabs) == .perform(tab: "signout"))
        #expect(console.overlay == .none)
        let signedOut = [ConsoleTab(id: "tracking")]
        console.tabsChanged(from: tabs, to: signedOut)
        #expect(console.selected == 0)
    }

    /// The tracking screen's cancel, as its definition declares it.
    static let cancel = ActionSpec(id: "cancel-order", key: "c", label: "Cancel")

    @Test func anActionsKeyAsksTheScreenAndYesConfirmsOnlyWhenAQuestionIsAsked() {
        var console = ScreenConsole(prompts: [Self.promo], actions: [Self.cancel])
        #expect(console.handle(.character("c"), tabs: tabs) == .act("cancel-order"))
        console.showAction(
            id: "cancel-order", title: "Cancel",
            lines: ["order: veto: already preparing", "Order 4242 can't be cancelled (1 veto)."], question: nil)
        #expect(console.handle(.character("y"), tabs: tabs) == nil, "a vetoed cancel cannot be confirmed")
        #expect(console.overlay != .none)
        #expect(console.handle(.escape, tabs: tabs) == nil)
        #expect(console.overlay == .none)
        _ = console.handle(.character("c"), tabs: tabs)
        console.showAction(id: "cancel-order", title: "Cancel", lines: ["order: ok"], question: "Cancel order?")
        let asked = console.revision
        console.wasDrawn(asked - 1, rows: 0, page: 0)
        #expect(console.handle(.character("y"), tabs: tabs) == nil, "an older drawing did not show the question")
        console.wasDrawn(asked, rows: 0, page: 0)
        #expect(console.handle(.character("y"), tabs: tabs) == .confirm("cancel-order"))
        _ = console.handle(.character("c"), tabs: tabs)
        console.showAction(id: "cancel-order", title: "Cancel", lines: ["order: ok"], question: "Cancel order?")
        #expect(console.handle(.character("n"), tabs: tabs) == nil)
        #expect(console.overlay == .none, "n closes it")
    }

    @Test func arrowsPagesHomeAndEndScrollWithinWhatTheHostLastDrew() {
        var console = ScreenConsole(actions: [Self.cancel])
        #expect(console.handle(.down, tabs: tabs) == nil)
        #expect(console.scroll == 0, "nothing drawn yet: nothing to scroll")
        console.wasDrawn(-1, rows: 30, page: 10)
        _ = console.handle(.down, tabs: tabs)
        _ = console.handle(.down, tabs: tabs)
        #expect(console.scroll == 2)
        _ = console.handle(.pageDown, tabs: tabs)
        #expect(console.scroll == 11, "a page less one line, so one line stays in view")
        _ = console.handle(.pageDown, tabs: tabs)
        #expect(console.scroll == 20, "never past the last line at the bottom")
        _ = console.handle(.up, tabs: tabs)
        #expect(console.scroll == 19)
        _ = console.handle(.home, tabs: tabs)
        #expect(console.scroll == 0)
        _ = console.handle(.up, tabs: tabs)
        #expect(console.scroll == 0)
        _ = console.handle(.end, tabs: tabs)
        #expect(console.scroll == 20)
        console.wasDrawn(-1, rows: 30, page: 25)
        #expect(console.scroll == 5, "a taller window keeps the position as far as it can")
        _ = console.handle(.character("c"), tabs: tabs)
        console.showAction(id: "cancel-order", title: "Cancel", lines: [], question: "Cancel order?")
        _ = console.handle(.up, tabs: tabs)
        #expect(console.scroll == 5, "keys answer what is open first")
        _ = console.handle(.escape, tabs: tabs)
        _ = console.handle(.right, tabs: tabs)
        #expect(console.scroll == 0, "another tab starts at its top")
    }

    @Test func aPasteFillsAPromptAndIsNeverKeys() {
        var console = ScreenConsole(prompts: [Self.promo], actions: [Self.cancel])
        #expect(console.handle(.paste("cy2024"), tabs: tabs) == nil, "pasted text presses no key")
        #expect(console.overlay == .none)
        _ = console.handle(.character("p"), tabs: tabs)
        #expect(console.handle(.paste("sa-ve/10\u{1B}[2~ABCDEFGHIJKLMNOPQRST"), tabs: tabs) == nil)
        #expect(console.overlay == .prompt(key: "p", typed: "save102ABCDEFGHI"), "letters and digits, up to the limit")
        _ = console.handle(.escape, tabs: tabs)
        _ = console.handle(.character("c"), tabs: tabs)
        console.showAction(id: "cancel-order", title: "Cancel", lines: ["order: ok"], question: "Cancel order?")
        console.wasDrawn(console.revision, rows: 0, page: 0)
        #expect(console.handle(.paste("y"), tabs: tabs) == nil, "a pasted y answers nothing")
        #expect(console.overlay != .none)
    }

    @Test func withoutTheActionItsKeyMeansNothingAndTheHelpListsOnlyWhatTheScreenDeclares() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.character("c"), tabs: tabs) == nil)
        #expect(!console.keyHelp.contains { $0.keys == "c" })
        #expect(ScreenConsole(actions: [Self.cancel]).keyHelp.contains { $0.keys == "c" && $0.effect == "cancel" })
    }

    @Test func thePromoPromptTypesErasesAppliesAndAbandons() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.character("p"), tabs: tabs) == nil)
        for key: Key in [.character("s"), .character("a"), .character("v"), .character("x"), .backspace] {
            #expect(console.handle(key, tabs: tabs) == nil, "typing, not commands: \(key)")
        }
        #expect(console.overlay == .prompt(key: "p", typed: "sav"))
        _ = console.handle(.character("q"), tabs: tabs)
        #expect(console.overlay == .prompt(key: "p", typed: "savq"), "q is a letter in the prompt, not quit")
        #expect(console.handle(.enter, tabs: tabs) == .submit(DomainEvent("promo.entered", text: "savq")))
        #expect(console.message == "Looking up SAVQ…")
        _ = console.handle(.character("p"), tabs: tabs)
        _ = console.handle(.character("z"), tabs: tabs)
        #expect(console.handle(.escape, tabs: tabs) == nil)
        #expect(console.overlay == .none, "Esc abandons")
        _ = console.handle(.character("p"), tabs: tabs)
        #expect(console.handle(.enter, tabs: tabs) == nil, "nothing typed, nothing applied")
    }

    /// The prompt takes what `--promo` takes and nothing else: `../x`, `A?B`, `é1` never become a code.
    @Test func thePromptTakesOnlyWhatACodeMayHold() {
        for typed in ["../x", "A?B", "é1", "a b", "٣3", "ｆ1"] {
            var console = ScreenConsole(prompts: [Self.promo])
            _ = console.handle(.character("p"), tabs: tabs)
            for character in typed { _ = console.handle(.character(character), tabs: tabs) }
            let kept = typed.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            #expect(console.overlay == .prompt(key: "p", typed: kept), "\(typed)")
        }
    }

    @Test func aLongPasteIsCutAtTheLimit() {
        var console = ScreenConsole(prompts: [Self.promo])
        _ = console.handle(.character("p"), tabs: tabs)
        for _ in 0..<500 { _ = console.handle(.character("A"), tabs: tabs) }
        #expect(console.overlay == .prompt(key: "p", typed: String(repeating: "A", count: Self.promo.limit)))
    }

    @Test func aConsoleWithoutPromptsTakesPAsAKeyThatMeansNothing() {
        var console = ScreenConsole()
        #expect(console.handle(.character("p"), tabs: tabs) == nil)
        #expect(console.overlay == .none)
        #expect(!console.keyHelp.contains { $0.keys == "p" })
    }

    @Test func reloadHelpQuitAndKeysThatMeanNothing() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.character("r"), tabs: tabs) == .reload)
        #expect(console.handle(.character("?"), tabs: tabs) == nil)
        #expect(console.overlay == .help)
        #expect(console.handle(.character("q"), tabs: tabs) == nil, "q closes the help first")
        for key: Key in [.character("z"), .enter, .backspace, .character("0")] {
            #expect(console.handle(key, tabs: tabs) == nil, "\(key) means nothing")
            #expect(console.overlay == .none)
        }
        #expect(console.handle(.character("q"), tabs: tabs) == .quit)
        #expect(console.handle(.escape, tabs: tabs) == .quit)
    }

    @Test func everyLineFitsTheWidthAndTheHelpListsEveryKey() {
        var console = ScreenConsole(prompts: [Self.promo])
        _ = console.handle(.character("?"), tabs: tabs)
        let lines = console.lines(
            title: "Order 1234", bar: "▸ Tracking   Profile", body: [], updated: "08:00:05", width: 48,
            styler: TextStyler(colors: false))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 48 }, "\(lines)")
        #expect(lines.first == "Order 1234" && lines[1] == "▸ Tracking   Profile")
        #expect(lines.last == "updated 08:00:05 · ? keys · q quit")
        for (keys, effect) in console.keyHelp {
            #expect(lines.contains { $0.contains(keys) && $0.contains(effect) }, "\(keys)")
        }
        _ = console.handle(.escape, tabs: tabs)
        _ = console.handle(.character("p"), tabs: tabs)
        _ = console.handle(.character("S"), tabs: tabs)
        let prompt = console.lines(
            title: "Order 1234", bar: nil, body: [], updated: nil, width: 20, styler: TextStyler(colors: false))
        #expect(prompt.last?.hasPrefix("Promo code: S") == true)
        #expect(prompt.allSatisfy { DisplayWidth.of($0) <= 20 })
    }
}
