import Core
import Foundation

/// What the Order squad records about its card: the status people saw, why the card was hidden, and a cancel
/// it refused (with the status that made it refuse). The host only forwards these (`--analytics FILE`).
extension OrderComponent: Tracking {
    /// One event per moment that matters to Order; an allowed cancel records nothing.
    public func analytics(for moment: Moment<OrderInfo>) -> [AnalyticsEvent] {
        switch moment {
        case .shown(let info): [AnalyticsEvent("order_card_shown", ["status": info.status.rawValue])]
        case .hidden(let failure): [AnalyticsEvent("order_card_hidden", ["reason": failure.reason])]
        case .stale(let since): [AnalyticsEvent("order_card_stale", ["since": since.formatted(.iso8601)])]
        case .verdict(let action, .veto(let reason)):
            [AnalyticsEvent("order_cancel_vetoed", ["action": action.name, "reason": reason])]
        case .verdict: []
        }
    }
}
