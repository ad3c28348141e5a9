import Core

/// The events the Order squad publishes (its `OrderComponent.publishedEvents`), declared here beside the faces
/// so other squads name them without importing Order. Owned by @courier/order (CODEOWNERS).
extension EventName {
    /// The order's status whenever it is known; the value is the raw status: "preparing", "on_the_way",
    /// "delivered".
    public static let orderStatus: EventName = "order.status"
}
