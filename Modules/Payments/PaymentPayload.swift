import Currency

/// The wire shape of `orders/<id>/payment.json`; only Payments ever decodes it (with `JSONDecoder`).
struct PaymentPayload: Decodable {
    struct Method: Decodable {
        let type: String
        let brand: String?
        let last4: String?
        let wallet: String?
    }
    let method: Method
    let amount: Money
    let tip: Money?
    let status: String
    let refundable: Bool
    let logo: String
}
