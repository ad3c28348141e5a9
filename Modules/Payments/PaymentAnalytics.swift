import Core
import Foundation

/// What the Payments squad records about its card: which kind of payment people see, why the card was hidden,
/// and what it answered when someone tried to cancel. The host only forwards these (`--analytics FILE`).
extension PaymentComponent: Tracking {
    /// One event per moment; properties never carry card digits.
    public func analytics(for moment: Moment<PaymentInfo>) -> [AnalyticsEvent] {
        switch moment {
        case .shown(let info):
            return [AnalyticsEvent("payment_card_shown", ["method": info.methodKind, "status": info.status.rawValue])]
        case .hidden(let failure): return [AnalyticsEvent("payment_card_hidden", ["reason": failure.reason])]
        case .stale(let since): return [AnalyticsEvent("payment_card_stale", ["since": since.formatted(.iso8601)])]
        case .verdict(let action, .veto(let reason)):
            return [AnalyticsEvent("payment_vetoed", ["action": action.name, "reason": reason])]
        case .verdict(let action, .confirm(_, let facts)):
            return [
                AnalyticsEvent(
                    "payment_confirmed", ["action": action.name, "refund": facts["refund"]?.description ?? ""])
            ]
        case .verdict(let action, .allow):
            return [AnalyticsEvent("payment_confirmed", ["action": action.name, "refund": ""])]
        }
    }
}

extension PaymentInfo {
    /// "card", "cash" or "wallet": the method without anything personal.
    var methodKind: String {
        switch method {
        case .card: "card"
        case .cash: "cash"
        case .wallet: "wallet"
        }
    }
}
