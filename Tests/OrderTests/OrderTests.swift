import Core
import CoreTesting
import Faces
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
        harness.expectEvents([.refresh(after: .seconds(5)), .domain(DomainEvent("order.status", "accepted"))])
    }

    @Test func deliveredOrderFillsTheTimeline() async throws {
        let harness = orderHarness(details(status: "delivered"))
        await harness.load()
        #expect(harness.card().contains("│ ●─●─●─●─●                      Delivered │"))
        harness.expectEvents([.finished, .domain(DomainEvent("order.status", "delivered"))])
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
        guard case .failed(let failure) = harness.container.current else { return }
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
        #expect(harness.container.validate(.cancelOrder) == expected)
        #expect(harness.container.validate("rate-order") == .allow)
    }
}

@Suite struct OrderFaceTests {
    /// The typed face: made with the order id, listened to until the order is delivered on a later load.
    @Test func theFaceReportsTheOrderLoadAfterLoad() async {
        let clock = VirtualClock()
        let backend = CannedBackend(
            [detailsPath: .sequence([details(status: "on_the_way"), details(status: "delivered")])], clock: clock)
        let session = OrderModule.face(order: "1234").render(
            into: Slot(id: "order") { _ in }, context: ComponentContext(backend: backend, clock: clock))
        await session.reload()
        session.end()
        var statuses: [String] = []
        for await output in session.outputs {
            switch output {
            case .loading: statuses.append("loading")
            case .shown(let info): statuses.append(info.status.rawValue)
            case .hidden(let failure): statuses.append("hidden: \(failure)")
            }
        }
        #expect(statuses == ["loading", "on_the_way", "delivered"])
    }
}

/// The Order squad records the status people saw and a cancel it refused; an allowed cancel records nothing.
@Suite struct OrderAnalyticsTests {
    @Test func theStatusShownAndARefusedCancelAreRecorded() async {
        let preparing = orderHarness(details(status: "preparing"))
        await preparing.load()
        _ = preparing.container.validate(.cancelOrder)
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
        _ = accepted.container.validate(.cancelOrder)
        #expect(accepted.analytics == [AnalyticsEvent("order_card_shown", ["status": "accepted"])])
    }

    /// Reloads under --watch do not repeat "shown": analytics hears of a card when it appears.
    @Test func aReloadedCardIsNotShownAgain() async {
        let harness = orderHarness(.json(goodDetails))
        await harness.load()
        await harness.refresh()
        #expect(harness.analytics.map(\.name) == ["order_card_shown"])
    }
}

@Suite struct HandOverConsumptionTests {
    /// Order trusts the rider's hand-over: an order on its way becomes delivered and says so.
    @Test func theRidersHandOverDeliversTheOrder() async {
        let harness = orderHarness(details(status: "on_the_way"))
        await harness.load()
        let caused = harness.container.receive(DomainEvent("delivery.handed_over", "true"))
        #expect(harness.container.current.info?.status == .delivered)
        #expect(caused == [DomainEvent("order.status", "delivered")])
        #expect(harness.container.receive(DomainEvent("delivery.handed_over", "true")).isEmpty, "said once")
    }
}
