import Core

/// The events the Promo squad publishes (its `PromoComponent.publishedEvents`), declared beside the faces so
/// Payments applies a code without importing Promo. Owned by @courier/promo (CODEOWNERS).
extension EventName {
    /// A promo code was applied; its value is a ``PromoDiscount`` ("SAVE10 10 1500 SAR").
    public static let promoApplied: EventName = "promo.applied"
    /// A person typed a promo code (the live screen's prompt); its value is the code. The screen routes it to
    /// the cards that refresh on it: Promo's, which looks the code up.
    public static let promoEntered: EventName = "promo.entered"
}

/// What `promo.applied` says, typed on both ends: the code and its rule (a percentage off the order total, capped
/// in minor units of one currency). Promo publishes the rule; Payments, which owns the total, works out the
/// discount. Parsing is strict: anything else on the wire is no discount at all.
public struct PromoDiscount: Sendable, Equatable {
    /// The code as the person typed it, upper-cased: "SAVE10".
    public let code: String
    /// Percent off the order total, 1 to 100.
    public let percent: Int
    /// The most it takes off, in minor units of `currency`.
    public let capMinorUnits: Int
    /// The cap's currency (ISO 4217).
    public let currency: String

    /// A rule, or nil when a part is out of range (a code of 1 to 16 letters and digits, 1–100 %, a positive cap,
    /// a three-letter currency).
    public init?(code: String, percent: Int, capMinorUnits: Int, currency: String) {
        guard PromoDiscount.isCode(code), (1...100).contains(percent), capMinorUnits > 0,
            currency.utf8.count == 3, currency.utf8.allSatisfy({ (65...90).contains($0) })
        else { return nil }
        (self.code, self.percent, self.capMinorUnits, self.currency) = (code, percent, capMinorUnits, currency)
    }

    /// The rule `event` carries, or nil when it is not a well-formed `promo.applied`.
    public init?(_ event: DomainEvent) {
        let parts = event.value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard event.name == EventName.promoApplied.rawValue, parts.count == 4, let percent = Int(parts[1]),
            let cap = Int(parts[2])
        else { return nil }
        self.init(code: parts[0], percent: percent, capMinorUnits: cap, currency: parts[3])
    }

    /// The event that announces it.
    public var event: DomainEvent { EventName.promoApplied("\(code) \(percent) \(capMinorUnits) \(currency)") }

    /// Whether `text` can be a code: 1 to 16 ASCII letters and digits.
    public static func isCode(_ text: String) -> Bool {
        (1...16).contains(text.utf8.count)
            && text.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}
