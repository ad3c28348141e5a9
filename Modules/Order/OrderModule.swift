import Core
import Faces

/// Order's face to hosts: one registry line, plus a typed face for clients without a registry.
public enum OrderModule {
    /// The line a host adds to its registry.
    public static let registration = ComponentRegistration(
        module: "Order", endpoint: "orders/{order}/details.json"
    ) { OrderComponent() }

    /// The cart card of a checkout.
    public static let cart = ComponentRegistration(module: "Order", endpoint: "carts/{cart}/cart.json") {
        CartComponent()
    }

    /// The order card for `order`: render it into a slot and listen for the order (its status included).
    public static func face(order: String) -> some ModuleFace<String, OrderInfo> {
        ComponentFace(input: order, component: { OrderComponent() }, bind: { $1.with("order", $0) })
    }
}
