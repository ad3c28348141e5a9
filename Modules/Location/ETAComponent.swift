import Core
import Foundation
import OrderInterface

/// What the arrival card shows.
public struct ETAInfo: Sendable, Equatable, Encodable {
    /// Minutes from now, low end.
    public let minMinutes: Int
    /// Minutes from now, high end.
    public let maxMinutes: Int
    /// "14:20–14:30" in the customer's time zone, computed against the injected clock.
    public let window: String
    /// True once Order says the order was delivered.
    public var delivered: Bool
}

/// The Location squad's arrival card; it asks to be reloaded while the window shrinks and shows "Delivered" once
/// Order says so.
public struct ETAComponent: Component, EventConsuming, SelfRefreshing {
    /// The id layouts use.
    public static let id: ComponentID = "eta"
    /// Listens to Order's status without importing Order.
    public static let consumedEvents: Set<AnyEventName> = [.orderStatus]

    /// Creates the component.
    public init() {}

    /// Fetches `orders/<id>/eta.json` and turns the window into clock times in the customer's zone.
    public func load(_ context: ComponentContext) async throws -> ETAInfo {
        let data = try await context.payloadOrFetch(try Endpoint("orders", try context.id("order"), "eta.json"))
        let payload = try JSONDecoder().decode(ETAPayload.self, from: data)
        guard payload.min_minutes >= 0, payload.max_minutes >= payload.min_minutes, payload.max_minutes <= 24 * 60
        else {
            throw Failure("arrival window \(payload.min_minutes)–\(payload.max_minutes) min is not a valid window")
        }
        guard let zone = TimeZone(identifier: payload.timezone) else {
            throw Failure("unknown time zone '\(payload.timezone)'")
        }
        let now = context.clock.now()
        let earliest = LocationFormat.clockTime(now.addingTimeInterval(Double(payload.min_minutes * 60)), in: zone)
        let latest = LocationFormat.clockTime(now.addingTimeInterval(Double(payload.max_minutes * 60)), in: zone)
        return ETAInfo(
            minMinutes: payload.min_minutes, maxMinutes: payload.max_minutes,
            window: earliest == latest ? earliest : "\(earliest)–\(latest)",
            delivered: false)
    }

    /// Switches to "Delivered" when Order reports it.
    public func consume(_ event: DomainEvent, into info: ETAInfo) -> ETAInfo {
        var info = info
        info.delivered = event.payload(of: .orderStatus) == .delivered
        return info
    }

    /// The window shrinks as the rider closes in: look again every 5 s until the order is delivered.
    public func refreshInterval(for info: ETAInfo) -> Duration? { info.delivered ? nil : .seconds(5) }

    /// Skeleton, the window, "Delivered", or nothing.
    public func card(for state: ComponentState<ETAInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Arrival", lines: 1)
        case .failed: return nil
        case .info(let info) where info.delivered:
            return Block(title: "Arrival", rows: [Row("✓ Delivered", style: .success)])
        case .info(let info):
            let minutes =
                info.minMinutes == info.maxMinutes ? "\(info.minMinutes)" : "\(info.minMinutes)–\(info.maxMinutes)"
            return Block(title: "Arrival", rows: [Row("Arriving in \(minutes) min", value: info.window, style: .bold)])
        }
    }
}
