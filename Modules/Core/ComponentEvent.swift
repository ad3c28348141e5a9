import Foundation

/// A fact one component announces and others may react to (`order.status` = `"delivered"`). On the wire it is
/// a name and a JSON payload, so publisher and consumer never import each other and a trace can show it; each
/// end reads and writes it typed, through the publisher's ``EventName``.
public struct DomainEvent: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The event's name, namespaced by its publisher: "order.status".
    public let name: String
    /// The payload as JSON text: `"delivered"`, `true`, `{"code":"SAVE10",…}`.
    public let payload: String

    /// An event from its wire form (a name and JSON text), as a fixture or a test writes it.
    public init(_ name: String, json: String) { (self.name, self.payload) = (name, json) }

    /// An event a person typed (`--event NAME=VALUE`, a screen's prompt): the text travels as a JSON string and
    /// the consumer's declaration reads it (``EventPayload/init(text:)``), since only it knows the type.
    public init(_ name: String, text: String) { self.init(name, json: DomainEvent.json(text)) }

    /// The event `name` with `payload`, as its publisher announces it: `DomainEvent(.orderStatus, .delivered)`.
    public init<Payload>(_ name: EventName<Payload>, _ payload: Payload) {
        self.init(name.rawValue, json: DomainEvent.json(payload))
    }

    /// The payload typed as `name` declares it, or nil when this is another event or its payload does not read
    /// as that type (a bad payload is no event, never a crash). A person's text is read by the type's
    /// ``EventPayload/init(text:)``.
    public func payload<Payload>(of name: EventName<Payload>) -> Payload? {
        guard self.name == name.rawValue else { return nil }
        let data = Data(payload.utf8)
        if let value = try? JSONDecoder().decode(Payload.self, from: data) { return value }
        return (try? JSONDecoder().decode(String.self, from: data)).flatMap { Payload(text: $0) }
    }

    /// "name=payload", for traces: a string payload shows as its text, as a person typed it; any other as JSON.
    public var description: String {
        let text = try? JSONDecoder().decode(String.self, from: Data(payload.utf8))
        return "\(name)=\(text ?? payload)"
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

/// What an event may carry: a value both ends agree on through the publisher's declaration, on the wire as
/// JSON, and readable from a person's text (`preview --event order.status=delivered`).
public protocol EventPayload: Codable, Sendable, Equatable {
    /// The payload a person's text means, or nil when it means none. By default the text is read as JSON;
    /// strings, Booleans and string-backed enums read their plain text.
    init?(text: String)
}

extension EventPayload {
    /// Reads `text` as this payload's JSON.
    public init?(text: String) {
        guard let value = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = value
    }
}

extension EventPayload where Self: RawRepresentable, RawValue == String {
    /// Reads `text` as the raw value ("delivered").
    public init?(text: String) { self.init(rawValue: text) }
}

extension String: EventPayload {
    /// Any text is itself.
    public init?(text: String) { self = text }
}

extension Bool: EventPayload {
    /// "true" or "false".
    public init?(text: String) { self.init(text) }
}

/// A domain event's name without its payload type, so a component lists every event it publishes, consumes or
/// refreshes on in one set (`[.orderStatus, .promoApplied]`); the declarations themselves are ``EventName``s.
/// A class so that each declaration, typed, is also one of these. Immutable, hence Sendable.
public class AnyEventName: Hashable, CustomStringConvertible, @unchecked Sendable {
    /// The name on the wire: "order.status".
    public let rawValue: String
    /// The module whose file declares it ("OrderInterface"): a squad publishes only what its own interface declares.
    public let module: String

    fileprivate init(rawValue: String, module: String) { (self.rawValue, self.module) = (rawValue, module) }

    /// Names are equal when their wire names are.
    public static func == (one: AnyEventName, other: AnyEventName) -> Bool { one.rawValue == other.rawValue }
    /// Hashes the wire name.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    /// The wire name.
    public var description: String { rawValue }
}

/// A domain event's name with the type of what it carries, declared once by its publisher beside the faces
/// (`extension AnyEventName { public static let orderStatus = EventName<OrderStatus>("order.status") }`), so
/// a consumer reads the payload typed (`event.payload(of: .orderStatus)`) and `squad lint` can tell a typo from
/// an event nobody publishes.
public final class EventName<Payload: EventPayload>: AnyEventName, @unchecked Sendable {
    /// A name on the wire; publishers declare theirs as constants (`fileID` names the declaring module).
    public init(_ rawValue: String, fileID: String = #fileID) {
        super.init(rawValue: rawValue, module: String(fileID.prefix { $0 != "/" }))
    }
    /// This event with `payload`: `AnyEventName.orderStatus(.delivered)`.
    public func callAsFunction(_ payload: Payload) -> DomainEvent { DomainEvent(self, payload) }
}

/// One analytics event, named by the squad that owns the card ("payment_card_shown", with its properties).
public struct AnalyticsEvent: Sendable, Equatable, Codable {
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
public enum Presentation: Sendable, Hashable, Codable {
    /// One card among others on a screen.
    case embedded
    /// Alone, as in `preview`, where there is room for detail.
    case alone
    /// Inside the tab with this id.
    case tab(String)
}
