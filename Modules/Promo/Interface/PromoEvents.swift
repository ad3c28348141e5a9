import Core
import InputRules

/// The events the Promo squad publishes (its `PromoComponent.publishedEvents`), declared in its interface target
/// so Payments applies a code by importing PromoInterface, never Promo.
extension AnyEventName {
    /// A promo code was applied; it carries the ``PromoDiscount``.
    public static let promoApplied = EventName<PromoDiscount>("promo.applied")
    /// A person typed a promo code (the live screen's prompt); it carries the code. The screen routes it to the
    /// cards that refresh on it: Promo's, which looks the code up.
    public static let promoEntered = EventName<String>("promo.entered")
}

/// What `promo.applied` says, typed on both ends: the code and its rule (a percentage off the order total, capped
/// in minor units of one currency). Promo publishes the rule; Payments, which owns the total, works out the
/// discount. Decoding is strict: a payload out of range is no discount at all.
public struct PromoDiscount: Sendable, Equatable, EventPayload {
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
        guard InputCode.accepts(code), (1...100).contains(percent), capMinorUnits > 0,
            currency.utf8.count == 3, currency.utf8.allSatisfy({ (65...90).contains($0) })
        else { return nil }
        (self.code, self.percent, self.capMinorUnits, self.currency) = (code, percent, capMinorUnits, currency)
    }

    /// Decodes a rule, refusing one out of range (as ``init(code:percent:capMinorUnits:currency:)`` does).
    public init(from decoder: any Decoder) throws {
        let wire = try Wire(from: decoder)
        guard
            let rule = PromoDiscount(
                code: wire.code, percent: wire.percent, capMinorUnits: wire.capMinorUnits, currency: wire.currency)
        else { throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad rule")) }
        self = rule
    }

    /// Encodes the rule's four fields.
    public func encode(to encoder: any Encoder) throws {
        try Wire(code: code, percent: percent, capMinorUnits: capMinorUnits, currency: currency).encode(to: encoder)
    }

    /// The event that announces it.
    public var event: DomainEvent { DomainEvent(.promoApplied, self) }

    private struct Wire: Codable {
        let code: String
        let percent: Int
        let capMinorUnits: Int
        let currency: String
    }
}
