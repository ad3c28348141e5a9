import Core

/// Payments' face to hosts: one registry line, plus a typed input/output interface for clients without a registry.
public enum PaymentsModule {
    /// The line a host adds to its registry.
    public static let registration = ComponentRegistration(
        module: "Payments", endpoint: "orders/{order}/payment.json"
    ) { PaymentComponent() }

    /// Renders the payment card for `order` into `slot` and reports what happened.
    public static func render(order: String, into slot: Slot, context: ComponentContext) async -> PaymentOutput {
        switch await PaymentComponent().render(into: slot, context: context.with("order", order)) {
        case .info(let info): return .shown(info)
        case .failed(let failure): return .hide(failure)
        case .loading: return .hide(Failure("payment did not finish loading"))
        }
    }
}

/// What the payment card tells its client.
public enum PaymentOutput: Sendable, Equatable {
    /// The card is on screen with this payment.
    case shown(PaymentInfo)
    /// The card failed and should be hidden, for this reason.
    case hide(Failure)
}
