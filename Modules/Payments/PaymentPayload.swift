import Core

/// The wire shape of `orders/<id>/payment.json`; only Payments ever decodes it.
struct PaymentPayload {
    struct Method {
        let type: String
        let brand: String?
        let last4: String?
        let wallet: String?

        init(json: JSONFields) throws(PayloadError) {
            type = try json.string("type")
            brand = try json.stringIfPresent("brand")
            last4 = try json.stringIfPresent("last4")
            wallet = try json.stringIfPresent("wallet")
        }
    }
    let method: Method
    let amount: Money
    let tip: Money?
    let status: String
    let refundable: Bool
    let logo: String

    /// Reads the payload; a missing or mistyped field is a ``PayloadError`` naming it.
    init(json: JSONFields) throws(PayloadError) {
        method = try Method(json: json.object("method"))
        amount = try Money(json: json.object("amount"))
        tip = try json.objectIfPresent("tip").map { (tip) throws(PayloadError) in try Money(json: tip) }
        status = try json.string("status")
        refundable = try json.bool("refundable")
        logo = try json.string("logo")
    }
}
