import Core
import Foundation
import LocationInterface
import OrderInterface

/// What the rider card shows.
public struct DeliveryInfo: Sendable, Equatable, Encodable {
    /// The rider's first name.
    public let rider: String
    /// "motorbike", "car", "bicycle".
    public let vehicle: String
    /// "1.3 km".
    public let distance: String
    /// The drop-off address.
    public let address: String
    /// "40 s ago".
    public let lastUpdate: String
    /// True once the rider handed the parcel over or Order says the order was delivered: tracking stops.
    public var delivered: Bool
    /// The rider app reported the hand-over (announced to others as `delivery.handed_over`).
    public let handedOver: Bool
}

/// The Location squad's rider card; it follows `order.status`, asks to be reloaded while the rider moves, and
/// stops tracking once delivered.
public struct DeliveryComponent: Component, EventConsuming, EventPublishing, SelfRefreshing {
    /// The id layouts use.
    public static let id: ComponentID = "delivery"
    /// Listens to Order's status without importing Order.
    public static let consumedEvents: Set<AnyEventName> = [.orderStatus]
    /// What the rider card publishes (declared in LocationInterface: `EventName.deliveryHandedOver`).
    public static let publishedEvents: Set<AnyEventName> = [.deliveryHandedOver]

    /// Creates the component.
    public init() {}

    /// Fetches `orders/<id>/delivery.json` and formats distance and location age.
    public func load(_ context: ComponentContext) async throws -> DeliveryInfo {
        let data = try await context.payloadOrFetch(try Endpoint("orders", try context.id("order"), "delivery.json"))
        let payload = try JSONDecoder().decode(DeliveryPayload.self, from: data)
        guard payload.distance_m >= 0, payload.location_age_s >= 0 else {
            throw Failure("delivery distance and location age must not be negative")
        }
        // Once round the Earth bounds any real distance, and keeps the formatting's arithmetic in range.
        guard payload.distance_m <= 40_075_000 else { throw Failure("delivery distance out of range") }
        guard [nil, "metric", "imperial"].contains(payload.units) else {
            throw Failure("unknown units '\(payload.units ?? "")'; expected metric or imperial")
        }
        return DeliveryInfo(
            rider: payload.rider.name, vehicle: payload.rider.vehicle,
            distance: LocationFormat.distance(meters: payload.distance_m, imperial: payload.units == "imperial"),
            address: payload.address, lastUpdate: LocationFormat.age(seconds: payload.location_age_s),
            delivered: payload.handed_over == true, handedOver: payload.handed_over == true)
    }

    /// Marks the delivery done when Order reports `delivered`.
    public func consume(_ event: DomainEvent, into info: DeliveryInfo) -> DeliveryInfo {
        var info = info
        info.delivered = info.delivered || event.payload(of: .orderStatus) == .delivered
        return info
    }

    /// The hand-over, for whoever listens (Order marks the order delivered).
    public func events(for info: DeliveryInfo) -> [DomainEvent] {
        info.handedOver ? [DomainEvent(.deliveryHandedOver, true)] : []
    }

    /// The rider moves: look again every 3 s until the order is delivered.
    public func refreshInterval(for info: DeliveryInfo) -> Duration? { info.delivered ? nil : .seconds(3) }

    /// Skeleton, the rider on the way, the rider who delivered, or nothing.
    public func card(for state: ComponentState<DeliveryInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Rider", lines: 3)
        case .failed: return nil
        case .info(let info) where info.delivered:
            return Block(
                title: "Rider",
                rows: [
                    Row("✓ Delivered by \(info.rider)", style: .success), Row("to \(info.address)"),
                    Row("Tracking stopped", style: .dim),
                ])
        case .info(let info):
            return Block(
                title: "Rider",
                rows: [
                    Row("\(info.rider) · \(info.vehicle)", value: "\(info.distance) away"), Row("to \(info.address)"),
                    Row("Location updated \(info.lastUpdate)", style: .dim),
                ])
        }
    }
}
