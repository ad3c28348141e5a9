import Core
import Currency
import Foundation
import PromoInterface

/// The wire shape of `carts/<id>/price.json`.
struct PricePayload: Decodable {
    let items: Money
    let delivery: Money
}

/// What the checkout costs: the items, delivery, a promo's discount and what is due.
public struct CheckoutTotal: Sendable, Equatable, Encodable {
    /// The items' price.
    public let items: Money
    /// The delivery fee.
    public let delivery: Money
    /// Items plus delivery.
    public let total: Money
    /// A promo code applied to the total (absent from JSON until one is).
    public internal(set) var promo: AppliedPromo?

    /// What is due: the total, less a promo's discount.
    public var due: Money { promo?.due ?? total }
}

/// The Payments squad's total on a checkout. The backend prices the cart; when a coupon is applied (Promo's
/// `promo.applied`) the card loads the price again and applies the discount by Payments' own rule, as the
/// payment card does. Paying confirms the amount due.
public struct TotalComponent: Component, Validatable, RefreshingOnEvents, EventConsuming {
    /// The id layouts use.
    public static let id: ComponentID = "total"
    /// A coupon makes the price worth loading again.
    public static let refreshingEvents: Set<AnyEventName> = [.promoApplied]
    /// The coupon's rule, applied to the total; a code a person enters replaces the one applied until it applies.
    public static let consumedEvents: Set<AnyEventName> = [.promoApplied, .promoEntered]

    /// Creates the component; it needs nothing but the context it is loaded with.
    public init() {}

    /// Fetches `carts/<id>/price.json`: the items and delivery, in one currency.
    public func load(_ context: ComponentContext) async throws -> CheckoutTotal {
        let data = try await context.payloadOrFetch(try Endpoint("carts", try context.id("cart"), "price.json"))
        let payload = try JSONDecoder().decode(PricePayload.self, from: data)
        let total: Money
        do { total = try Money.sum([payload.items, payload.delivery]) } catch {
            throw Failure("price: \(error)")
        }
        return CheckoutTotal(items: payload.items, delivery: payload.delivery, total: total)
    }

    /// Skeleton, the price lines, nothing when failed.
    public func card(for state: ComponentState<CheckoutTotal>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Total", lines: 3)
        case .failed: return nil
        case .info(let info):
            var rows = [
                Row("Items", value: info.items.description), Row("Delivery", value: info.delivery.description),
            ]
            if let promo = info.promo {
                let off = promo.discount.map { "− \($0)" } ?? promo.note ?? ""
                rows.append(Row("Promo \(promo.code)", value: off, style: promo.discount == nil ? .warning : .success))
            }
            rows.append(Row("To pay", value: info.due.description, style: .bold))
            return Block(title: "Total", rows: rows)
        }
    }

    /// A coupon's discount on this total. A person entering another code takes the applied one off at once: what
    /// is paid never carries a code the person replaced, while the new one is looked up or if it is unknown.
    public func consume(_ event: DomainEvent, into info: CheckoutTotal) -> CheckoutTotal {
        var info = info
        if let entered = event.payload(of: .promoEntered) {
            let code = entered.trimmingCharacters(in: .whitespaces).uppercased()
            if info.promo?.code != code { info.promo = nil }
            return info
        }
        guard let rule = event.payload(of: .promoApplied) else { return info }
        info.promo = AppliedPromo(rule, on: info.total)
        return info
    }

    /// Paying confirms the amount due, typed (`amount_minor`, `currency`, and the `promo` code when one takes
    /// something off), with its words for the question (`amount`). A code that does not apply is not in it. The
    /// items' price it bills is confirmed too (`items`, never sent), so a bill for other items than the cart's
    /// (the cart card confirms its own sum) stops the payment, naming both.
    public func validate(_ action: UserAction, info: CheckoutTotal) -> Verdict {
        guard action == .pay else { return .allow }
        guard info.due.minorUnits > 0 else { return .veto("nothing to pay") }
        var facts: [String: Fact] = [
            "amount": .words(info.due.description), "amount_minor": .integer(info.due.minorUnits),
            "currency": .currency(info.due.currency),
            "items": .agreed(minor: info.items.minorUnits, shown: info.items.description),
        ]
        if let promo = info.promo, promo.discount != nil { facts["promo"] = .text(promo.code) }
        return .confirm(info.due.description, facts: facts)
    }
}
