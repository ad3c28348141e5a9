import Core
import ScreenRuntime

/// One tab of the live screen's bar, as the host's tab bar describes it: part of the console's state, so the bar is
/// drawn from it and a key moves between the tabs it holds.
public struct ConsoleTab: Sendable, Equatable {
    /// The tab's id ("tracking", "profile", "signout").
    public let id: String
    /// Its label on the bar ("Feed").
    public let title: String
    /// What the bar shows beside the label ("3"), if anything.
    public let badge: String?
    /// The question it asks before it acts (Sign out), or nil for a tab that shows a screen.
    public let confirmation: String?

    /// A tab of the bar, labelled `title` (its id when none is given).
    public init(id: String, title: String? = nil, badge: String? = nil, confirmation: String? = nil) {
        (self.id, self.title, self.badge, self.confirmation) = (id, title ?? id, badge, confirmation)
    }
}

/// What is open over a live screen (the help, a dialog, a prompt's input line, a tab's content) and what a key
/// means now, as a value: the live screen's own, changed by its own reducer (``reduce(_:)``: a person's key, the
/// host's answer such as the bar changing, what the host drew, a frame the runtime handed out). The screen runtime
/// knows nothing of it: it hears only what a person asks of the screen (an action, a yes to what was shown, a
/// typed value). No terminal, clock or runtime here, so every key's effect is a test of a few microseconds;
/// ``LiveConsole`` draws it and carries out what it returns.
public struct ScreenConsole: Sendable, Equatable {
    /// What is open over the screen.
    public enum Overlay: Sendable, Equatable {
        /// Nothing: keys move tabs and start things.
        case none
        /// The key help (`?`).
        case help
        /// Action `id` was asked for and the runtime's dialog has not arrived: the keys that follow (the rest of a
        /// typed-ahead burst) answer it as they would the dialog, and nothing is drawn for it.
        case asking(id: String)
        /// The squads' verdicts on action `id` under `title`; `question` when nobody vetoed ("Pay SAR 45.45 with
        /// Visa •••• 4242?": `y` confirms `check`, exactly what is shown).
        case action(id: String, title: String, lines: [String], question: String?, check: ActionCheck)
        /// The prompt opened by `key`, with what has been typed.
        case prompt(key: Character, typed: String)
        /// An action tab's question ("Sign out? (y/n)").
        case confirmTab(id: String, question: String)
    }

    /// What the host should do after a key.
    public enum Action: Sendable, Equatable {
        /// Leave with the screen's usual status.
        case quit
        /// Reload every card now.
        case reload
        /// Ask the validating cards about action `id` (the screen shows what they said).
        case act(String)
        /// The person said yes to action `id`'s question, which showed `shown`.
        case confirm(String, shown: ActionCheck)
        /// The person closed action `id`'s dialog without saying yes.
        case close(String)
        /// Send this event (a prompt's code) to the screen, which routes it to the cards that take it.
        case submit(DomainEvent)
        /// Show this tab's screen in the body (the first tab shows the cards).
        case open(tab: String)
        /// Perform this action tab (the person said yes).
        case perform(tab: String)
    }

    /// The prompts the host declared.
    public let prompts: [ConsolePrompt]
    /// What a person can do on this screen, each on its key.
    public let actions: [ActionSpec]
    /// What is open. Each change is a new revision: a question may be answered only once the host has drawn the
    /// revision that shows it (``wasDrawn(_:)``).
    public internal(set) var overlay = Overlay.none {
        didSet { if overlay != oldValue { revision += 1 } }
    }
    /// Counts the changes of what is open, so the host can say which one it drew.
    public private(set) var revision = 0
    /// The revision the host last drew. A `y` typed ahead, or pasted with the key that asks, lands before the
    /// question is on the screen and is ignored: a person answers only a question they could read.
    public private(set) var drawnRevision: Int?
    /// The bar's tabs now, in order (Tracking first), with their labels and badges.
    public private(set) var tabs: [ConsoleTab]
    /// Who is signed in (nil: nobody): the tabs that apply are theirs.
    public private(set) var user: String?
    /// The selected tab's position in the bar (0: Tracking, the cards).
    public private(set) var selected = 0
    /// The first line of the body shown, when the body is taller than the window (↑ ↓ PgUp PgDn Home End move
    /// it, as in `less`). A resize keeps it: a window that grows past the body shows it all (the host draws from
    /// `min(scroll, rows - page)`) and, shrunk back, the same rows as before; a key moves from what is shown.
    public private(set) var scroll = 0
    /// The first line of the body shown in the window the host last drew: ``scroll`` as far as the body reaches.
    public var firstShown: Int { min(scroll, lastScroll) }
    /// How many body lines the host last laid out, and how many of them fit (a page).
    public private(set) var bodyRows = 0, page = 0
    /// A line for the person under the screen ("Looking up SAVE10…", "Signed out."), until the next key.
    public var message: String?
    /// A prompt's code was sent: its "Looking up …" line goes once the screen settles (a settled frame).
    public internal(set) var lookingUp = false
    /// The action's line stays through the keys that follow (``ActionProgress/keepsItsLine`` of the newest frame).
    public internal(set) var keepsLine = false
    /// The action whose dialog was closed while it was still being asked for (``Overlay/asking(id:)``): that
    /// dialog, when it arrives, is not shown.
    public internal(set) var closedUnseen: String?
    /// What the selected tab shows instead of the cards (nil: the cards).
    public var body: [String]?

    /// The keys, as `?` shows them (and `--help` and the README say them): the screen's own, then the host's
    /// prompts.
    public var keyHelp: [(keys: String, effect: String)] {
        [
            ("← → Tab Shift-Tab", "previous / next tab"), ("1–9", "tab N of the bar"),
            ("↑ ↓ PgUp PgDn Home End", "scroll the screen"), ("r", "reload every card"),
        ]
            + actions.map { (String($0.key), $0.help) } + prompts.map { (String($0.key), $0.effect) }
            + [("?", "these keys"), ("q Esc", "quit")]
    }

    /// A console with nothing open, on the first of `tabs` (those of `user`), with the host's `prompts` and the
    /// screen's `actions`.
    public init(
        prompts: [ConsolePrompt] = [], actions: [ActionSpec] = [], tabs: [ConsoleTab] = [], user: String? = nil
    ) {
        (self.prompts, self.actions, self.tabs, self.user) = (prompts, actions, tabs, user)
    }

    /// What `key` means now, on the bar the console holds; nil when it means nothing (it is ignored).
    public mutating func handle(_ key: Key) -> Action? {
        message = nil
        switch overlay {
        case .prompt(let opener, let typed):
            guard let prompt = prompts.first(where: { $0.key == opener }) else { return nil }
            return promptKey(key, typed, prompt)
        case .action(let id, _, _, let question, let check):
            if case .paste = key { return pasted() }
            if question != nil, key == .character("y") {
                guard questionIsOnScreen else { return nil }
                overlay = .none
                return .confirm(id, shown: check)
            }
            return closing(id, on: key)
        case .asking(let id):
            if case .paste = key { return pasted() }
            let close = closing(id, on: key)
            // Its dialog, still to come, is not shown: it was closed before it was on the screen.
            if close != nil { closedUnseen = id }
            return close
        case .confirmTab(let id, _):
            if case .paste = key { return pasted() }
            if key == .character("y") {
                guard questionIsOnScreen else { return nil }
                overlay = .none
                return .perform(tab: id)
            }
            if [.escape, .character("n")].contains(key) { overlay = .none }
            return nil
        case .help:
            overlay = .none
            return nil
        case .none:
            if scrolled(key) { return nil }
            return screenKey(key)
        }
    }

    /// Action `id`'s dialog is closed by Esc, Enter, `n` or the key that opened it; any other key leaves it open.
    private mutating func closing(_ id: String, on key: Key) -> Action? {
        let opener = actions.first { $0.id == id }.map { Key.character($0.key) }
        guard [.escape, .enter, .character("n")].contains(key) || key == opener else { return nil }
        overlay = .none
        return .close(id)
    }

    /// Text pasted while a question is open answers nothing, and neither does a key that came in the same burst
    /// after it: the question must be drawn again first. A paste whose text carries its own end marker
    /// (`ESC [201~y`, which tmux passes on) would otherwise press `y` on a question the person was reading.
    private mutating func pasted() -> Action? {
        revision += 1
        return nil
    }

    /// Whether the question open now has been drawn as it stands.
    public var questionIsOnScreen: Bool { drawnRevision == revision }

    /// Whether what is open asks a question a person answers with `y`.
    public var asks: Bool {
        switch overlay {
        case .action(_, _, _, let question, _): question != nil
        case .confirmTab: true
        case .none, .help, .asking, .prompt: false
        }
    }

    /// The host drew revision `drawn` of the console, with `rows` body lines of which `page` fit; a later change
    /// makes it stale again.
    public mutating func wasDrawn(_ drawn: Int, rows: Int, page: Int) {
        if drawn == revision { drawnRevision = drawn }
        (bodyRows, self.page) = (max(rows, 0), max(page, 0))
    }

    /// The furthest the body can scroll: its last line at the window's bottom.
    private var lastScroll: Int { max(bodyRows - page, 0) }

    /// Moves the body's window; nil: the key does not scroll.
    private mutating func scrolled(_ key: Key) -> Bool {
        let step = max(page - 1, 1)
        // From the rows shown: a position kept through a window taller than the body is where the keys start.
        let shown = firstShown
        switch key {
        case .up: scroll = max(shown - 1, 0)
        case .down: scroll = min(shown + 1, lastScroll)
        case .pageUp: scroll = max(shown - step, 0)
        case .pageDown: scroll = min(shown + step, lastScroll)
        case .home: scroll = 0
        case .end: scroll = lastScroll
        default: return false
        }
        return true
    }

    /// Shows the squads' verdicts on action `id`; asks `question` only when nobody vetoed, and a `y` confirms `check`.
    public mutating func showAction(
        id: String, title: String, lines: [String], question: String?, check: ActionCheck
    ) {
        overlay = .action(id: id, title: title, lines: lines, question: question, check: check)
    }

    /// The bar changed (someone signed in or out, a badge moved): the selection stays on the same tab, or goes
    /// back to the first (the cards) when that tab is gone.
    public mutating func tabsChanged(to new: [ConsoleTab], user: String?) {
        let id = selectedTab?.id
        (tabs, self.user) = (new, user)
        let index = new.firstIndex { $0.id == id } ?? 0
        if index != selected { (selected, scroll) = (index, 0) }
        if selected == 0 { body = nil }
    }

    /// The selected tab, nil when the bar is empty.
    public var selectedTab: ConsoleTab? { tabs.indices.contains(selected) ? tabs[selected] : nil }

    private mutating func promptKey(_ key: Key, _ typed: String, _ prompt: ConsolePrompt) -> Action? {
        switch key {
        case .character(let character) where typed.count < prompt.limit && ConsolePrompt.mayBeTyped(character):
            overlay = .prompt(key: prompt.key, typed: typed + String(character))
        case .paste(let text):
            let room = max(prompt.limit - typed.count, 0)
            overlay = .prompt(
                key: prompt.key, typed: typed + String(text.filter(ConsolePrompt.mayBeTyped).prefix(room)))
        case .backspace: overlay = .prompt(key: prompt.key, typed: String(typed.dropLast()))
        case .escape: overlay = .none
        case .enter:
            overlay = .none
            guard !typed.isEmpty else { return nil }
            (message, lookingUp) = ("Looking up \(typed.uppercased())…", true)
            return .submit(DomainEvent(prompt.event, text: typed))
        default: break
        }
        return nil
    }

    private mutating func screenKey(_ key: Key) -> Action? {
        switch key {
        case .character("q"), .escape: return .quit
        case .character("r"): return .reload
        case .character(let character) where actions.contains(where: { $0.key == character }):
            guard let id = actions.first(where: { $0.key == character })?.id else { return nil }
            (overlay, closedUnseen) = (.asking(id: id), nil)
            return .act(id)
        case .character(let character) where prompts.contains { $0.key == character }:
            overlay = .prompt(key: character, typed: "")
            return nil
        case .character("?"):
            overlay = .help
            return nil
        case .left, .backTab: return select(selected - 1, wrapping: true)
        case .right, .tab: return select(selected + 1, wrapping: true)
        case .character(let digit) where ("1"..."9").contains(digit):
            guard let number = digit.wholeNumberValue, number <= tabs.count else { return nil }
            return select(number - 1, wrapping: false)
        default: return nil
        }
    }

    private mutating func select(_ index: Int, wrapping: Bool) -> Action? {
        guard !tabs.isEmpty else { return nil }
        let index = ((index % tabs.count) + tabs.count) % tabs.count
        let tab = tabs[index]
        if let question = tab.confirmation {
            overlay = .confirmTab(id: tab.id, question: question)
            return nil
        }
        (selected, scroll) = (index, 0)
        // The first tab shows the cards: nothing to fetch.
        if index == 0 {
            body = nil
            return nil
        }
        return .open(tab: tab.id)
    }
}

/// What the host's tab bar answers (a tab's content, what an action tab did, the bar now), as the console shows it.
public enum ConsoleAnswer: Sendable, Equatable {
    /// Tab `id`'s content, shown only if that tab is still the one open.
    case opened(tab: String, lines: [String])
    /// An action tab was performed: what it said (the bar it changed comes as ``tabs(_:user:)``).
    case performed(said: String)
    /// The bar now, for `user` (nil: nobody signed in): someone signed in or out, or a badge changed.
    case tabs([ConsoleTab], user: String?)
    /// A line for the person.
    case said(String)
}
