import Core
import Foundation

/// What the Location squad records about the rider card: how far the rider was when shown, and why the card
/// was hidden. The host only forwards these (`--analytics FILE`).
extension DeliveryComponent: Tracking {
    /// One event per shown or hidden card.
    public func analytics(for moment: Moment<DeliveryInfo>) -> [AnalyticsEvent] {
        switch moment {
        case .shown(let info):
            [AnalyticsEvent("rider_card_shown", ["distance": info.distance, "delivered": String(info.delivered)])]
        case .hidden(let failure): [AnalyticsEvent("rider_card_hidden", ["reason": failure.reason])]
        // A rider position that is no longer live is worth knowing about: it is what people complain of.
        case .stale(let since): [AnalyticsEvent("rider_card_stale", ["since": since.formatted(.iso8601)])]
        case .verdict: []
        }
    }
}

/// What the Location squad records about the arrival card: the window promised, and why it was hidden.
extension ETAComponent: Tracking {
    /// One event per shown or hidden card.
    public func analytics(for moment: Moment<ETAInfo>) -> [AnalyticsEvent] {
        switch moment {
        case .shown(let info):
            [
                AnalyticsEvent(
                    "eta_shown", ["min_minutes": String(info.minMinutes), "max_minutes": String(info.maxMinutes)])
            ]
        case .hidden(let failure): [AnalyticsEvent("eta_hidden", ["reason": failure.reason])]
        case .stale: []
        case .verdict: []
        }
    }
}
