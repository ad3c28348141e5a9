import Core
import Currency
import Foundation

/// The wire shape of `carts/<id>/cart.json`.
struct CartPayload: Decodable {
    struct Item: Decodable {
        let name: String
        let quantity: Int
        let price: Money
    }
    let items: [Item]
}

/// What is in a cart, as the Order squad shows it before it becomes an order.
public struct CartInfo: Sendable, Equatable, Encodable {
    /// One line of the cart.
    public struct Item: Sendable, Equatable, Encodable {
        /// What it is.
        public let name: String
        /// How many.
        public let quantity: Int
        /// Quantity times the unit price.
        public let amount: Money
    }

    /// The lines, in order.
    public let items: [Item]
}

/// The Order squad's cart card on a checkout: each item with its quantity and amount. An empty cart vetoes
/// paying ("the cart is empty"); a full one confirms its currency. The price itself is Payments' card.
public struct CartComponent: Component, Validatable {
    /// The id layouts use.
    public static let id: ComponentID = "cart"

    /// Creates the component; it needs nothing but the context it is loaded with.
    public init() {}

    /// Fetches `carts/<id>/cart.json`: quantities 1 to 99, amounts checked.
    public func load(_ context: ComponentContext) async throws -> CartInfo {
        let data = try await context.payloadOrFetch(try Endpoint("carts", try context.id("cart"), "cart.json"))
        let payload = try JSONDecoder().decode(CartPayload.self, from: data)
        return CartInfo(
            items: try payload.items.map { item in
                guard (1...99).contains(item.quantity) else {
                    throw Failure("cart item quantity must be 1 to 99, got \(item.quantity)")
                }
                guard !item.name.isEmpty else { throw Failure("a cart item has no name") }
                do {
                    return CartInfo.Item(
                        name: item.name, quantity: item.quantity, amount: try item.price.times(item.quantity))
                } catch { throw Failure("cart item '\(item.name)': \(error)") }
            })
    }

    /// Skeleton, the items, or nothing when failed.
    public func card(for state: ComponentState<CartInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: return .skeleton(title: "Cart", lines: 2)
        case .failed: return nil
        case .info(let info) where info.items.isEmpty:
            return Block(title: "Cart", rows: [Row("The cart is empty", style: .warning)])
        case .info(let info):
            return Block(
                title: "Cart", rows: info.items.map { Row("\($0.quantity) × \($0.name)", value: $0.amount.description) }
            )
        }
    }

    /// Nothing to pay for in an empty cart; otherwise the cart confirms its currency and its items' sum (`items`,
    /// never sent), so a price card in another currency, or billing other items, disagrees with it and the
    /// payment stops.
    public func validate(_ action: UserAction, info: CartInfo) -> Verdict {
        guard action == .pay else { return .allow }
        guard let first = info.items.first else { return .veto("the cart is empty") }
        guard info.items.allSatisfy({ $0.amount.currency == first.amount.currency }) else {
            return .veto("the cart's items are in more than one currency")
        }
        guard let sum = try? Money.sum(info.items.map(\.amount)) else {
            return .veto("the cart's items add up past any amount")
        }
        let count = info.items.reduce(0) { $0 + $1.quantity }
        return .confirm(
            count == 1 ? "1 item" : "\(count) items",
            facts: [
                "currency": .currency(first.amount.currency),
                "items": .agreed(minor: sum.minorUnits, shown: sum.description),
            ])
    }
}
