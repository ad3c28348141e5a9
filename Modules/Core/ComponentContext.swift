import Foundation

/// What a host hands a component: which subject to show, where to fetch, what time it is and how it is shown.
public struct ComponentContext: Sendable {
    /// Subject ids by kind, e.g. ["order": "1234"]; already validated by the host.
    public var ids: [String: String]
    /// Where to fetch the component's own endpoint.
    public var backend: any Backend
    /// The clock for deadlines and relative times.
    public var clock: any CourierClock
    /// How the component is being shown.
    public var presentation: Presentation
    /// How long one load may take before the component fails with a timeout.
    public var timeout: Duration
    /// A raw payload slice from the screen layout; when present the component decodes it instead of fetching.
    public var payload: Data?
    /// The latest event of each name the screen routed to this card (what a person typed into a prompt or gave
    /// with `--input`, another card's announcement), kept in the screen's state and handed in on every load.
    public var received: [DomainEvent]

    /// Creates a context. The clock has no default: a library that read the wall clock on its own would make
    /// every deadline and "minutes ago" untestable, so the host (or a test's virtual clock) always hands it in.
    public init(
        ids: [String: String] = [:], backend: any Backend, clock: any CourierClock,
        presentation: Presentation = .embedded, timeout: Duration = .seconds(5), payload: Data? = nil,
        received: [DomainEvent] = []
    ) {
        (self.ids, self.backend, self.clock) = (ids, backend, clock)
        (self.presentation, self.timeout, self.payload, self.received) = (presentation, timeout, payload, received)
    }

    /// The latest `name` routed to this card, typed (`context.latest(.promoEntered)`), or nil when none came or
    /// its payload does not read as `Payload`: how a card reads the input it takes.
    public func latest<Payload>(_ name: EventName<Payload>) -> Payload? {
        received.last { $0.name == name.rawValue }.flatMap { $0.payload(of: name) }
    }

    /// The id of `kind`, or a failure that says which id the host forgot to pass.
    public func id(_ kind: String) throws -> String {
        guard let value = ids[kind] else { throw Failure("no \(kind) id was given to this component") }
        return value
    }

    /// A copy of this context for another subject: `context.with("order", "1234")`.
    public func with(_ kind: String, _ id: String) -> ComponentContext {
        var context = self
        context.ids[kind] = id
        return context
    }

    /// The inline payload if the layout carried one, else the endpoint's body: the usual first line of `load`.
    public func payloadOrFetch(_ endpoint: Endpoint) async throws -> Data {
        if let payload { return payload }
        return try await backend.fetch(endpoint)
    }
}
