/// An amount in integer minor units of a currency: never floating point, always the currency's own decimals.
/// Its own library because Payments and Order both show prices and must not import each other.
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
    /// ISO 4217 minor-unit digits for the currencies Courier serves.
    public static let decimals: [String: Int] = [
        "SAR": 2, "AED": 2, "EGP": 2, "USD": 2, "EUR": 2, "GBP": 2, "QAR": 2, "KWD": 3, "BHD": 3, "OMR": 3, "JOD": 3,
        "JPY": 0,
    ]

    /// The amount in minor units (halalas, fils, cents).
    public let minorUnits: Int
    /// The ISO 4217 code.
    public let currency: String

    private enum CodingKeys: String, CodingKey {
        case minorUnits = "minor"
        case currency
    }

    /// Creates an amount; returns nil for a currency Courier does not know or a negative amount.
    public init?(minorUnits: Int, currency: String) {
        guard Money.decimals[currency] != nil, minorUnits >= 0 else { return nil }
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Decodes `{"minor": 4550, "currency": "SAR"}`, rejecting unknown currencies and negative amounts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let minor: Int
        do { minor = try container.decode(Int.self, forKey: .minorUnits) } catch {
            // Foundation reports a number too big for Int as "not valid JSON" for the whole payload; name it here.
            guard (try? container.decode(Double.self, forKey: .minorUnits)) != nil else { throw error }
            throw DecodingError.dataCorruptedError(
                forKey: .minorUnits, in: container, debugDescription: "number out of range")
        }
        let currency = try container.decode(String.self, forKey: .currency)
        guard let money = Money(minorUnits: minor, currency: currency) else {
            throw DecodingError.dataCorruptedError(
                forKey: .currency, in: container, debugDescription: "unknown currency or negative amount")
        }
        self = money
    }

    /// "SAR 1,234.50", "KWD 3.250", "JPY 1,200".
    public var description: String {
        let digits = Money.decimals[currency] ?? 2
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = String(minorUnits / scale)
        var grouped = ""
        for (index, character) in whole.enumerated() {
            if index > 0 && (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        guard digits > 0 else { return "\(currency) \(grouped)" }
        let fraction = String(minorUnits % scale)
        return "\(currency) \(grouped).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }

    /// The sum. Amounts come from backends, so the arithmetic is checked: an overflow is an error for the card
    /// that asked, never a trap that takes the whole screen down.
    public static func sum(_ amounts: [Money]) throws(MoneyError) -> Money {
        guard let first = amounts.first else { throw .empty }
        var total = 0
        for amount in amounts {
            guard amount.currency == first.currency else {
                throw .mixedCurrencies(first.currency, amount.currency)
            }
            let (added, overflow) = total.addingReportingOverflow(amount.minorUnits)
            guard !overflow else { throw .outOfRange }
            total = added
        }
        return Money(minorUnits: total, currency: first.currency)!
    }

    /// This amount times `count` (a quantity from a backend), checked like ``sum(_:)``; a negative count is out
    /// of range, as no amount is negative.
    public func times(_ count: Int) throws(MoneyError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: count)
        guard !overflow, let money = Money(minorUnits: product, currency: currency) else { throw .outOfRange }
        return money
    }
}

/// Why amounts could not be combined; each case reads as the card's failure reason.
public enum MoneyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing to add up.
    case empty
    /// Two currencies in one sum (never add SAR to KWD).
    case mixedCurrencies(String, String)
    /// The result does not fit in 64-bit minor units.
    case outOfRange

    /// "amount out of range", "SAR and KWD cannot be added", "no amounts".
    public var description: String {
        switch self {
        case .empty: "no amounts"
        case .mixedCurrencies(let one, let other): "\(one) and \(other) cannot be added"
        case .outOfRange: "amount out of range"
        }
    }
}
