import Core
import Foundation
import LocationInterface
import OrderInterface

/// The Order squad's card: restaurant, basket and where the order is; it announces status changes to others,
/// asks to be looked at again until the order is delivered, and says when it is (so hosts stop watching).
public struct OrderComponent: Component, Validatable, EventPublishing, EventConsuming, SelfRefreshing, Finishing {
    /// The id layouts use.
    public static let id: ComponentID = "order"
    /// What Order publishes (declared in OrderInterface: `EventName.orderStatus`).
    public static let publishedEvents: Set<AnyEventName> = [.orderStatus]

    /// Creates the component.
    public init() {}

    /// Fetches `orders/<id>/details.json` (or decodes the inline slice) and applies the order rules.
    public func load(_ context: ComponentContext) async throws -> OrderInfo {
        let data = try await context.payloadOrFetch(try Endpoint("orders", try context.id("order"), "details.json"))
        return try OrderInfo(JSONDecoder().decode(OrderPayload.self, from: data))
    }

    /// Skeleton, the basket and timeline, or nothing.
    public func card(for state: ComponentState<OrderInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Order", lines: 4)
        case .failed: return nil
        case .info(let info):
            var rows = [Row(info.restaurant, style: .bold)]
            rows += info.items.map { Row("\($0.quantity) × \($0.name)", value: $0.price.description) }
            rows.append(Row("Subtotal", value: info.subtotal.description, style: .dim))
            let steps = OrderStatus.allCases.map { $0 <= info.status ? "●" : "○" }.joined(separator: "─")
            rows.append(Row(steps, value: info.status.label, style: info.status == .delivered ? .success : .plain))
            return Block(title: "Order", rows: rows)
        }
    }

    /// The rider's hand-over, by name (Location publishes it; Order never imports Location).
    public static let consumedEvents: Set<AnyEventName> = [.deliveryHandedOver]

    /// The rider app reports the hand-over before the restaurant system does: Order trusts it and shows the order
    /// delivered (and says so again on `order.status`, which is how a rider card that reported it hears it back:
    /// the host refuses that loop and names it).
    public func consume(_ event: DomainEvent, into info: OrderInfo) -> OrderInfo {
        guard event.payload(of: .deliveryHandedOver) == true, info.status < .delivered else { return info }
        var info = info
        info.status = .delivered
        return info
    }

    /// Tells others the status, so the rider and ETA cards can follow it.
    public func events(for info: OrderInfo) -> [DomainEvent] { [DomainEvent(.orderStatus, info.status)] }

    /// Until delivery the status moves on by itself: look again every 5 s.
    public func refreshInterval(for info: OrderInfo) -> Duration? { isFinished(info) ? nil : .seconds(5) }

    /// A delivered order will not change again.
    public func isFinished(_ info: OrderInfo) -> Bool { info.status == .delivered }

    /// Vetoes cancelling once the kitchen has started.
    public func validate(_ action: UserAction, info: OrderInfo) -> Verdict {
        guard action == .cancelOrder, info.status >= .preparing else { return .allow }
        switch info.status {
        case .delivered: return .veto("The order was already delivered.")
        case .onTheWay: return .veto("The order is already on its way, so it can't be cancelled.")
        default: return .veto("\(info.restaurant) is already preparing this order, so it can't be cancelled.")
        }
    }
}
