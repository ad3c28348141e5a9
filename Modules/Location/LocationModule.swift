import Core

/// Location's face to hosts: two registry lines, plus typed input/output interfaces.
public enum LocationModule {
    /// The rider card's registry line.
    public static let delivery = ComponentRegistration(
        module: "Location", endpoint: "orders/{order}/delivery.json"
    ) { DeliveryComponent() }

    /// The arrival card's registry line.
    public static let eta = ComponentRegistration(module: "Location", endpoint: "orders/{order}/eta.json") {
        ETAComponent()
    }

    /// Renders the rider card for `order` into `slot` and reports what happened.
    public static func renderDelivery(order: String, into slot: Slot, context: ComponentContext) async
        -> LocationOutput<DeliveryInfo>
    {
        LocationOutput(await DeliveryComponent().render(into: slot, context: context.with("order", order)))
    }

    /// Renders the arrival card for `order` into `slot` and reports what happened.
    public static func renderETA(order: String, into slot: Slot, context: ComponentContext) async -> LocationOutput<
        ETAInfo
    > {
        LocationOutput(await ETAComponent().render(into: slot, context: context.with("order", order)))
    }
}

/// What a Location card tells its client.
public enum LocationOutput<Info: Sendable & Equatable>: Sendable, Equatable {
    /// The card is on screen with this info.
    case shown(Info)
    /// The card failed and should be hidden.
    case hide(Failure)

    init(_ state: ComponentState<Info>) {
        switch state {
        case .info(let info): self = .shown(info)
        case .failed(let failure): self = .hide(failure)
        case .loading: self = .hide(Failure("did not finish loading"))
        }
    }
}
