import Core

/// The events the Location squad publishes (its `DeliveryComponent.publishedEvents`), declared here beside the
/// faces so other squads name them without importing Location. Owned by @courier/location (CODEOWNERS).
extension AnyEventName {
    /// The rider handed the order over (`true`); the rider app says so before the restaurant system does.
    public static let deliveryHandedOver = EventName<Bool>("delivery.handed_over")
}
