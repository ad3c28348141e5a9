import Foundation

/// A fact one component announces and others may react to ("order.status" = "delivered").
/// Kept as plain strings so publisher and consumer never import each other.
public struct DomainEvent: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The event's name, namespaced by its publisher: "order.status".
    public let name: String
    /// The event's value: "delivered".
    public let value: String

    /// Creates an event.
    public init(_ name: String, _ value: String) { (self.name, self.value) = (name, value) }

    /// "name=value", for traces.
    public var description: String { "\(name)=\(value)" }
}

/// A domain event's name, declared once where its publisher says what it publishes (`EventName.orderStatus`,
/// beside the module faces), so a consumer names it through that declaration and `squad lint` can tell a typo
/// from an event nobody publishes.
public struct EventName: Hashable, Sendable, ExpressibleByStringLiteral {
    /// The name on the wire: "order.status".
    public let rawValue: String
    /// A name from its literal; publishers declare theirs as constants.
    public init(stringLiteral rawValue: String) { self.rawValue = rawValue }
    /// This event with `value`: `.orderStatus("delivered")`.
    public func callAsFunction(_ value: String) -> DomainEvent { DomainEvent(rawValue, value) }
}

/// One analytics event, named by the squad that owns the card ("payment_card_shown", with its properties).
public struct AnalyticsEvent: Sendable, Equatable {
    /// The squad's own event name.
    public let name: String
    /// What the squad wants recorded with it.
    public let properties: [String: String]

    /// Creates an event.
    public init(_ name: String, _ properties: [String: String] = [:]) {
        (self.name, self.properties) = (name, properties)
    }
}

/// A moment in a card's life that its squad may want recorded.
public enum Moment<Info: Sendable & Equatable>: Sendable {
    /// The card is shown with this info (after each load that brought info).
    case shown(Info)
    /// The card was hidden, for this reason.
    case hidden(Failure)
    /// The host keeps the card's last info on screen, marked out of date since `since`, because refreshing it
    /// cannot reach the backend.
    case stale(since: Date)
    /// The component answered a user action (a veto, an approval, a confirmation).
    case verdict(UserAction, Verdict)
}

/// Where a component is shown; it may draw differently but never learns who else is on screen.
public enum Presentation: Sendable, Hashable {
    /// One card among others on a screen.
    case embedded
    /// Alone, as in `preview`, where there is room for detail.
    case alone
    /// Inside the tab with this id.
    case tab(String)
}
