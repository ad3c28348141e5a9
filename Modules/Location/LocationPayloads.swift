/// The wire shape of `orders/<id>/delivery.json`; only Location decodes it (with `JSONDecoder`).
struct DeliveryPayload: Decodable {
    struct Rider: Decodable {
        let name: String
        let vehicle: String
    }
    let rider: Rider
    let distance_m: Int
    let address: String
    let location_age_s: Int
    let units: String?
    /// Set by the rider app once the parcel is in the customer's hands (absent: not yet).
    let handed_over: Bool?
}

/// The wire shape of `orders/<id>/eta.json`: an arrival window in minutes from now, and the customer's time zone.
struct ETAPayload: Decodable {
    let min_minutes: Int
    let max_minutes: Int
    let timezone: String
}
