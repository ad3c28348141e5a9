import Core
import Foundation

/// What reaches the live screen's console: a person's key, the host's answer to a ``ConsoleRequest``, the host
/// saying what it drew, what the action's reducer has a person shown, or the screen settling. The console's own
/// reducer (``ScreenConsole/reduce(_:)``) takes these; the screen's reducer carries out what it returns.
public enum ConsoleInput: Sendable, Equatable {
    /// A person's key.
    case key(Key)
    /// The host's answer to a ``ConsoleRequest``.
    case answered(ConsoleAnswer)
    /// The host drew revision `revision` (``ScreenConsole/revision``) with `rows` body lines of which `page` fit.
    case drawn(revision: Int, rows: Int, page: Int)
    /// What the action's reducer has to show a person.
    case told(ActionNotice)
    /// The screen settled (everything asked for answered): a prompt's code has been looked up.
    case settled
}

/// What the action's reducer has a person shown, which the console shows: the action's reducer tells it and never
/// writes the console.
public enum ActionNotice: Sendable, Equatable {
    /// The squads' verdicts on action `id` under `title`, asking `question` when nobody vetoed.
    case dialog(id: String, title: String, lines: [String], question: String?)
    /// The action's line under the screen ("Pay: sending…", "Paid SAR 45.45.").
    case line(String)
}

/// What one ``ConsoleInput`` did to the console: what the screen must do for it, and whether the screen is drawn
/// again.
public struct ConsoleStep: Sendable, Equatable {
    /// What the screen or the host must do now (nil: nothing).
    public var action: ScreenConsole.Action?
    /// Whether what the console shows may have changed (false: the same bar again, or a drawing reported).
    public var redraws: Bool

    /// A step doing `action`, drawn again when `redraws`.
    public init(_ action: ScreenConsole.Action? = nil, redraws: Bool = true) {
        (self.action, self.redraws) = (action, redraws)
    }
}

extension ScreenConsole {
    /// The console's reducer: applies `input` to what is open, the bar, the scroll and the message line, and says
    /// what the screen must do about it. Nothing here knows the cards, the action or the runtime: a key clears the
    /// message line (the screen puts an action's back, ``ScreenState``'s side of the composition).
    public mutating func reduce(_ input: ConsoleInput) -> ConsoleStep {
        switch input {
        case .key(let key):
            return ConsoleStep(handle(key))
        case .answered(.opened(let id, let lines)):
            // Only if that tab is still the one open (a person may have moved on while it loaded).
            if selected > 0, selectedTab?.id == id { body = lines }
            return ConsoleStep()
        case .answered(.performed(let said)), .answered(.said(let said)):
            message = said
            return ConsoleStep()
        case .answered(.tabs(let new, let user)):
            guard new != tabs || user != self.user else { return ConsoleStep(redraws: false) }
            let before = self.user
            tabsChanged(to: new, user: user)
            // Another user signed in while a tab of theirs is open: its content is fetched again, for them.
            guard user != before, selected > 0, let tab = selectedTab else { return ConsoleStep() }
            return ConsoleStep(.open(tab: tab.id))
        case .drawn(let revision, let rows, let page):
            wasDrawn(revision, rows: rows, page: page)
            return ConsoleStep(redraws: false)
        case .told(.dialog(let id, let title, let lines, let question)):
            showAction(id: id, title: title, lines: lines, question: question)
            return ConsoleStep()
        case .told(.line(let line)):
            message = line
            return ConsoleStep()
        case .settled:
            // A prompt's code has been looked up: "Looking up …" goes.
            if lookingUp { (message, lookingUp) = (nil, false) }
            return ConsoleStep(redraws: false)
        }
    }
}

extension ScreenState {
    /// The console composed into the screen: `input` goes to the console's reducer, and what it returns is carried
    /// out here (a reload, a prompt's code routed to the cards, an action asked or confirmed, the run stopped) or
    /// asked of the host (a tab opened or performed). A batch of keys is one burst: its `r`s are one reload, a `q`
    /// quits at once, and the screen is drawn once after it.
    mutating func reduceConsole(_ inputs: [ConsoleInput], _ now: Date, _ effects: inout [ScreenEffect]) {
        var (reloaded, submitted, redraws) = (false, false, false)
        for input in inputs where !stopped {
            let said = console.message
            let step = console.reduce(input)
            redraws = redraws || step.redraws
            defer {
                // "Pay: sending…", "Paid …" or "… may have gone through: check before paying again" stays through
                // the keys that follow, until another action replaces it: a person who scrolled must still see it
                // before pressing P again.
                if case .key = input, console.message == nil, action.progress?.keepsItsLine == true {
                    console.message = said
                }
            }
            switch step.action {
            case nil: break
            case .quit?: stop(&effects)
            case .reload?:
                if !reloaded { reloadEverything(now, &effects) }
                reloaded = true
            case .submit(let event)?:
                (followUp, submitted) = (!config.watch, true)
                route(event, path: ["input"], now, &effects)
            case .act(let id)?:
                // The console offers the screen's own actions only.
                guard let spec = action.spec(id) else { break }
                telling { $0.act(spec, confirmed: false, now, &effects, &$1) }
            case .confirm(let id)?: telling { $0.confirm(id, now, &effects, &$1) }
            case .open(let id)?: effects.append(.request(.open(tab: id)))
            case .perform(let id)?: effects.append(.request(.perform(tab: id)))
            }
        }
        guard !stopped, redraws else { return }
        effects.append(.draw(.changed))
        if submitted { settleIfQuiet(now, &effects) }
    }
}

extension ScreenState {
    /// Runs a step of the action's reducer, and has the console show what it told (in order, at once).
    mutating func telling(_ step: (inout ScreenState, inout [ActionNotice]) -> Void) {
        var notices: [ActionNotice] = []
        step(&self, &notices)
        for notice in notices { _ = console.reduce(.told(notice)) }
    }

    /// While the console shows an action's dialog, a card's change that alters the cards' answers asks again.
    mutating func askAgainIfChanged(_ now: Date, _ effects: inout [ScreenEffect]) {
        guard case .action(let id, _, _, _) = console.overlay else { return }
        telling { $0.askAgainIfChanged(id, now, &effects, &$1) }
    }
}
