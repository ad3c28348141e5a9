import Core
import CoreTesting
import Payments
import PromoInterface
import Testing

let paymentPath = "orders/1234/payment.json"
let goodPayment = #"""
    {"method": {"type": "card", "brand": "visa", "last4": "4242"}, "amount": {"minor": 4550, "currency": "SAR"},
     "tip": {"minor": 500, "currency": "SAR"}, "status": "paid", "refundable": true, "logo": "visa.png"}
    """#

func paymentHarness(_ answer: CannedAnswer, presentation: Presentation = .embedded) -> ComponentHarness<
    PaymentComponent
> {
    ComponentHarness(
        PaymentComponent(), ids: ["order": "1234"], answers: [paymentPath: answer], presentation: presentation)
}

func payment(replacing old: String, with new: String) -> CannedAnswer {
    .json(goodPayment.replacingOccurrences(of: old, with: new))
}

@Suite struct PaymentCardTests {
    @Test func loadingThenTheExactCard() async throws {
        let harness = paymentHarness(.json(goodPayment))
        await harness.load()
        harness.expectPhases([.loading, .info])
        #expect(harness.blocks.first??.isSkeleton == true)
        harness.expectCard(
            """
            ╭─ Payment ────────────────────────────────╮
            │ Visa •••• 4242                 SAR 45.50 │
            │ Tip                             SAR 5.00 │
            │ Total                          SAR 50.50 │
            │ ✓ Paid                                   │
            ╰──────────────────────────────────────────╯
            """)
        harness.expectEvents([])
    }

    @Test func presentedAloneItAlsoShowsTheProviderLogo() async throws {
        let harness = paymentHarness(.json(goodPayment), presentation: .alone)
        await harness.load()
        #expect(harness.card().contains("│ Provider logo                   visa.png │"))
    }

    @Test(arguments: [
        (#""type": "card", "brand": "visa", "last4": "4242""#, #""type": "cash""#, "Cash on delivery"),
        (
            #""type": "card", "brand": "visa", "last4": "4242""#, #""type": "wallet", "wallet": "STC Pay""#,
            "STC Pay wallet"
        ),
        (#""brand": "visa""#, #""brand": "mastercard""#, "Mastercard •••• 4242"),
    ])
    func methodsArePresentedForPeople(old: String, new: String, label: String) async throws {
        let harness = paymentHarness(payment(replacing: old, with: new))
        await harness.load()
        #expect(harness.card().contains(label))
    }

    @Test func pendingAndRefundedRead() async throws {
        let pending = paymentHarness(payment(replacing: #""paid""#, with: #""pending""#))
        await pending.load()
        #expect(pending.card().contains("… Payment pending"))
        let refunded = paymentHarness(payment(replacing: #""paid""#, with: #""refunded""#))
        await refunded.load()
        #expect(refunded.card().contains("↺ Refunded"))
    }
}

@Suite struct PaymentFailureTests {
    @Test(arguments: [
        (#""logo""#, #""logo_s""#, "missing key 'logo'"),
        (#""last4": "4242""#, #""last4": "42""#, "exactly four last digits"),
        (#""last4": "4242""#, #""last4": "42a2""#, "exactly four last digits"),
        (#""type": "card""#, #""type": "crypto""#, "unknown payment method 'crypto'"),
        (#""paid""#, #""lost""#, "unknown payment status 'lost'"),
        (#""minor": 500, "currency": "SAR""#, #""minor": 500, "currency": "KWD""#, "tip currency KWD differs from SAR"),
        (
            #"{"minor": 4550, "currency": "SAR"}"#, #"{"minor": 4550, "currency": "XXX"}"#,
            "unknown currency or negative amount at amount.currency"
        ),
        (#""minor": 4550"#, #""minor": -1"#, "unknown currency or negative amount at amount.currency"),
        (#""minor": 4550"#, #""minor": 45.5"#, "unexpected payload"),
        (#""refundable": true"#, #""refundable": null"#, "the value must be true or false at refundable"),
        (#""logo": "visa.png""#, #""logo": """#, "logo is empty"),
        // Backend numbers that would overflow: this card's failure, never a trap that takes the screen down.
        (#""minor": 4550"#, #""minor": 9223372036854775707"#, "payment total: amount out of range"),
        (#""minor": 4550"#, #""minor": 18446744073709551616"#, "number out of range at amount.minor"),
        (#""minor": 4550"#, #""minor": 1e30"#, "number out of range at amount.minor"),
    ])
    func everyDecodingOrRuleFailureHides(old: String, new: String, reason: String) async throws {
        let harness = paymentHarness(payment(replacing: old, with: new))
        await harness.load()
        harness.expectPhases([.loading, .failed])
        harness.expectHidden(because: reason)
        #expect(harness.card() == "(nothing)")
    }

    @Test func theOrdersStatusMakesThePaymentCardReload() async throws {
        let harness = paymentHarness(.json(goodPayment))
        await harness.load()
        await harness.expectReaction(.refreshed, to: DomainEvent("order.status", text: "delivered"))
        harness.expectPhases([.loading, .info, .loading, .info])
        #expect(harness.backend.requests == [paymentPath, paymentPath])
    }

    @Test func notJSONAtAll() async throws {
        let harness = paymentHarness(.json("<html>oops"))
        await harness.load()
        harness.expectHidden(because: "not valid JSON")
    }

    @Test(arguments: [
        (BackendError.notFound(path: paymentPath), "orders/1234/payment.json: not found (404)"),
        (BackendError.httpStatus(500, path: paymentPath), "orders/1234/payment.json: server answered HTTP 500"),
        (BackendError.timeout(path: paymentPath), "orders/1234/payment.json: timed out"),
    ])
    func backendFaultsHide(fault: BackendError, reason: String) async throws {
        let harness = paymentHarness(.fault(fault))
        await harness.load()
        harness.expectEvents([.hide(Failure(reason))])
    }

    @Test func aHangingEndpointHidesAtTheDeadline() async throws {
        let harness = paymentHarness(.hang)
        await harness.load()
        harness.expectHidden(because: "no answer within 5s")
    }
}

@Suite struct PaymentValidationTests {
    func verdict(_ answer: CannedAnswer) async -> Verdict? {
        let harness = paymentHarness(answer)
        await harness.load()
        return await harness.verdict(on: .cancelOrder)
    }

    /// The validator hands back what the confirmation needs: how much goes back, and where.
    @Test func refundablePaymentAllowsCancellingAndSaysWhatIsRefunded() async {
        #expect(
            await verdict(.json(goodPayment))
                == .confirm(
                    "refund SAR 50.50 to Visa •••• 4242", facts: ["refund": "SAR 50.50", "method": "Visa •••• 4242"]))
        #expect(
            await verdict(payment(replacing: #""paid""#, with: #""pending""#))
                == .confirm("nothing was charged", facts: ["refund": "none"]))
    }

    @Test func nonRefundablePaymentVetoesWithAReason() async {
        #expect(
            await verdict(payment(replacing: #""refundable": true"#, with: #""refundable": false"#))
                == .veto("The Visa •••• 4242 payment can't be refunded, so the order can't be cancelled here."))
    }

    @Test func refundedPaymentVetoes() async {
        #expect(
            await verdict(payment(replacing: #""paid""#, with: #""refunded""#))
                == .veto("The payment was already refunded."))
    }

}

/// The Payments squad decides what analytics hears about its card; the host only forwards it.
@Suite struct PaymentAnalyticsTests {
    @Test func shownHiddenAndTheCancelAnswerAreRecordedWithoutCardDigits() async {
        let shown = paymentHarness(.json(goodPayment))
        await shown.load()
        _ = await shown.verdict(on: .cancelOrder)
        #expect(
            shown.analytics == [
                AnalyticsEvent("payment_card_shown", ["method": "card", "status": "paid"]),
                AnalyticsEvent("payment_confirmed", ["action": "cancel-order", "refund": "SAR 50.50"]),
            ])
        #expect(!shown.analytics.contains { $0.properties.values.contains { $0.contains("4242") } })
        let broken = paymentHarness(payment(replacing: #""logo""#, with: #""logo_s""#))
        await broken.load()
        #expect(
            broken.analytics == [
                AnalyticsEvent("payment_card_hidden", ["reason": "unexpected payload: missing key 'logo'"])
            ])
        let refunded = paymentHarness(payment(replacing: #""paid""#, with: #""refunded""#))
        await refunded.load()
        _ = await refunded.verdict(on: .cancelOrder)
        #expect(
            refunded.analytics.last
                == AnalyticsEvent(
                    "payment_vetoed", ["action": "cancel-order", "reason": "The payment was already refunded."]))
    }
}

/// A promo code applied on Promo's card reaches Payments as `promo.applied` (a rule, declared in PromoInterface):
/// Payments reloads, works out the discount on its own total and shows the code, the discount and what is due.
@Suite struct PaymentPromoTests {
    let save10 = AnyEventName.promoApplied(
        PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR")!)

    @Test func aPromoReloadsTheCardAndShowsTheDiscountAndTheNewTotal() async throws {
        let harness = paymentHarness(.json(goodPayment))
        await harness.load()
        await harness.expectReaction(.refreshed, to: save10)
        #expect(harness.backend.requests == [paymentPath, paymentPath], "reloaded on the event")
        harness.expectCard(
            """
            ╭─ Payment ────────────────────────────────╮
            │ Visa •••• 4242                 SAR 45.50 │
            │ Tip                             SAR 5.00 │
            │ Promo SAVE10                  − SAR 5.05 │
            │ Total                          SAR 45.45 │
            │ ✓ Paid                                   │
            ╰──────────────────────────────────────────╯
            """)
        let info = try #require(harness.info)
        #expect(info.promo?.code == "SAVE10" && info.due.description == "SAR 45.45")
        #expect(info.total.description == "SAR 50.50", "the total as paid stays what the backend said")
        let refund = await harness.verdict(on: .cancelOrder)
        #expect(
            refund
                == .confirm(
                    "refund SAR 45.45 to Visa •••• 4242", facts: ["refund": "SAR 45.45", "method": "Visa •••• 4242"]))
    }

    @Test func theCapAndTheCurrencyAreRespectedAndASecondCodeReplacesTheFirst() async throws {
        // 10 % of a total too large to multiply safely: the cap, never a trap.
        let large = paymentHarness(
            payment(replacing: #""minor": 4550"#, with: #""minor": 9223372036854775000"#).replacing(tip: nil))
        await large.load()
        _ = await large.send(save10)
        #expect(large.info?.promo?.discount?.minorUnits == 1500, "10 % of a huge total: the cap")
        let harness = paymentHarness(.json(goodPayment))
        await harness.load()
        _ = await harness.send(
            AnyEventName.promoApplied(PromoDiscount(code: "EURO5", percent: 5, capMinorUnits: 500, currency: "EUR")!))
        #expect(harness.info?.promo?.note == "only for EUR orders")
        #expect(harness.card().contains("Promo EURO5") && harness.card().contains("SAR 50.50"))
        _ = await harness.send(save10)
        #expect(harness.info?.promo?.code == "SAVE10")
        #expect(harness.info?.due.description == "SAR 45.45", "from the total as paid, once")
    }

    @Test func aMalformedPromoEventChangesNothing() async throws {
        let harness = paymentHarness(.json(goodPayment))
        await harness.load()
        _ = await harness.send(
            DomainEvent(
                "promo.applied", json: #"{"code":"SAVE10","percent":"ten","capMinorUnits":1500,"currency":"SAR"}"#))
        #expect(harness.info?.promo == nil)
        #expect(harness.card().contains("SAR 50.50"))
    }
}

extension CannedAnswer {
    /// The same payment without a tip.
    fileprivate func replacing(tip: String?) -> CannedAnswer {
        guard case .json(let text) = self else { return self }
        return .json(text.replacingOccurrences(of: #", "tip": {"minor": 500, "currency": "SAR"}"#, with: ""))
    }
}
