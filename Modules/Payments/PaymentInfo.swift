import Core
import Currency

/// What the payment card shows, after the Payments squad's rules have been applied.
public struct PaymentInfo: Sendable, Equatable, Encodable {
    /// How the customer paid.
    public enum Method: Sendable, Equatable, Encodable {
        /// A card, shown as brand and masked last four digits.
        case card(brand: String, last4: String)
        /// Cash on delivery.
        case cash
        /// A named wallet (Apple Pay, STC Pay).
        case wallet(String)
    }

    /// Where the money stands.
    public enum Status: String, Sendable, Equatable, Encodable {
        /// Captured.
        case paid
        /// Authorised or awaiting cash.
        case pending
        /// Given back.
        case refunded
    }

    /// How the customer paid.
    public let method: Method
    /// The order amount.
    public let amount: Money
    /// The tip, when there is one.
    public let tip: Money?
    /// Amount plus tip.
    public let total: Money
    /// Where the money stands.
    public let status: Status
    /// Whether the payment provider can still refund it.
    public let refundable: Bool
    /// The provider's logo file name.
    public let logo: String
    /// A promo code applied after the payment was loaded (absent from JSON until one is).
    public internal(set) var promo: AppliedPromo?

    /// What is due: the total, less a promo's discount.
    public var due: Money { promo?.due ?? total }

    /// The method as a person reads it: "Visa •••• 4242", "Cash on delivery", "STC Pay wallet".
    public var methodLabel: String { method.label }

    /// Applies the squad's rules to the payload: a card needs exactly four digits, the tip must be in the
    /// order's currency, the status must be one Payments knows.
    init(_ payload: PaymentPayload) throws {
        method = try Method(payload.method)
        guard let status = Status(rawValue: payload.status) else {
            throw Failure("unknown payment status '\(payload.status)'")
        }
        let total: Money
        do { total = try Money.sum([payload.amount] + (payload.tip.map { [$0] } ?? [])) } catch .mixedCurrencies {
            throw Failure("tip currency \(payload.tip?.currency ?? "?") differs from \(payload.amount.currency)")
        } catch { throw Failure("payment total: \(error)") }
        guard !payload.logo.isEmpty else { throw Failure("payment provider logo is empty") }
        self.amount = payload.amount
        self.tip = payload.tip
        self.total = total
        self.status = status
        self.refundable = payload.refundable
        self.logo = payload.logo
    }
}

extension PaymentInfo.Method {
    /// The method as a person reads it: "Visa •••• 4242", "Cash on delivery", "STC Pay wallet".
    public var label: String {
        switch self {
        case .card(let brand, let last4): "\(brand.prefix(1).uppercased())\(brand.dropFirst()) •••• \(last4)"
        case .cash: "Cash on delivery"
        case .wallet(let name): "\(name) wallet"
        }
    }

    /// Payments' rules for a method on the wire: a card needs a brand and exactly four digits.
    init(_ payload: PaymentPayload.Method) throws {
        switch payload.type {
        case "card":
            guard let brand = payload.brand, !brand.isEmpty, let last4 = payload.last4,
                last4.count == 4, last4.allSatisfy(\.isASCII), last4.allSatisfy(\.isNumber)
            else { throw Failure("payment card needs a brand and exactly four last digits") }
            self = .card(brand: brand, last4: last4)
        case "cash": self = .cash
        case "wallet": self = .wallet(payload.wallet ?? "Digital")
        case let other: throw Failure("unknown payment method '\(other)'")
        }
    }
}
