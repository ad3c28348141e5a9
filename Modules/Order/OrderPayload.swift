import Core

/// The wire shape of `orders/<id>/details.json`; only Order ever decodes it.
struct OrderPayload {
    struct Restaurant {
        let name: String
        let logo: String
    }
    struct Item {
        let name: String
        let quantity: Int
        let unit_price: Money
    }
    let restaurant: Restaurant
    let items: [Item]
    let status: String

    /// Reads the payload; a missing or mistyped field is a ``PayloadError`` naming it.
    init(json: JSONFields) throws(PayloadError) {
        let restaurant = try json.object("restaurant")
        self.restaurant = Restaurant(name: try restaurant.string("name"), logo: try restaurant.string("logo"))
        var items: [Item] = []
        for item in try json.objects("items") {
            items.append(
                Item(
                    name: try item.string("name"), quantity: try item.int("quantity"),
                    unit_price: try Money(json: item.object("unit_price"))))
        }
        self.items = items
        status = try json.string("status")
    }
}
