import Core
import CoreTesting
import Payments
import PromoInterface
import Testing

let methodsPath = "carts/C100/methods.json"
let savedMethods = #"""
    {"methods": [
      {"id": "visa4242", "method": {"type": "card", "brand": "visa", "last4": "4242"}, "usable": true},
      {"id": "mada1111", "method": {"type": "card", "brand": "mada", "last4": "1111"}, "usable": false,
       "note": "expired"},
      {"id": "cash", "method": {"type": "cash"}, "usable": true}],
     "chosen": "visa4242"}
    """#
let pricePath = "carts/C100/price.json"
let price = #"{"items": {"minor": 4050, "currency": "SAR"}, "delivery": {"minor": 1000, "currency": "SAR"}}"#

/// The checkout's "how to pay" card: the saved methods, the chosen one, and paying only with a usable one.
@Suite struct PaymentMethodCardTests {
    func harness(_ body: String = savedMethods) -> ComponentHarness<PaymentMethodComponent> {
        ComponentHarness(PaymentMethodComponent(), ids: ["cart": "C100"], answers: [methodsPath: .json(body)])
    }

    @Test func theSavedMethodsWithTheirIdsAndTheChosenOneMarked() async {
        let harness = harness()
        await harness.load()
        harness.expectCard(
            """
            ╭─ Pay with ───────────────────────────────╮
            │ ● Visa •••• 4242 (visa4242)              │
            │ ○ Mada •••• 1111 (mada1111)      expired │
            │ ○ Cash on delivery (cash)                │
            ╰──────────────────────────────────────────╯
            """)
        #expect(
            await harness.verdict(on: .pay)
                == .confirm("with Visa •••• 4242", facts: ["method": "Visa •••• 4242", "method_id": .text("visa4242")]))
        #expect(await harness.verdict(on: .cancelOrder) == .allow, "only paying is this card's business")
    }

    /// A choice is an id, compared exactly: a number is never a position on the card, a near miss in letter case
    /// chooses nothing and says which id it nearly names, and an unusable method leaves nothing chosen.
    @Test func aPersonChoosesByIdExactlyAndAnythingElseLeavesNothingChosen() async {
        let harness = harness()
        await harness.load()
        await harness.expectReaction(.updated, to: DomainEvent("payment.method.chosen", text: "cash"))
        #expect(await harness.verdict(on: .pay)?.facts["method_id"] == "cash")
        await harness.send(DomainEvent("payment.method.chosen", text: "mada1111"))
        harness.expectCard(
            """
            ╭─ Pay with ───────────────────────────────╮
            │ ○ Visa •••• 4242 (visa4242)              │
            │ ○ Mada •••• 1111 (mada1111)      expired │
            │ ○ Cash on delivery (cash)                │
            │ Mada •••• 1111: expired                  │
            │ Choose how to pay                press m │
            ╰──────────────────────────────────────────╯
            """)
        #expect(
            await harness.verdict(on: .pay) == .veto("choose how to pay (Mada •••• 1111: expired)"),
            "never pays with another method")
        await harness.send(DomainEvent("payment.method.chosen", text: "3"))
        #expect(
            await harness.verdict(on: .pay)
                == .veto("choose how to pay (3 is not a method's id: choose one of visa4242, mada1111, cash)"))
        await harness.send(DomainEvent("payment.method.chosen", text: "VISA4242"))
        #expect(
            await harness.verdict(on: .pay)
                == .veto(
                    "choose how to pay (VISA4242 is not a method's id (ids compare exactly): did you mean visa4242?)"))
        await harness.send(DomainEvent("payment.method.chosen", text: "visa4242"))
        #expect(await harness.verdict(on: .pay)?.facts["method_id"] == "visa4242")
    }

    /// Ids that are numbers are ids: "1" is the method whose id is "1", wherever the card draws it.
    @Test func aNumericIdIsAnIdNeverAPosition() async {
        let harness = harness(
            #"{"methods": [{"id": "2", "method": {"type": "card", "brand": "visa", "last4": "4242"}, "usable": true},"#
                + #"{"id": "1", "method": {"type": "card", "brand": "mada", "last4": "1111"}, "usable": true}],"#
                + #""chosen": "2"}"#)
        await harness.load()
        await harness.send(DomainEvent("payment.method.chosen", text: "1"))
        #expect(await harness.verdict(on: .pay)?.facts["method_id"] == "1")
        #expect(harness.card().contains("● Mada •••• 1111 (1)"))
    }

    /// A backend that gives one id to two methods makes any choice of it a guess: the card fails, naming both,
    /// and nothing can be paid with either.
    @Test func oneIdForTwoMethodsFailsTheCard() async {
        let harness = harness(
            #"{"methods": [{"id": "cash", "method": {"type": "cash"}, "usable": true},"#
                + #"{"id": "cash", "method": {"type": "card", "brand": "visa", "last4": "4242"}, "usable": true}],"#
                + #""chosen": "cash"}"#)
        await harness.load()
        harness.expectPhases([.loading, .failed])
        guard case .failed(let failure) = harness.state else { return }
        #expect(failure.reason == "two saved methods have the id cash (Cash on delivery, Visa •••• 4242)")
        #expect(await harness.verdict(on: .pay) == nil)
    }

    @Test func noUsableMethodVetoesPaying() async {
        let harness = harness(#"{"methods": [], "chosen": "visa4242"}"#)
        await harness.load()
        #expect(await harness.verdict(on: .pay) == .veto("choose how to pay"))
        #expect(harness.card().contains("Choose how to pay"))
    }

    @Test(arguments: [
        (#"{"methods": [{"id": "../x", "method": {"type": "cash"}, "usable": true}]}"#, "letters and digits"),
        (
            #"{"methods": [{"id": "v1", "method": {"type": "card", "brand": "visa", "last4": "42"}, "usable": true}]}"#,
            "exactly four last digits"
        ),
        (#"{"methods": 3}"#, "methods"),
    ])
    func aBrokenPayloadHidesTheCardWithTheReason(body: String, reason: String) async {
        let harness = harness(body)
        await harness.load()
        harness.expectPhases([.loading, .failed])
        #expect("\(harness.state)".contains(reason))
    }
}

/// The checkout's total: the price, a coupon's discount by Payments' rule, and the amount paying confirms.
@Suite struct TotalCardTests {
    func harness(_ body: String = price) -> ComponentHarness<TotalComponent> {
        ComponentHarness(TotalComponent(), ids: ["cart": "C100"], answers: [pricePath: .json(body)])
    }

    @Test func thePriceAndWhatPayingConfirms() async {
        let harness = harness()
        await harness.load()
        harness.expectCard(
            """
            ╭─ Total ──────────────────────────────────╮
            │ Items                          SAR 40.50 │
            │ Delivery                       SAR 10.00 │
            │ To pay                         SAR 50.50 │
            ╰──────────────────────────────────────────╯
            """)
        #expect(
            await harness.verdict(on: .pay)
                == .confirm(
                    "SAR 50.50",
                    facts: [
                        "amount": "SAR 50.50", "amount_minor": .integer(5050), "currency": .currency("SAR"),
                        "items": .agreed(minor: 4050, shown: "SAR 40.50"),
                    ]))
    }

    @Test func aCouponMakesItLoadAgainAndTakesTheDiscountOff() async throws {
        let harness = harness()
        await harness.load()
        let rule = try #require(PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR"))
        await harness.expectReaction(.refreshed, to: rule.event)
        #expect(harness.backend.requests == [pricePath, pricePath], "the backend priced it again")
        harness.expectCard(
            """
            ╭─ Total ──────────────────────────────────╮
            │ Items                          SAR 40.50 │
            │ Delivery                       SAR 10.00 │
            │ Promo SAVE10                  − SAR 5.05 │
            │ To pay                         SAR 45.45 │
            ╰──────────────────────────────────────────╯
            """)
        #expect(await harness.verdict(on: .pay)?.facts["amount_minor"] == "4545")
    }

    /// A person who enters another code after one applied (SAVE10, then an unknown NOPE42) no longer has SAVE10 in
    /// what paying confirms: the total is the full price until the new code applies, and the same code again keeps it.
    @Test func anotherCodeEnteredTakesTheAppliedOneOff() async throws {
        let harness = harness()
        await harness.load()
        let rule = try #require(PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR"))
        await harness.expectReaction(.refreshed, to: rule.event)
        #expect(await harness.verdict(on: .pay)?.facts["promo"] == "SAVE10")
        _ = await harness.send(DomainEvent(.promoEntered, "save10"))
        #expect(await harness.verdict(on: .pay)?.facts["promo"] == "SAVE10", "the same code, in any case, stays")
        _ = await harness.send(DomainEvent(.promoEntered, "NOPE42"))
        #expect(await harness.verdict(on: .pay)?.facts["promo"] == nil)
        #expect(await harness.verdict(on: .pay)?.facts["amount_minor"] == "5050")
    }

    @Test func mixedCurrenciesAreTheCardsFailure() async {
        let harness = harness(
            #"{"items": {"minor": 1, "currency": "SAR"}, "delivery": {"minor": 1, "currency": "KWD"}}"#)
        await harness.load()
        harness.expectPhases([.loading, .failed])
        #expect("\(harness.state)".contains("cannot be added"))
    }
}

extension Verdict {
    /// The facts of a confirmation (none otherwise).
    var facts: [String: String] {
        if case .confirm(_, let facts) = self { return facts.mapValues(\.description) }
        return [:]
    }
}
