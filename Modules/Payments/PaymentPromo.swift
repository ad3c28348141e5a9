import Core
import Currency
import PromoInterface

/// A promo code applied to the payment (from Promo's `promo.applied`, without importing Promo): the code, what
/// it took off and what is due now; or why it does not apply (a cap in another currency).
public struct AppliedPromo: Sendable, Equatable, Encodable {
    /// The code, "SAVE10".
    public let code: String
    /// What it took off the total, or nil when it does not apply.
    public let discount: Money?
    /// The total after the discount (the total itself when it does not apply).
    public let due: Money
    /// Why it does not apply, when it does not.
    public let note: String?
}

extension PaymentInfo {
    /// This payment with `rule` applied to its total (amount plus tip): see ``AppliedPromo/init(_:on:)``. Always
    /// from the total as paid, so a second code replaces the first.
    func applying(_ rule: PromoDiscount) -> PaymentInfo {
        var info = self
        info.promo = AppliedPromo(rule, on: total)
        return info
    }
}

extension AppliedPromo {
    /// `rule` applied to `total`: `percent` of it, rounded down to the minor unit, at most the cap; a cap in
    /// another currency does not apply. The arithmetic is checked: a total too large to multiply is simply capped.
    init(_ rule: PromoDiscount, on total: Money) {
        guard rule.currency == total.currency else {
            self.init(code: rule.code, discount: nil, due: total, note: "only for \(rule.currency) orders")
            return
        }
        let (scaled, overflow) = total.minorUnits.multipliedReportingOverflow(by: rule.percent)
        let off = min(overflow ? rule.capMinorUnits : scaled / 100, rule.capMinorUnits, total.minorUnits)
        let discount = Money(minorUnits: off, currency: total.currency) ?? total
        let due = Money(minorUnits: total.minorUnits - off, currency: total.currency) ?? total
        self.init(code: rule.code, discount: discount, due: due, note: nil)
    }
}
