import Core

/// Payments' face to hosts: its registry lines.
public enum PaymentsModule {
    /// The payment card of an order.
    public static let registration = ComponentRegistration(
        module: "Payments", endpoint: "orders/{order}/payment.json"
    ) { PaymentComponent() }

    /// How a checkout is paid: the saved methods, one chosen.
    public static let methods = ComponentRegistration(module: "Payments", endpoint: "carts/{cart}/methods.json") {
        PaymentMethodComponent()
    }

    /// What a checkout costs, recalculated when a coupon is applied; it vouches for the amount paid, so Payments
    /// answers the checkout's payment (`carts/<id>/_pay.post.json`) in its demo data.
    public static let total = ComponentRegistration(
        module: "Payments", endpoint: "carts/{cart}/price.json", sends: ["carts/{cart}/pay"]
    ) { TotalComponent() }
}
