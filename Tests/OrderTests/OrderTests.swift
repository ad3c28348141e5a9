import Core
import CoreTesting
import LocationInterface
import Order
import Testing

let detailsPath = "orders/1234/details.json"
let goodDetails = #"""
    {"restaurant": {"name": "Al Baik", "logo": "albaik.png"},
     "items": [{"name": "Chicken Meal", "quantity": 2, "unit_price": {"minor": 1800, "currency": "SAR"}},
               {"name": "Garlic Sauce", "quantity": 1, "unit_price": {"minor": 950, "currency": "SAR"}}],
     "status": "accepted"}
    """#

func orderHarness(_ answer: CannedAnswer) -> ComponentHarness<OrderComponent> {
    ComponentHarness(OrderComponent(), ids: ["order": "1234"], answers: [detailsPath: answer])
}

func details(status: String) -> CannedAnswer {
    .json(goodDetails.replacingOccurrences(of: #""accepted""#, with: "\"\(status)\""))
}

@Suite struct OrderCardTests {
    @Test func loadingThenTheExactCardAndAStatusEvent() async throws {
        let harness = orderHarness(.json(goodDetails))
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.blocks.first??.isSkeleton == true)
        harness.expectCard(
            """
            ╭─ Order ──────────────────────────────────╮
            │ Al Baik                                  │
            │ 2 × Chicken Meal               SAR 36.00 │
            │ 1 × Garlic Sauce                SAR 9.50 │
            │ Subtotal                       SAR 45.50 │
            │ ●─●─○─○─○                       Accepted │
            ╰──────────────────────────────────────────╯
            """)
        harness.expectEvents([.refresh(after: .seconds(5)), .domain(DomainEvent("order.status", text: "accepted"))])
    }

    @Test func deliveredOrderFillsTheTimeline() async throws {
        let harness = orderHarness(details(status: "delivered"))
        await harness.load()
        #expect(harness.card().contains("│ ●─●─●─●─●                      Delivered │"))
        harness.expectEvents([.finished, .domain(DomainEvent("order.status", text: "delivered"))])
    }
}

@Suite struct OrderFailureTests {
    @Test(arguments: [
        (#""status": "accepted""#, #""status": "lost""#, "unknown order status 'lost'"),
        (#""quantity": 2"#, #""quantity": 0"#, "item 'Chicken Meal' has quantity 0"),
        (#""currency": "SAR"}},"#, #""currency": "KWD"}},"#, "items are priced in different currencies"),
        (#""restaurant": {"name""#, #""restaurant": {"title""#, "missing key 'name' at restaurant"),
        (#""quantity": 2"#, #""quantity": "two""#, "the value must be a number at items.[0].quantity"),
        // Overflowing backend numbers fail this card alone (they trapped the whole process before).
        (#""minor": 1800"#, #""minor": 9223372036854775807"#, "item 'Chicken Meal' price: amount out of range"),
        (#""minor": 950"#, #""minor": 9223372036854775000"#, "order subtotal: amount out of range"),
    ])
    func everyDecodingOrRuleFailureHides(old: String, new: String, reason: String) async throws {
        let harness = orderHarness(.json(goodDetails.replacingOccurrences(of: old, with: new)))
        await harness.load()
        harness.expectPhases([.loading, .failed])
        harness.expectHidden(because: reason)
        guard case .failed(let failure) = harness.state else { return }
        harness.expectEvents([.hide(failure)])
    }

    @Test func emptyBasketHides() async throws {
        let harness = orderHarness(
            .json(#"{"restaurant": {"name": "X", "logo": "x"}, "items": [], "status": "placed"}"#))
        await harness.load()
        harness.expectHidden(because: "order has no items")
    }

    @Test(arguments: [
        (BackendError.notFound(path: detailsPath), "not found (404)"),
        (BackendError.httpStatus(500, path: detailsPath), "server answered HTTP 500"),
        (BackendError.timeout(path: detailsPath), "timed out"),
    ])
    func backendFaultsHide(fault: BackendError, reason: String) async throws {
        let harness = orderHarness(.fault(fault))
        await harness.load()
        harness.expectEvents([.hide(Failure("orders/1234/details.json: \(reason)"))])
    }

    @Test func aHangingEndpointHidesAtTheDeadline() async throws {
        let harness = orderHarness(.hang)
        await harness.load()
        harness.expectHidden(because: "no answer within 5s")
    }
}

@Suite struct OrderValidationTests {
    @Test(arguments: [
        ("placed", Verdict.allow), ("accepted", .allow),
        ("preparing", .veto("Al Baik is already preparing this order, so it can't be cancelled.")),
        ("on_the_way", .veto("The order is already on its way, so it can't be cancelled.")),
        ("delivered", .veto("The order was already delivered.")),
    ])
    func cancellingIsVetoedOnceTheKitchenStarts(status: String, expected: Verdict) async {
        let harness = orderHarness(details(status: status))
        await harness.load()
        #expect(await harness.verdict(on: .cancelOrder) == expected)
        #expect(await harness.verdict(on: "rate-order") == .allow)
    }
}

@Suite struct OrderReloadTests {
    /// Load after load the card follows the order until it is delivered, and says each status once.
    @Test func eachLoadShowsTheOrderAsItIsNow() async {
        let harness = orderHarness(.sequence([details(status: "on_the_way"), details(status: "delivered")]))
        await harness.load()
        #expect(harness.info?.status == .onTheWay)
        await harness.reload()
        #expect(harness.info?.status == .delivered)
        #expect(harness.card().contains("Delivered"))
        #expect(
            harness.published == [
                DomainEvent("order.status", text: "on_the_way"), DomainEvent("order.status", text: "delivered"),
            ])
        harness.expectPhases([.loading, .info, .loading, .info])
    }
}

/// The Order squad records the status people saw and a cancel it refused; an allowed cancel records nothing.
@Suite struct OrderAnalyticsTests {
    @Test func theStatusShownAndARefusedCancelAreRecorded() async {
        let preparing = orderHarness(details(status: "preparing"))
        await preparing.load()
        _ = await preparing.verdict(on: .cancelOrder)
        #expect(
            preparing.analytics == [
                AnalyticsEvent("order_card_shown", ["status": "preparing"]),
                AnalyticsEvent(
                    "order_cancel_vetoed",
                    [
                        "action": "cancel-order",
                        "reason": "Al Baik is already preparing this order, so it can't be cancelled.",
                    ]),
            ])
        let accepted = orderHarness(.json(goodDetails))
        await accepted.load()
        _ = await accepted.verdict(on: .cancelOrder)
        #expect(accepted.analytics == [AnalyticsEvent("order_card_shown", ["status": "accepted"])])
    }

    /// Reloads under --watch do not repeat "shown": analytics hears of a card when it appears.
    @Test func aReloadedCardIsNotShownAgain() async {
        let harness = orderHarness(.json(goodDetails))
        await harness.load()
        await harness.reload()
        #expect(harness.analytics.map(\.name) == ["order_card_shown"])
    }
}

@Suite struct HandOverConsumptionTests {
    /// Order trusts the rider's hand-over: an order on its way becomes delivered and says so.
    @Test func theRidersHandOverDeliversTheOrder() async {
        let harness = orderHarness(details(status: "on_the_way"))
        await harness.load()
        await harness.expectReaction(.ignored, to: AnyEventName.deliveryHandedOver(false))
        await harness.expectReaction(.ignored, to: DomainEvent("delivery.handed_over", json: "1"))
        await harness.expectReaction(.updated, to: AnyEventName.deliveryHandedOver(true))
        #expect(harness.info?.status == .delivered)
        #expect(harness.published.last == DomainEvent("order.status", text: "delivered"), "announced after consuming")
        let said = harness.events
        await harness.expectReaction(.ignored, to: AnyEventName.deliveryHandedOver(true))
        #expect(harness.events == said, "said once")
    }
}
