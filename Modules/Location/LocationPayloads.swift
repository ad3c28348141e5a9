import Core

/// The wire shape of `orders/<id>/delivery.json`; only Location decodes it.
struct DeliveryPayload {
    struct Rider {
        let name: String
        let vehicle: String
    }
    let rider: Rider
    let distance_m: Int
    let address: String
    let location_age_s: Int
    let units: String?

    /// Reads the payload; a missing or mistyped field is a ``PayloadError`` naming it.
    init(json: JSONFields) throws(PayloadError) {
        let rider = try json.object("rider")
        self.rider = Rider(name: try rider.string("name"), vehicle: try rider.string("vehicle"))
        distance_m = try json.int("distance_m")
        address = try json.string("address")
        location_age_s = try json.int("location_age_s")
        units = try json.stringIfPresent("units")
    }
}

/// The wire shape of `orders/<id>/eta.json`: an arrival window in minutes from now, and the customer's time zone.
struct ETAPayload {
    let min_minutes: Int
    let max_minutes: Int
    let timezone: String

    /// Reads the payload; a missing or mistyped field is a ``PayloadError`` naming it.
    init(json: JSONFields) throws(PayloadError) {
        min_minutes = try json.int("min_minutes")
        max_minutes = try json.int("max_minutes")
        timezone = try json.string("timezone")
    }
}
