/// Why a component failed, in words a person can act on; the host shows or logs it.
public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The human-readable reason, e.g. "payment.json: missing key 'logo'".
    public let reason: String
    /// Whether the way to the data failed (connection refused or reset, timeout, HTTP 5xx) rather than the
    /// data itself: a host may keep the last info on screen, marked stale, while it is so.
    public let transient: Bool

    /// Creates a failure from a reason.
    public init(_ reason: String, transient: Bool = false) { (self.reason, self.transient) = (reason, transient) }

    /// The reason.
    public var description: String { reason }

    /// Two failures are the same when they say the same: `transient` follows from the cause, not the words.
    public static func == (one: Failure, other: Failure) -> Bool { one.reason == other.reason }
}

/// The three phases a loadable component can be in; the container owns the machine, components only describe it.
public enum ComponentState<Info: Sendable & Equatable>: Sendable, Equatable {
    /// The skeleton is on screen and a load is under way.
    case loading
    /// Data arrived and was decoded.
    case info(Info)
    /// The load failed; by default the host hides the card.
    case failed(Failure)

    /// The state's phase, for the transition table and for logs.
    public var phase: Phase {
        switch self {
        case .loading: .loading
        case .info: .info
        case .failed: .failed
        }
    }

    /// The decoded info, when there is some.
    public var info: Info? {
        if case .info(let info) = self { return info }
        return nil
    }
}

/// A state without its payload: what the transition table is keyed by.
public enum Phase: String, Sendable, Hashable, CaseIterable, Codable {
    /// See ``ComponentState/loading``, ``ComponentState/info(_:)`` and ``ComponentState/failed(_:)``.
    case loading, info, failed
}

/// What can happen to a component; each is legal only in some phases.
public enum Transition: String, Sendable, Hashable, CaseIterable {
    /// `receive`: info arrived (first time, or an update in place); `fail`: the load failed or was rejected;
    /// `refresh`: the host asked for fresh data while info is shown; `retry`: again after a failure.
    case receive, fail, refresh, retry
}

/// A transition the table does not allow; reported, never applied.
public struct IllegalTransition: Error, Equatable, Sendable, CustomStringConvertible {
    /// The phase the component was in.
    public let from: Phase
    /// The transition that was attempted.
    public let transition: Transition

    /// Records an attempted transition.
    public init(from: Phase, transition: Transition) { (self.from, self.transition) = (from, transition) }

    /// Names the phase and the transition so the bug can be found.
    public var description: String { "illegal transition '\(transition.rawValue)' from '\(from.rawValue)'" }
}

/// ARCHITECTURE.md §4 as data: the single source of truth for which transitions are legal.
public enum StateMachine {
    /// (phase, transition) → next phase, one row per legal transition. Anything missing is illegal. Rows rather
    /// than a dictionary: six entries, and no hashing machinery to set up at start-up.
    public static let table: [(from: Phase, on: Transition, to: Phase)] = [
        (.loading, .receive, .info), (.loading, .fail, .failed),
        (.info, .receive, .info), (.info, .refresh, .loading), (.info, .fail, .failed),
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
