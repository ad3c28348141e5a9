import Currency

/// The wire shape of `orders/<id>/details.json`; only Order ever decodes it (with `JSONDecoder`).
struct OrderPayload: Decodable {
    struct Restaurant: Decodable {
        let name: String
        let logo: String
    }
    struct Item: Decodable {
        let name: String
        let quantity: Int
        let unit_price: Money
    }
    let restaurant: Restaurant
    let items: [Item]
    let status: String
}
