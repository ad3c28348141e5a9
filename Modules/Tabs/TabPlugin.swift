import Core
import Foundation

/// What a tab may look at to decide whether it applies: who is signed in.
public struct TabSession: Sendable, Equatable {
    /// The signed-in user's id, nil when nobody is.
    public let userID: String?

    /// Creates a session.
    public init(userID: String?) { self.userID = userID }
}

/// A badge that changes over time ("3" new items); the bar observes every tab's badge and re-renders.
public final class TabBadge: Sendable {
    // Observers in registration order (a handful at most), each with its token.
    private let state = Locked<
        (value: String?, observers: [(token: Int, call: @Sendable (String?) -> Void)], next: Int)
    >(
        (nil, [], 0))

    /// A badge with no value.
    public init() {}

    /// The current value.
    public var value: String? { state.withLock { $0.value } }

    /// Sets the value; observers hear about real changes only.
    public func set(_ value: String?) {
        let observers = state.withLock { state -> [@Sendable (String?) -> Void] in
            guard state.value != value else { return [] }
            state.value = value
            return state.observers.map(\.call)
        }
        for observer in observers { observer(value) }
    }

    /// Calls `observer` on every change until the returned token is passed to ``stopObserving(_:)``.
    public func observe(_ observer: @escaping @Sendable (String?) -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.observers.append((state.next, observer))
            return state.next
        }
    }

    /// Stops an observation.
    public func stopObserving(_ token: Int) { state.withLock { $0.observers.removeAll { $0.token == token } } }
}

/// A tab a module offers; the Tabs module only draws the bar and never knows which tabs exist.
public protocol TabPlugin: Sendable {
    /// Stable id ("profile").
    var id: String { get }
    /// The label on the bar.
    var title: String { get }
    /// Position: lower first.
    var order: Int { get }
    /// An optional badge that can change over time.
    var badge: TabBadge? { get }
    /// Whether the tab should be on the bar for this session (e.g. Profile only when a user is stored).
    func isApplicable(_ session: TabSession) async -> Bool
    /// The lines of the screen the tab opens.
    func screen(_ session: TabSession) async -> [String]
}
