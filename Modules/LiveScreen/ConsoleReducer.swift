import Core
import ScreenRuntime

/// What reaches the live screen's console: a person's key, the host's tab bar answering, the host saying what it
/// drew, or a frame the screen runtime handed out. The console's own reducer (``ScreenConsole/reduce(_:)``) takes
/// these; ``LiveConsole`` carries out what it returns.
public enum ConsoleInput: Sendable, Equatable {
    /// A person's key.
    case key(Key)
    /// The host's tab bar answered (a tab's content, an action tab done, the bar now).
    case answered(ConsoleAnswer)
    /// The host drew revision `revision` (``ScreenConsole/revision``) with `rows` body lines of which `page` fit.
    case drawn(revision: Int, rows: Int, page: Int)
    /// The runtime handed out `frame` at `moment`: what its action's reducer told since the last one is shown, in
    /// order, and a settled screen has looked a prompt's code up.
    case frame(ScreenFrame, FrameMoment)
}

/// What one ``ConsoleInput`` did to the console: what the screen or the host must do for it, and whether the
/// screen is drawn again.
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
    /// what must be done about it. It knows no card and runs nothing; of the runtime it reads only the frames it is
    /// handed (what the action's reducer told, whether the action's line stays after a key).
    public mutating func reduce(_ input: ConsoleInput) -> ConsoleStep {
        switch input {
        case .key(let key):
            let said = message
            let step = ConsoleStep(handle(key))
            // "Pay: sending…", "Paid …" or "… may have gone through: check before paying again" stays through the
            // keys that follow, until another action replaces it: a person who scrolled must still see it before
            // pressing P again.
            if message == nil, keepsLine { message = said }
            return step
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
        case .frame(let frame, let moment):
            // The runtime has answered what was asked (or something else happened first): no longer asking.
            if case .asking = overlay { overlay = .none }
            // A frame carries only what was told since the last one, so each notice is shown once.
            for notice in frame.told {
                switch notice {
                case .dialog(let id, _, _, _, _) where id == closedUnseen: closedUnseen = nil
                case .dialog(let id, let title, let lines, let question, let check):
                    showAction(id: id, title: title, lines: lines, question: question, check: check)
                case .line(let line): message = line
                }
            }
            keepsLine = frame.action?.keepsItsLine == true
            // A prompt's code has been looked up: "Looking up …" goes.
            if moment == .settled, lookingUp { (message, lookingUp) = (nil, false) }
            return ConsoleStep()
        }
    }

    /// One read of the terminal, each key reduced in order: what it asks, with a burst's `r`s one reload and a `q`
    /// ending it at once (a paste is one burst: 10,000 pasted `r` are one reload).
    public mutating func take(_ keys: [Key]) -> [Action] {
        var actions: [Action] = []
        for key in keys where actions.last != .quit {
            guard let action = reduce(.key(key)).action, action != .reload || !actions.contains(.reload) else {
                continue
            }
            actions.append(action)
        }
        return actions
    }
}
