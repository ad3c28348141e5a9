import Core

/// Order's face to hosts: its registry lines (the order card, and the cart card of a checkout).
public enum OrderModule {
    /// The line a host adds to its registry.
    public static let registration = ComponentRegistration(
        module: "Order", endpoint: "orders/{order}/details.json"
    ) { OrderComponent() }

    /// The cart card of a checkout.
    public static let cart = ComponentRegistration(module: "Order", endpoint: "carts/{cart}/cart.json") {
        CartComponent()
    }
}
