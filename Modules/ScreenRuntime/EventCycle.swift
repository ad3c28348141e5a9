import Core

/// An event chain that came back to a component already on it; the runtime refuses to deliver it, so a cycle cannot ping-pong forever.
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
