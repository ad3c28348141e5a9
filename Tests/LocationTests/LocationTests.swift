import Core
import CoreTesting
import Foundation
import Testing

@testable import Location

let deliveryPath = "orders/1234/delivery.json"
let etaPath = "orders/1234/eta.json"
let goodDelivery = #"""
    {"rider": {"name": "Omar", "vehicle": "motorbike"}, "distance_m": 1250,
     "address": "King Fahd Rd 12, Riyadh", "location_age_s": 40}
    """#
let goodETA = #"{"min_minutes": 10, "max_minutes": 20, "timezone": "Asia/Riyadh"}"#

func deliveryHarness(_ answer: CannedAnswer) -> ComponentHarness<DeliveryComponent> {
    ComponentHarness(DeliveryComponent(), ids: ["order": "1234"], answers: [deliveryPath: answer])
}

func etaHarness(_ answer: CannedAnswer) -> ComponentHarness<ETAComponent> {
    ComponentHarness(ETAComponent(), ids: ["order": "1234"], answers: [etaPath: answer])
}

@Suite struct DeliveryCardTests {
    @Test func loadingThenTheExactCard() async throws {
        let harness = deliveryHarness(.json(goodDelivery))
        await harness.load()
        harness.expectPhases([.loading, .info])
        harness.expectCard(
            """
            ╭─ Rider ──────────────────────────────────╮
            │ Omar · motorbike             1.3 km away │
            │ to King Fahd Rd 12, Riyadh               │
            │ Location updated 40 s ago                │
            ╰──────────────────────────────────────────╯
            """)
    }

    @Test func deliveredStatusStopsTracking() async throws {
        let harness = deliveryHarness(.json(goodDelivery))
        await harness.load()
        await harness.expectReaction(.updated, to: DomainEvent("order.status", text: "delivered"))
        #expect(harness.published.isEmpty, "the order's own status is not the rider's hand-over")
        harness.expectCard(
            """
            ╭─ Rider ──────────────────────────────────╮
            │ ✓ Delivered by Omar                      │
            │ to King Fahd Rd 12, Riyadh               │
            │ Tracking stopped                         │
            ╰──────────────────────────────────────────╯
            """)
        harness.expectPhases([.loading, .info, .info])
    }

    @Test(arguments: [(850, false, "850 m"), (1250, false, "1.3 km"), (999, false, "999 m"), (1609, true, "1.0 mi")])
    func distancesReadAsPeopleExpect(meters: Int, imperial: Bool, expected: String) async throws {
        let payload = goodDelivery.replacingOccurrences(of: "1250", with: "\(meters)")
            .replacingOccurrences(
                of: "\"location_age_s\": 40",
                with: "\"location_age_s\": 40, \"units\": \"\(imperial ? "imperial" : "metric")\"")
        let harness = deliveryHarness(.json(payload))
        await harness.load()
        #expect(harness.info?.distance == expected)
    }

    @Test(arguments: [
        (#""distance_m": 1250"#, #""distance_m": -5"#, "must not be negative"),
        (#""distance_m": 1250"#, #""distance_m": 9223372036854775807"#, "delivery distance out of range"),
        (#""rider""#, #""driver""#, "missing key 'rider'"),
        (#""location_age_s": 40"#, #""location_age_s": 40, "units": "furlongs""#, "unknown units 'furlongs'"),
    ])
    func badPayloadsHide(old: String, new: String, reason: String) async throws {
        let harness = deliveryHarness(.json(goodDelivery.replacingOccurrences(of: old, with: new)))
        await harness.load()
        harness.expectHidden(because: reason)
    }

    @Test(arguments: [
        BackendError.notFound(path: deliveryPath), .httpStatus(500, path: deliveryPath), .timeout(path: deliveryPath),
    ])
    func backendFaultsHide(fault: BackendError) async throws {
        let harness = deliveryHarness(.fault(fault))
        await harness.load()
        harness.expectEvents([.hide(Failure(fault.description))])
    }
}

@Suite struct ETACardTests {
    @Test func windowIsInTheCustomersTimeZoneAgainstTheInjectedClock() async throws {
        // The virtual clock starts at 2027-01-15 08:00 UTC = 11:00 in Riyadh.
        let harness = etaHarness(.json(goodETA))
        await harness.load()
        harness.expectCard(
            """
            ╭─ Arrival ────────────────────────────────╮
            │ Arriving in 10–20 min        11:10–11:20 │
            ╰──────────────────────────────────────────╯
            """)
    }

    @Test func anotherSquadsEventIsSentThroughTheHarness() async throws {
        let harness = etaHarness(.json(goodETA))
        await harness.load()
        await harness.expectReaction(.ignored, to: DomainEvent("payment.method", text: "cash"))
        await harness.expectReaction(.updated, to: DomainEvent("order.status", text: "delivered"))
        #expect(harness.card().contains("│ ✓ Delivered"))
    }

    @Test func deliveredEventSaysDeliveredEvenWhenItArrivesFirst() async throws {
        let harness = etaHarness(.json(goodETA))
        await harness.expectReaction(.ignored, to: DomainEvent("order.status", text: "delivered"))
        await harness.load()
        #expect(harness.card().contains("│ ✓ Delivered"))
        harness.expectPhases([.loading, .info])
    }

    @Test(arguments: [
        (#""timezone": "Asia/Riyadh""#, #""timezone": "Mars/Olympus""#, "unknown time zone 'Mars/Olympus'"),
        (#""min_minutes": 10"#, #""min_minutes": 30"#, "arrival window 30–20 min is not a valid window"),
        (#""max_minutes": 20"#, #""max_minutes": "soon""#, "the value must be a number at max_minutes"),
    ])
    func badPayloadsHide(old: String, new: String, reason: String) async throws {
        let harness = etaHarness(.json(goodETA.replacingOccurrences(of: old, with: new)))
        await harness.load()
        harness.expectHidden(because: reason)
    }

    @Test func missingEndpointAndDeadlineHide() async throws {
        let missing = etaHarness(.fault(.notFound(path: etaPath)))
        await missing.load()
        missing.expectHidden(because: "orders/1234/eta.json: not found (404)")
        let hanging = etaHarness(.hang)
        await hanging.load()
        hanging.expectHidden(because: "no answer within 5s")
    }
}

@Suite struct ClockTimeTests {
    func time(_ iso: String, _ zone: String) throws -> String {
        let date = try #require(ISO8601DateFormatter().date(from: iso))
        return LocationFormat.clockTime(date, in: try #require(TimeZone(identifier: zone)))
    }

    @Test func wallClockFollowsTheZoneAndDaylightSaving() throws {
        #expect(try time("2027-01-15T08:00:00Z", "Asia/Riyadh") == "11:00")
        #expect(try time("2027-01-15T08:05:00Z", "Europe/Berlin") == "09:05")
        #expect(try time("2027-07-15T08:05:00Z", "Europe/Berlin") == "10:05")
        #expect(try time("2027-01-15T02:30:00Z", "America/New_York") == "21:30")
        #expect(try time("1969-12-31T23:59:00Z", "UTC") == "23:59")
        #expect(try time("2027-01-15T08:00:00Z", "Asia/Kolkata") == "13:30")
    }
}

@Suite struct LocationCardsAloneTests {
    /// Each Location card stands alone: the arrival shows its window while the rider's missing endpoint hides
    /// only the rider card, with the reason.
    @Test func theArrivalShowsItsWindowWhileAMissingRiderEndpointHidesTheRiderAlone() async {
        let answers: [String: CannedAnswer] = [etaPath: .json(goodETA)]
        let rider = ComponentHarness(DeliveryComponent(), ids: ["order": "1234"], answers: answers)
        await rider.load()
        rider.expectPhases([.loading, .failed])
        rider.expectEvents([.hide(Failure("orders/1234/delivery.json: not found (404)"))])
        let arrival = ComponentHarness(ETAComponent(), ids: ["order": "1234"], answers: answers)
        await arrival.load()
        arrival.expectPhases([.loading, .info])
        #expect(arrival.info?.minMinutes == 10 && arrival.info?.maxMinutes == 20)
    }
}

/// The Location squad records how far the rider was and the window promised, or why a card was hidden.
@Suite struct LocationAnalyticsTests {
    @Test func riderAndArrivalCardsRecordWhatTheyShowed() async {
        let rider = deliveryHarness(.json(goodDelivery))
        await rider.load()
        #expect(rider.analytics.map(\.name) == ["rider_card_shown"])
        #expect(rider.analytics.first?.properties["delivered"] == "false")
        let arrival = etaHarness(.json(goodETA))
        await arrival.load()
        #expect(arrival.analytics == [AnalyticsEvent("eta_shown", ["min_minutes": "10", "max_minutes": "20"])])
        let missing = etaHarness(.fault(.notFound(path: etaPath)))
        await missing.load()
        #expect(
            missing.analytics == [AnalyticsEvent("eta_hidden", ["reason": "orders/1234/eta.json: not found (404)"])])
    }
}

@Suite struct HandOverTests {
    /// The rider app's hand-over shows the parcel delivered and is announced to whoever listens.
    @Test func aHandedOverParcelIsDeliveredAndAnnounced() async {
        let harness = deliveryHarness(
            .json(goodDelivery.replacingOccurrences(of: #""address""#, with: #""handed_over": true, "address""#)))
        await harness.load()
        #expect(harness.info?.delivered == true)
        #expect(harness.events.contains(.domain(AnyEventName.deliveryHandedOver(true))))
        #expect(harness.card().contains("✓ Delivered by"))
        let before = deliveryHarness(.json(goodDelivery))
        await before.load()
        #expect(!before.events.contains { if case .domain = $0 { true } else { false } })
    }
}
