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

/// The output interface of every component: what it tells the host. The host decides what each means.
public enum ComponentEvent: Sendable, Equatable {
    /// The card should go away, with the reason (the default failure policy).
    case hide(Failure)
    /// A hidden card has info again and should come back.
    case show
    /// The component asks to be loaded again after this long (`.zero`: now); a watching host obliges.
    case refresh(after: Duration)
    /// What the component follows is finished (the order was delivered): nothing on screen will change again.
    case finished
    /// A domain event for other components, routed by the host.
    case domain(DomainEvent)
    /// An analytics event the component's squad named (``Tracking``); the host only forwards it.
    case analytics(AnalyticsEvent)
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
