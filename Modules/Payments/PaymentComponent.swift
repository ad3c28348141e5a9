import Core
import Foundation
import OrderInterface
import PromoInterface

/// The Payments squad's card: how the order was paid, for how much, and whether it can be refunded.
/// When the order's status changes it reloads itself: cash is collected at the door, so a delivered order's
/// payment reads "paid" without Payments ever importing Order.
public struct PaymentComponent: Component, Validatable, RefreshingOnEvents, EventConsuming {
    /// The id layouts use.
    public static let id: ComponentID = "payment"

    /// Order's status (declared in OrderInterface), so a delivered cash order reads "paid"; a promo code, so the card
    /// shows it against a fresh payment.
    public static let refreshingEvents: Set<AnyEventName> = [.orderStatus, .promoApplied]
    /// Promo's discount rule (declared in OrderInterface): Payments works out the discount on its own total.
    public static let consumedEvents: Set<AnyEventName> = [.promoApplied]

    /// Creates the component; it needs nothing but the context it is loaded with.
    public init() {}

    /// Fetches `orders/<id>/payment.json` (or decodes the inline slice) and applies the payment rules.
    public func load(_ context: ComponentContext) async throws -> PaymentInfo {
        let data = try await context.payloadOrFetch(try Endpoint("orders", try context.id("order"), "payment.json"))
        return try PaymentInfo(JSONDecoder().decode(PaymentPayload.self, from: data))
    }

    /// Skeleton while loading, the payment when known, nothing when failed (the host hides the slot).
    public func card(for state: ComponentState<PaymentInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Payment", lines: 3)
        case .failed: return nil
        case .info(let info):
            var rows = [Row(info.methodLabel, value: info.amount.description)]
            if let tip = info.tip { rows.append(Row("Tip", value: tip.description, style: .dim)) }
            if let promo = info.promo {
                let off = promo.discount.map { "− \($0)" } ?? promo.note ?? ""
                rows.append(Row("Promo \(promo.code)", value: off, style: promo.discount == nil ? .warning : .success))
            }
            rows.append(Row("Total", value: info.due.description, style: .bold))
            switch info.status {
            case .paid: rows.append(Row("✓ Paid", style: .success))
            case .pending: rows.append(Row("… Payment pending", style: .warning))
            case .refunded: rows.append(Row("↺ Refunded", style: .dim))
            }
            if context.presentation == .alone { rows.append(Row("Provider logo", value: info.logo, style: .dim)) }
            return Block(title: "Payment", rows: rows)
        }
    }

    /// A promo code applied elsewhere (Promo's card): the discount, from this payment's own total.
    public func consume(_ event: DomainEvent, into info: PaymentInfo) -> PaymentInfo {
        event.payload(of: .promoApplied).map { info.applying($0) } ?? info
    }

    /// Vetoes cancelling when the money cannot be given back.
    public func validate(_ action: UserAction, info: PaymentInfo) -> Verdict {
        guard action == .cancelOrder else { return .allow }
        if info.status == .refunded { return .veto("The payment was already refunded.") }
        if !info.refundable {
            return .veto("The \(info.methodLabel) payment can't be refunded, so the order can't be cancelled here.")
        }
        // What the confirmation needs: money already taken goes back the way it came; nothing taken, nothing to say.
        guard info.status == .paid else { return .confirm("nothing was charged", facts: ["refund": "none"]) }
        return .confirm(
            "refund \(info.due) to \(info.methodLabel)",
            facts: ["refund": .words(info.due.description), "method": .words(info.methodLabel)])
    }
}
