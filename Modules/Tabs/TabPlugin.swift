import Core
import Foundation

/// What a tab may look at to decide whether it applies: who is signed in.
public struct TabSession: Sendable, Equatable {
    /// The signed-in user's id, nil when nobody is.
    public let userID: String?

    /// Creates a session.
    public init(userID: String?) { self.userID = userID }
}

/// Key/value parameters a tab publishes for the bar (``badge``: "3" new items); the bar observes them and
/// re-renders on every real change. A tab that publishes none keeps the default: empty, never changing.
public final class TabParams: Sendable {
    /// The key the bar draws beside the title, e.g. "Feed (3)".
    public static let badge = "badge"

    private struct State {
        var values: [String: String]
        var observers: [(token: Int, call: @Sendable ([String: String]) -> Void)] = []
        var next = 0
    }
    private let state: Locked<State>

    /// Parameters starting at `values`.
    public init(_ values: [String: String] = [:]) { state = Locked(State(values: values)) }

    /// Every parameter now.
    public var values: [String: String] { state.withLock { $0.values } }

    /// Sets `key` (nil removes it); observers hear about real changes only.
    public func set(_ key: String, _ value: String?) {
        let (values, observers) = state.withLock {
            state -> ([String: String], [@Sendable ([String: String]) -> Void]) in
            guard state.values[key] != value else { return ([:], []) }
            state.values[key] = value
            return (state.values, state.observers.map(\.call))
        }
        for observer in observers { observer(values) }
    }

    /// Calls `observer` on every change until the returned token is passed to ``stopObserving(_:)``.
    public func observe(_ observer: @escaping @Sendable ([String: String]) -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.observers.append((state.next, observer))
            return state.next
        }
    }

    /// Stops an observation.
    public func stopObserving(_ token: Int) { state.withLock { $0.observers.removeAll { $0.token == token } } }
}

/// What selecting a tab does.
public enum TabOpening: Sendable, Equatable {
    /// The tab shows a screen of these lines.
    case screen([String])
    /// The tab performed an action instead (signing out) and says what happened.
    case performed(String)
    /// The action could not be performed, and why (with what to do next).
    case failed(String)
}

/// A tab a module offers; the Tabs module only draws the bar and never knows which tabs exist.
public protocol TabPlugin: Sendable {
    /// Stable id ("profile").
    var id: String { get }
    /// The label on the bar.
    var title: String { get }
    /// Position: lower first.
    var order: Int { get }
    /// What the bar shows beside the title and observes; default: none.
    var params: TabParams { get }
    /// Whether the tab is on the bar for this session: a pure, fast question about the session (no network, no
    /// side effects), asked again whenever the session changes.
    func isApplicable(_ session: TabSession) -> Bool
    /// Loads what the tab's content needs for `session` (and so its params: the Feed's items and badge); the
    /// bar calls it for every applicable tab when the session changes. Default: nothing to load.
    func load(_ session: TabSession) async
    /// Selecting the tab: its screen, or an action it performs.
    func open(_ session: TabSession) async -> TabOpening
    /// For a tab that acts when opened (Sign out): the question a live screen asks first ("Sign out?"). Default:
    /// nil, a tab that only shows a screen.
    var confirmation: String? { get }
}

extension TabPlugin {
    /// No params: a fresh, empty set that never changes.
    public var params: TabParams { TabParams() }

    /// Nothing to load.
    public func load(_ session: TabSession) async {}

    /// A screen tab: nothing to confirm.
    public var confirmation: String? { nil }
}
