/// The three phases a loadable component can be in: what a squad draws for (``Component/card(for:context:)``). The
/// host runs the machine (ScreenRuntime's reducer and its transition table); components only describe each state.
public enum ComponentState<Info: Sendable & Equatable>: Sendable, Equatable {
    /// The skeleton is on screen and a load is under way.
    case loading
    /// Data arrived and was decoded.
    case info(Info)
    /// The load failed; by default the host hides the card.
    case failed(Failure)

    /// The state's phase, for frames, traces and logs.
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

/// A state without its payload: what a frame reports and the runtime's transition table is keyed by.
public enum Phase: String, Sendable, Hashable, CaseIterable, Codable {
    /// See ``ComponentState/loading``, ``ComponentState/info(_:)`` and ``ComponentState/failed(_:)``.
    case loading, info, failed
}
