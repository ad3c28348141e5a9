import PromoInterface

/// What the Promo card knows: no code yet, a code applied (with its rule) or a code the backend does not know.
public struct PromoInfo: Sendable, Equatable, Encodable {
    /// Where the code stands.
    public enum Status: String, Sendable, Equatable, Encodable {
        /// Nobody has entered a code.
        case waiting
        /// The code is known: its discount is announced to the other cards.
        case applied
        /// The code is not one the backend knows (or not a code at all).
        case unknown
    }

    /// Where the code stands.
    public let status: Status
    /// The code, as submitted.
    public let code: String?
    /// The rule, when applied: what the card announces on `promo.applied`.
    public let discount: PromoDiscount?
    /// The cap as a person reads it ("SAR 15.00"), when applied.
    public let cap: String?

    init(status: Status, code: String? = nil, discount: PromoDiscount? = nil, cap: String? = nil) {
        (self.status, self.code, self.discount, self.cap) = (status, code, discount, cap)
    }

    private enum CodingKeys: String, CodingKey { case status, code, percentOff = "percent_off", cap }

    /// `{"status": "applied", "code": "SAVE10", "percent_off": 10, "cap": "SAR 15.00"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(code, forKey: .code)
        try container.encodeIfPresent(discount?.percent, forKey: .percentOff)
        try container.encodeIfPresent(cap, forKey: .cap)
    }
}
