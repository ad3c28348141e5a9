import Core

/// Location's face to hosts: two registry lines, one per card.
public enum LocationModule {
    /// The rider card's registry line.
    public static let delivery = ComponentRegistration(
        module: "Location", endpoint: "orders/{order}/delivery.json"
    ) { DeliveryComponent() }

    /// The arrival card's registry line.
    public static let eta = ComponentRegistration(module: "Location", endpoint: "orders/{order}/eta.json") {
        ETAComponent()
    }
}
