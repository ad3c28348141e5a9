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
        var console = ScreenConsole(prompts: [Self.promo], tabs: tabs, user: "1234")
        #expect(console.handle(.right) == .open(tab: "profile"))
        #expect(console.handle(.tab) == .open(tab: "feed"))
        #expect(console.handle(.backTab) == .open(tab: "profile"))
        #expect(console.handle(.character("1")) == nil, "the first tab shows the cards: nothing to fetch")
        #expect(console.selected == 0)
        #expect(console.handle(.left) == nil, "← from Tracking wraps to Sign out, which asks first")
        #expect(console.overlay == .confirmTab(id: "signout", question: "Sign out?"))
        #expect(console.selected == 0, "nothing is selected until the person says yes")
        #expect(console.handle(.character("n")) == nil)
        #expect(console.overlay == .none)
        #expect(console.handle(.character("9")) == nil, "no ninth tab: ignored")
        #expect(console.handle(.character("3")) == .open(tab: "feed"))
        #expect(console.selected == 2)
    }

    @Test func anActionTabActsOnlyOnYes() {
        var console = ScreenConsole(prompts: [Self.promo], tabs: tabs, user: "1234")
        _ = console.handle(.character("4"))
        #expect(console.handle(.character("x")) == nil, "any other key leaves the question open")
        #expect(console.overlay != .none)
        #expect(console.handle(.character("y")) == nil, "a yes before the question was drawn")
        #expect(console.overlay != .none)
        console.wasDrawn(console.revision, rows: 0, page: 0)
        #expect(console.handle(.character("y")) == .perform(tab: "signout"))
        #expect(console.overlay == .none)
        let signedOut = [ConsoleTab(id: "tracking")]
        console.tabsChanged(to: signedOut, user: nil)
        #expect(console.selected == 0 && console.tabs == signedOut && console.user == nil)
    }

    /// The tracking screen's cancel, as its definition declares it.
    static let cancel = ActionSpec(id: "cancel-order", key: "c", label: "Cancel")
    /// What a cancel dialog showed (the squads' verdicts added up): what its `y` confirms.
    static let shown = ActionCheck(
        action: "cancel-order", verdicts: [ActionVerdict(id: "order", verdict: .allow, reason: nil)], inputs: [:])

    @Test func anActionsKeyAsksTheScreenAndYesConfirmsOnlyWhenAQuestionIsAsked() {
        var console = ScreenConsole(prompts: [Self.promo], actions: [Self.cancel])
        #expect(console.handle(.character("c")) == .act("cancel-order"))
        console.showAction(
            id: "cancel-order", title: "Cancel",
            lines: ["order: veto: already preparing", "Order 4242 can't be cancelled (1 veto)."], question: nil,
            check: Self.shown)
        #expect(console.handle(.character("y")) == nil, "a vetoed cancel cannot be confirmed")
        #expect(console.overlay != .none)
        #expect(console.handle(.escape) == .close("cancel-order"), "the runtime hears it was closed")
        #expect(console.overlay == .none)
        _ = console.handle(.character("c"))
        console.showAction(
            id: "cancel-order", title: "Cancel", lines: ["order: ok"], question: "Cancel order?", check: Self.shown)
        let asked = console.revision
        console.wasDrawn(asked - 1, rows: 0, page: 0)
        #expect(console.handle(.character("y")) == nil, "an older drawing did not show the question")
        console.wasDrawn(asked, rows: 0, page: 0)
        #expect(console.handle(.character("y")) == .confirm("cancel-order", shown: Self.shown))
        _ = console.handle(.character("c"))
        console.showAction(
            id: "cancel-order", title: "Cancel", lines: ["order: ok"], question: "Cancel order?", check: Self.shown)
        #expect(console.handle(.character("n")) == .close("cancel-order"))
        #expect(console.overlay == .none, "n closes it")
    }

    @Test func arrowsPagesHomeAndEndScrollWithinWhatTheHostLastDrew() {
        var console = ScreenConsole(actions: [Self.cancel], tabs: tabs)
        #expect(console.handle(.down) == nil)
        #expect(console.scroll == 0, "nothing drawn yet: nothing to scroll")
        console.wasDrawn(-1, rows: 30, page: 10)
        _ = console.handle(.down)
        _ = console.handle(.down)
        #expect(console.scroll == 2)
        _ = console.handle(.pageDown)
        #expect(console.scroll == 11, "a page less one line, so one line stays in view")
        _ = console.handle(.pageDown)
        #expect(console.scroll == 20, "never past the last line at the bottom")
        _ = console.handle(.up)
        #expect(console.scroll == 19)
        _ = console.handle(.home)
        #expect(console.scroll == 0)
        _ = console.handle(.up)
        #expect(console.scroll == 0)
        _ = console.handle(.end)
        #expect(console.scroll == 20)
        console.wasDrawn(-1, rows: 30, page: 25)
        #expect(console.firstShown == 5, "a taller window shows as much as it can")
        console.wasDrawn(-1, rows: 30, page: 40)
        #expect(console.firstShown == 0, "a window taller than the body shows it all")
        console.wasDrawn(-1, rows: 30, page: 10)
        #expect(console.firstShown == 20, "shrunk back, the rows shown before: the position was kept")
        console.wasDrawn(-1, rows: 30, page: 25)
        _ = console.handle(.up)
        #expect(console.scroll == 4, "a key moves from the rows shown")
        _ = console.handle(.character("c"))
        console.showAction(id: "cancel-order", title: "Cancel", lines: [], question: "Cancel order?", check: Self.shown)
        _ = console.handle(.up)
        #expect(console.scroll == 4, "keys answer what is open first")
        _ = console.handle(.escape)
        _ = console.handle(.right)
        #expect(console.scroll == 0, "another tab starts at its top")
    }

    @Test func aPasteFillsAPromptAndIsNeverKeys() {
        var console = ScreenConsole(prompts: [Self.promo], actions: [Self.cancel])
        #expect(console.handle(.paste("cy2024")) == nil, "pasted text presses no key")
        #expect(console.overlay == .none)
        _ = console.handle(.character("p"))
        #expect(console.handle(.paste("sa-ve/10\u{1B}[2~ABCDEFGHIJKLMNOPQRST")) == nil)
        #expect(console.overlay == .prompt(key: "p", typed: "save102ABCDEFGHI"), "letters and digits, up to the limit")
        _ = console.handle(.escape)
        _ = console.handle(.character("c"))
        console.showAction(
            id: "cancel-order", title: "Cancel", lines: ["order: ok"], question: "Cancel order?", check: Self.shown)
        console.wasDrawn(console.revision, rows: 0, page: 0)
        #expect(console.handle(.paste("y")) == nil, "a pasted y answers nothing")
        #expect(console.overlay != .none)
    }

    @Test func withoutTheActionItsKeyMeansNothingAndTheHelpListsOnlyWhatTheScreenDeclares() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.character("c")) == nil)
        #expect(!console.keyHelp.contains { $0.keys == "c" })
        #expect(ScreenConsole(actions: [Self.cancel]).keyHelp.contains { $0.keys == "c" && $0.effect == "cancel" })
    }

    @Test func thePromoPromptTypesErasesAppliesAndAbandons() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.character("p")) == nil)
        for key: Key in [.character("s"), .character("a"), .character("v"), .character("x"), .backspace] {
            #expect(console.handle(key) == nil, "typing, not commands: \(key)")
        }
        #expect(console.overlay == .prompt(key: "p", typed: "sav"))
        _ = console.handle(.character("q"))
        #expect(console.overlay == .prompt(key: "p", typed: "savq"), "q is a letter in the prompt, not quit")
        #expect(console.handle(.enter) == .submit(DomainEvent("promo.entered", text: "savq")))
        #expect(console.message == "Looking up SAVQ…")
        _ = console.handle(.character("p"))
        _ = console.handle(.character("z"))
        #expect(console.handle(.escape) == nil)
        #expect(console.overlay == .none, "Esc abandons")
        _ = console.handle(.character("p"))
        #expect(console.handle(.enter) == nil, "nothing typed, nothing applied")
    }

    /// The prompt takes what `--promo` takes and nothing else: `../x`, `A?B`, `é1` never become a code.
    @Test func thePromptTakesOnlyWhatACodeMayHold() {
        for typed in ["../x", "A?B", "é1", "a b", "٣3", "ｆ1"] {
            var console = ScreenConsole(prompts: [Self.promo])
            _ = console.handle(.character("p"))
            for character in typed { _ = console.handle(.character(character)) }
            let kept = typed.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            #expect(console.overlay == .prompt(key: "p", typed: kept), "\(typed)")
        }
    }

    @Test func aLongPasteIsCutAtTheLimit() {
        var console = ScreenConsole(prompts: [Self.promo])
        _ = console.handle(.character("p"))
        for _ in 0..<500 { _ = console.handle(.character("A")) }
        #expect(console.overlay == .prompt(key: "p", typed: String(repeating: "A", count: Self.promo.limit)))
    }

    @Test func aConsoleWithoutPromptsTakesPAsAKeyThatMeansNothing() {
        var console = ScreenConsole()
        #expect(console.handle(.character("p")) == nil)
        #expect(console.overlay == .none)
        #expect(!console.keyHelp.contains { $0.keys == "p" })
    }

    @Test func reloadHelpQuitAndKeysThatMeanNothing() {
        var console = ScreenConsole(prompts: [Self.promo])
        #expect(console.handle(.character("r")) == .reload)
        #expect(console.handle(.character("?")) == nil)
        #expect(console.overlay == .help)
        #expect(console.handle(.character("q")) == nil, "q closes the help first")
        for key: Key in [.character("z"), .enter, .backspace, .character("0")] {
            #expect(console.handle(key) == nil, "\(key) means nothing")
            #expect(console.overlay == .none)
        }
        #expect(console.handle(.character("q")) == .quit)
        #expect(console.handle(.escape) == .quit)
    }

    @Test func everyLineFitsTheWidthAndTheHelpListsEveryKey() {
        var console = ScreenConsole(prompts: [Self.promo])
        _ = console.handle(.character("?"))
        let lines = console.lines(
            title: "Order 1234", bar: "▸ Tracking   Profile", body: [], updated: "08:00:05", width: 48,
            styler: TextStyler(colors: false))
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 48 }, "\(lines)")
        #expect(lines.first == "Order 1234" && lines[1] == "▸ Tracking   Profile")
        #expect(lines.last == "updated 08:00:05 · ? keys · q quit")
        for (keys, effect) in console.keyHelp {
            #expect(lines.contains { $0.contains(keys) && $0.contains(effect) }, "\(keys)")
        }
        _ = console.handle(.escape)
        _ = console.handle(.character("p"))
        _ = console.handle(.character("S"))
        let prompt = console.lines(
            title: "Order 1234", bar: nil, body: [], updated: nil, width: 20, styler: TextStyler(colors: false))
        #expect(prompt.last?.hasPrefix("Promo code: S") == true)
        #expect(prompt.allSatisfy { DisplayWidth.of($0) <= 20 })
    }

    /// The console's own reducer: the host's answers and drawings change only the console, and say when the
    /// screen is drawn again or the host must fetch a tab.
    @Test func theHostsAnswersAndDrawingsAreTheConsolesOwnSteps() {
        var console = ScreenConsole(tabs: tabs, user: "1234")
        #expect(console.reduce(.answered(.tabs(tabs, user: "1234"))) == ConsoleStep(redraws: false), "the same bar")
        #expect(console.reduce(.key(.right)) == ConsoleStep(.open(tab: "profile")))
        #expect(console.reduce(.answered(.opened(tab: "feed", lines: ["feed"]))) == ConsoleStep())
        #expect(console.body == nil, "a tab no longer open is not shown")
        #expect(console.reduce(.answered(.opened(tab: "profile", lines: ["Ahmed"]))) == ConsoleStep())
        #expect(console.body == ["Ahmed"])
        #expect(
            console.reduce(.answered(.tabs(tabs, user: "5678"))) == ConsoleStep(.open(tab: "profile")),
            "another user's profile is fetched again")
        #expect(console.reduce(.answered(.said("Signed out."))) == ConsoleStep())
        #expect(console.message == "Signed out.")
        _ = console.reduce(.key(.character("4")))
        #expect(console.asks && !console.questionIsOnScreen)
        #expect(console.reduce(.drawn(revision: console.revision, rows: 3, page: 2)) == ConsoleStep(redraws: false))
        #expect(console.questionIsOnScreen && console.bodyRows == 3 && console.page == 2)
        #expect(console.reduce(.key(.character("y"))) == ConsoleStep(.perform(tab: "signout")))
    }
}
