import Core
import Faces

/// Payments' face to hosts: one registry line, plus a typed face for clients without a registry.
public enum PaymentsModule {
    /// The line a host adds to its registry.
    public static let registration = ComponentRegistration(
        module: "Payments", endpoint: "orders/{order}/payment.json"
    ) { PaymentComponent() }

    /// The payment card for `order`: render it into a slot and listen for the payment (or why it is hidden).
    public static func face(order: String) -> some ModuleFace<String, PaymentInfo> {
        ComponentFace(input: order, component: { PaymentComponent() }, bind: { $1.with("order", $0) })
    }
}
