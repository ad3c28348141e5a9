import Foundation

/// What a squad implements: how to load its info and how to draw each state. The host runs the state machine
/// (ScreenRuntime, on a screen of many cards or of one under test), so loading and drawing stay separate and
/// the drawing is a pure, golden-testable function. Everything else a component can do is opt-in:
/// ``Validatable``, ``EventPublishing``, ``EventConsuming``, ``RefreshingOnEvents``, ``SelfRefreshing``,
/// ``Finishing`` and ``Tracking``.
public protocol Component: Sendable {
    /// The decoded, business-ready data the card shows; `Encodable` so hosts can export it as JSON.
    associatedtype Info: Sendable & Equatable & Encodable

    /// The id layouts and the registry use.
    static var id: ComponentID { get }

    /// Fetches the component's own endpoint (or decodes its payload slice) and applies its business rules.
    func load(_ context: ComponentContext) async throws -> Info

    /// The card for a state: a skeleton, the content, or nil to draw nothing.
    func card(for state: ComponentState<Info>, context: ComponentContext) -> Block?
}

/// Opt-in: a component that can refuse a user action (cancelling an order) with a reason a person understands.
public protocol Validatable: Component {
    /// Whether `action` may go ahead given what the component knows.
    func validate(_ action: UserAction, info: Info) -> Verdict
}

/// Opt-in: a component that announces domain events when its info changes.
public protocol EventPublishing: Component {
    /// Every event this component may publish: its declaration, which consumers name and `squad lint` checks.
    static var publishedEvents: Set<AnyEventName> { get }
    /// The events `info` implies; the host routes each one once per card.
    func events(for info: Info) -> [DomainEvent]
}

/// Opt-in: a component whose info says when it is worth loading again (an ETA while the rider is on the way),
/// so a watching host refreshes each card on its own schedule instead of polling everything.
public protocol SelfRefreshing: Component {
    /// How long until `info` is worth reloading; nil when it will not change by itself.
    func refreshInterval(for info: Info) -> Duration?
}

/// Opt-in: a component that knows when what it follows is finished, so the host can stop watching without
/// reading anybody's info.
public protocol Finishing: Component {
    /// Whether `info` is final (an order delivered or cancelled).
    func isFinished(_ info: Info) -> Bool
}

/// Opt-in: a component that reloads itself when another announces something ("coupon applied" → the payment
/// card refreshes), without either importing the other.
public protocol RefreshingOnEvents: Component {
    /// The events after which this component asks to be reloaded, named through their publisher's declaration.
    static var refreshingEvents: Set<AnyEventName> { get }
}

/// Opt-in: a component whose squad decides what analytics records about its card, as it decides the card itself;
/// hosts only forward the events (order-tracking `--analytics FILE`).
public protocol Tracking: Component {
    /// The events `moment` is worth; empty records nothing.
    func analytics(for moment: Moment<Info>) -> [AnalyticsEvent]
}

/// Opt-in: a component that reacts to other components' events by updating its own info.
public protocol EventConsuming: Component {
    /// The events this component listens to, named through their publisher's declaration.
    static var consumedEvents: Set<AnyEventName> { get }
    /// The info after `event`; return `info` unchanged to ignore it. Must be idempotent and depend only on `event`
    /// and `info`: the screen keeps the latest event of each name and applies it again to every later info (each
    /// reload's), so consuming the same event twice must give what consuming it once gave.
    func consume(_ event: DomainEvent, into info: Info) -> Info
}

/// An action a host asks components about, e.g. "cancel-order".
public struct UserAction: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The action's name.
    public let name: String
    /// Creates an action from its name.
    public init(stringLiteral value: String) { name = value }
    /// The action named `name`, as a screen's definition names it.
    public init(_ name: String) { self.name = name }
    /// The action's name.
    public var description: String { name }

    /// Cancelling an order: the tracking screen's action.
    public static let cancelOrder: UserAction = "cancel-order"
    /// Paying for a cart: the checkout screen's action.
    public static let pay: UserAction = "pay"
}

/// A component's answer to a ``UserAction``.
public enum Verdict: Sendable, Equatable, Codable {
    /// The component has no objection.
    case allow
    /// No objection, with what the confirmation must show: a line for people ("with Visa •••• 4242") and the
    /// facts by name: typed values an action sends (`"method_id": .text("visa4242")`), words it only shows.
    case confirm(String, facts: [String: Fact])
    /// The component refuses, saying why.
    case veto(String)
}

/// One fact of a confirmation. What an action sends is built from typed values only, never from words drawn for
/// people, so a label that changes case or a price written another way can never change what is paid.
public enum Fact: Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Sent as a JSON string: an id, a code, a currency ("visa4242", "SAVE10", "SAR").
    case text(String)
    /// Sent as a JSON number: an amount in minor units (5050).
    case integer(Int)
    /// Shown only ("SAR 50.50", "Visa •••• 4242"): filled into the question, never sent; a plain string literal.
    case words(String)
    /// Sent as a JSON string: an ISO 4217 code, which names the same currency in any letter case ("SAR", "sar").
    case currency(String)
    /// Never sent: an amount every card that gives it must agree on (compared by `minor` units), shown as `shown`.
    /// A cart's items' sum and the price a total bills for them: a bill for other items than the cart's stops it.
    case agreed(minor: Int, shown: String)

    /// Words, for a literal: `["refund": "SAR 50.50"]`.
    public init(stringLiteral value: String) { self = .words(value) }

    /// The fact as a line shows it.
    public var description: String {
        switch self {
        case .text(let text), .words(let text), .currency(let text), .agreed(_, let text): text
        case .integer(let number): String(number)
        }
    }
}
