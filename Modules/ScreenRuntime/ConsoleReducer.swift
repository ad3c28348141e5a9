import Core
import Foundation

/// What reaches the live screen's console from outside the cards: a person's key, the host's answer to a
/// ``ConsoleRequest``, or the host saying what it drew. The console's own reducer (``ScreenConsole/reduce(_:)``)
/// takes these; the screen's reducer only carries out what it returns.
public enum ConsoleInput: Sendable, Equatable {
    /// A person's key.
    case key(Key)
    /// The host's answer to a ``ConsoleRequest``.
    case answered(ConsoleAnswer)
    /// The host drew revision `revision` (``ScreenConsole/revision``) with `rows` body lines of which `page` fit.
    case drawn(revision: Int, rows: Int, page: Int)
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
                (inputPending, followUp, submitted) = (true, !config.watch, true)
                route(event, path: ["input"], now, &effects)
            case .act(let id)?:
                // The console offers the screen's own actions only.
                if let spec = action.spec(id) { act(spec, confirmed: false, now, &effects) }
            case .confirm(let id)?: confirm(id, now, &effects)
            case .open(let id)?: effects.append(.request(.open(tab: id)))
            case .perform(let id)?: effects.append(.request(.perform(tab: id)))
            }
        }
        guard !stopped, redraws else { return }
        effects.append(.draw(.changed))
        if submitted { settleIfQuiet(now, &effects) }
    }
}
