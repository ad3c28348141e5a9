import Core
import Faces

/// Location's face to hosts: two registry lines, plus a typed face per card for clients without a registry.
public enum LocationModule {
    /// The rider card's registry line.
    public static let delivery = ComponentRegistration(
        module: "Location", endpoint: "orders/{order}/delivery.json"
    ) { DeliveryComponent() }

    /// The arrival card's registry line.
    public static let eta = ComponentRegistration(module: "Location", endpoint: "orders/{order}/eta.json") {
        ETAComponent()
    }

    /// The rider card for `order`: render it into a slot and listen for where the rider is.
    public static func deliveryFace(order: String) -> some ModuleFace<String, DeliveryInfo> {
        ComponentFace(input: order, component: { DeliveryComponent() }, bind: { $1.with("order", $0) })
    }

    /// The arrival card for `order`: render it into a slot and listen for the arrival time.
    public static func etaFace(order: String) -> some ModuleFace<String, ETAInfo> {
        ComponentFace(input: order, component: { ETAComponent() }, bind: { $1.with("order", $0) })
    }
}
