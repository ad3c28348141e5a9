import Core

/// What can happen to a card's state machine; each is legal only in some phases.
public enum Transition: String, Sendable, Hashable, CaseIterable {
    /// `receive`: info arrived (a load's answer, or a consumed event's update in place); `fail`: the load failed
    /// or was rejected; `refresh`: a load starts while info is shown; `retry`: a load starts again after a failure;
    /// `restart`: a person's reload drops the load under way for a new one.
    case receive, fail, refresh, retry, restart
}

/// A transition the table does not allow: reported as a diagnostic, never applied.
public struct IllegalTransition: Error, Equatable, Sendable, CustomStringConvertible {
    /// The phase the card was in.
    public let from: Phase
    /// The transition that was attempted.
    public let transition: Transition

    /// Records an attempted transition.
    public init(from: Phase, transition: Transition) { (self.from, self.transition) = (from, transition) }

    /// Names the phase and the transition so the bug can be found.
    public var description: String { "illegal transition '\(transition.rawValue)' from '\(from.rawValue)'" }
}

/// ARCHITECTURE.md §4 as data: the one truth for which transitions are legal. ``ScreenState/reduce(_:at:)`` asks
/// it before every move of a card's phase, so the diagram, this table and what production does cannot drift.
public enum StateMachine {
    /// (phase, transition) → next phase, one row per legal transition. Anything missing is illegal. A failure
    /// only ever answers a load, and a card whose load is under way is `loading` whatever it shows, so there is no
    /// row from `info` to `failed`: a refresh that fails goes `info → loading → failed`. Rows rather than a
    /// dictionary: a handful of entries, and no hashing machinery to set up at start-up.
    public static let table: [(from: Phase, on: Transition, to: Phase)] = [
        (.loading, .receive, .info), (.loading, .fail, .failed), (.loading, .restart, .loading),
        (.info, .receive, .info), (.info, .refresh, .loading),
        (.failed, .retry, .loading),
    ]

    /// The phase after `transition`, or the reason it is illegal.
    public static func next(after phase: Phase, on transition: Transition) -> Result<Phase, IllegalTransition> {
        guard let row = table.first(where: { $0.from == phase && $0.on == transition }) else {
            return .failure(IllegalTransition(from: phase, transition: transition))
        }
        return .success(row.to)
    }
}
