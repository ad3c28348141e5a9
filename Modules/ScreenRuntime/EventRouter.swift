import Core

/// An event chain that came back to a component already on it; the router refuses to deliver it.
public struct EventCycle: Error, Equatable, Sendable, CustomStringConvertible {
    /// The chain up to and including the component it would have revisited, e.g. [order, delivery, order], or
    /// [a, b, c, b] when the loop starts later in the chain.
    public let loop: [ComponentID]
    /// The event that would have closed the loop.
    public let event: DomainEvent

    /// "event cycle refused: order → delivery → order (order.status=delivered)".
    public var description: String {
        "event cycle refused: \(loop.map(\.rawValue).joined(separator: " → ")) (\(event))"
    }
}

/// One delivery the router made, for traces.
public struct EventHop: Equatable, Sendable {
    /// Who published the event.
    public let from: ComponentID
    /// Who received it.
    public let to: ComponentID
    /// The event.
    public let event: DomainEvent
}

/// Routes domain events from publishers to consumers, following chains (a consumer's reaction may publish
/// more) and refusing any chain that revisits a component, so a cycle cannot ping-pong forever.
public struct EventRouter: Sendable {
    private let consumers: [(id: ComponentID, events: Set<String>)]

    /// Creates a router for consumers in screen order.
    public init(consumers: [(id: ComponentID, events: Set<String>)]) { self.consumers = consumers }

    /// Delivers `event` from `source` and everything it causes; `deliver` returns what a consumer publishes
    /// in reaction. Returns the hops made and the cycles refused.
    public func route(
        _ event: DomainEvent, from source: ComponentID,
        deliver: (ComponentID, DomainEvent) async -> [DomainEvent]
    ) async -> (hops: [EventHop], cycles: [EventCycle]) {
        var hops: [EventHop] = []
        var cycles: [EventCycle] = []
        var queue: [(event: DomainEvent, path: [ComponentID])] = [(event, [source])]
        while !queue.isEmpty {
            let (event, path) = queue.removeFirst()
            for consumer in consumers where consumer.events.contains(event.name) && consumer.id != path.last {
                if path.contains(consumer.id) {
                    cycles.append(EventCycle(loop: path + [consumer.id], event: event))
                    continue
                }
                hops.append(EventHop(from: path.last!, to: consumer.id, event: event))
                for next in await deliver(consumer.id, event) { queue.append((next, path + [consumer.id])) }
            }
        }
        return (hops, cycles)
    }
}
