import Core

/// Order's face to hosts: one registry line, plus a typed input/output interface.
public enum OrderModule {
    /// The line a host adds to its registry.
    public static let registration = ComponentRegistration(
        module: "Order", endpoint: "orders/{order}/details.json"
    ) { OrderComponent() }

    /// Renders the order card for `order` into `slot` and reports what happened.
    public static func render(order: String, into slot: Slot, context: ComponentContext) async -> OrderOutput {
        switch await OrderComponent().render(into: slot, context: context.with("order", order)) {
        case .info(let info): return .shown(info, statusChanged: info.status)
        case .failed(let failure): return .hide(failure)
        case .loading: return .hide(Failure("order did not finish loading"))
        }
    }
}

/// What the order card tells its client.
public enum OrderOutput: Sendable, Equatable {
    /// The card is on screen; the status is also published as an `order.status` event.
    case shown(OrderInfo, statusChanged: OrderStatus)
    /// The card failed and should be hidden.
    case hide(Failure)
}
