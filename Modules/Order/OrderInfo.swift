import Core
import Currency
import OrderInterface

extension OrderStatus {
    /// The step as a person reads it (the status itself is declared in OrderInterface, with `order.status`).
    public var label: String {
        switch self {
        case .placed: "Placed"
        case .accepted: "Accepted"
        case .preparing: "Preparing"
        case .onTheWay: "On the way"
        case .delivered: "Delivered"
        }
    }
}

/// What the order card shows, after the Order squad's rules.
public struct OrderInfo: Sendable, Equatable, Encodable {
    /// One line of the basket.
    public struct Item: Sendable, Equatable, Encodable {
        /// The dish.
        public let name: String
        /// How many.
        public let quantity: Int
        /// Quantity times unit price.
        public let price: Money
    }

    /// The restaurant's name.
    public let restaurant: String
    /// The restaurant's logo file name.
    public let logo: String
    /// The basket.
    public let items: [Item]
    /// Sum of the items.
    public let subtotal: Money
    /// Where the order is (moved to delivered when the rider reports the hand-over first).
    public internal(set) var status: OrderStatus

    /// Applies the rules: at least one item, positive quantities, one currency, a known status.
    init(_ payload: OrderPayload) throws {
        guard !payload.items.isEmpty else { throw Failure("order has no items") }
        guard let status = OrderStatus(rawValue: payload.status) else {
            throw Failure("unknown order status '\(payload.status)'")
        }
        let items = try payload.items.map { item in
            guard (1...999).contains(item.quantity) else {
                throw Failure("item '\(item.name)' has quantity \(item.quantity); expected 1 to 999")
            }
            do {
                return Item(name: item.name, quantity: item.quantity, price: try item.unit_price.times(item.quantity))
            } catch { throw Failure("item '\(item.name)' price: \(error)") }
        }
        let subtotal: Money
        do { subtotal = try Money.sum(items.map(\.price)) } catch .mixedCurrencies {
            throw Failure("items are priced in different currencies")
        } catch { throw Failure("order subtotal: \(error)") }
        self.restaurant = payload.restaurant.name
        self.logo = payload.restaurant.logo
        self.items = items
        self.subtotal = subtotal
        self.status = status
    }
}
