import Core

/// The events the Order squad publishes (its `OrderComponent.publishedEvents`), declared in its interface target
/// so other squads name them by importing OrderInterface, never Order.
extension AnyEventName {
    /// The order's status whenever it is known (on the wire its raw value: `"on_the_way"`).
    public static let orderStatus = EventName<OrderStatus>("order.status")
}

/// Where an order is in its life; the order of cases is the timeline. Declared here, with the event that carries
/// it, so a consumer (the rider card) reads it typed without importing Order.
public enum OrderStatus: String, Sendable, Equatable, Comparable, CaseIterable, EventPayload {
    /// The customer placed it.
    case placed
    /// The restaurant accepted it.
    case accepted
    /// The kitchen is cooking.
    case preparing
    /// A rider has it.
    case onTheWay = "on_the_way"
    /// It arrived.
    case delivered

    /// Timeline order.
    public static func < (lhs: OrderStatus, rhs: OrderStatus) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
