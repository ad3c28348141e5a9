import Core

/// The events the Location squad publishes (its `DeliveryComponent.publishedEvents`), declared in its interface
/// target so other squads name them by importing LocationInterface, never Location.
extension AnyEventName {
    /// The rider handed the order over (`true`); the rider app says so before the restaurant system does.
    public static let deliveryHandedOver = EventName<Bool>("delivery.handed_over")
}
