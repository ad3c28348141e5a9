import Core
import CoreTesting
import Promo
import PromoInterface
import Testing

/// The Promo squad's card alone: the code it is given (a `promo.entered` the screen keeps and hands to each load
/// in the card's context), its own endpoint, what it announces.
@Suite struct PromoTests {
    static let save10 = #"{"code": "SAVE10", "percent_off": 10, "cap": {"minor": 1500, "currency": "SAR"}}"#

    /// The card loaded with `code` in its context: the code sent to the open screen, which loads the card as it
    /// declared (it refreshes on `promo.entered`); without a code, loaded as a screen's start does.
    func loaded(
        _ code: String?, answers: [String: CannedAnswer] = ["promos/SAVE10.json": .json(save10)],
        timeout: Duration = .seconds(5)
    ) async -> ComponentHarness<PromoComponent> {
        let promo = ComponentHarness(PromoComponent(), answers: answers, timeout: timeout)
        if let code {
            #expect(await promo.send(AnyEventName.promoEntered(code)) == .refreshed)
        } else {
            await promo.load()
        }
        return promo
    }

    @Test func withoutACodeTheCardInvitesOneAndFetchesNothing() async {
        let promo = await loaded(nil)
        promo.expectPhases([.loading, .info])
        #expect(promo.card().contains("No code yet"))
        #expect(promo.backend.requests.isEmpty)
        #expect(promo.events.allSatisfy { if case .domain = $0 { false } else { true } })
    }

    @Test func aKnownCodeIsShownAndItsDiscountAnnouncedOnce() async throws {
        let promo = await loaded(" save10 ")
        #expect(promo.backend.requests == ["promos/SAVE10.json"], "trimmed and upper-cased before the lookup")
        #expect(promo.card().contains("✓ SAVE10"))
        #expect(promo.card().contains("10% off, up to SAR 15.00"))
        let announced = promo.events.compactMap { if case .domain(let event) = $0 { event } else { nil } }
        let rule = try #require(PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR"))
        #expect(announced == [AnyEventName.promoApplied(rule)])
        #expect(announced[0].payload == #"{"capMinorUnits":1500,"code":"SAVE10","currency":"SAR","percent":10}"#)
        #expect(announced[0].payload(of: .promoApplied) == rule)
    }

    @Test func anUnknownCodeIsSaidOnTheCardAndAnnouncesNothing() async {
        for code in ["NOPE42", "x!y", String(repeating: "A", count: 100)] {
            let promo = await loaded(code)
            promo.expectPhases([.loading, .info])
            #expect(promo.card().contains("is not recognised"), "\(code)")
            #expect(promo.events.allSatisfy { if case .domain = $0 { false } else { true } })
        }
    }

    @Test(arguments: [
        (CannedAnswer.fault(.httpStatus(503, path: "promos/SAVE10.json")), "server answered HTTP 503"),
        (.json("garbage"), "not valid JSON"),
        (.json(#"{"code": "SAVE10", "percent_off": 900, "cap": {"minor": 1500, "currency": "SAR"}}"#), "percent_off"),
        (.json(#"{"code": "OTHER", "percent_off": 10, "cap": {"minor": 1500, "currency": "SAR"}}"#), "not SAVE10"),
    ])
    func aFailingLookupIsThePromoCardsOwnFailureWithItsReason(answer: CannedAnswer, reason: String) async {
        let promo = await loaded("SAVE10", answers: ["promos/SAVE10.json": answer])
        promo.expectPhases([.loading, .failed])
        let hidden = promo.events.compactMap { if case .hide(let failure) = $0 { failure.reason } else { nil } }
        #expect(hidden.count == 1 && hidden[0].contains(reason), "\(hidden)")
    }

    @Test func aTimeoutHidesOnlyThePromoAnswer() async {
        let promo = await loaded("SAVE10", answers: ["promos/SAVE10.json": .hang], timeout: .seconds(2))
        promo.expectHidden(because: "no answer within 2s")
    }

    @Test func anotherCodeTypedReloadsTheCardWithItInItsContext() async {
        let promo = await loaded("NOPE42")
        #expect(promo.card().contains("NOPE42 is not recognised"))
        #expect(await promo.send(AnyEventName.promoEntered("save10")) == .refreshed)
        #expect(promo.card().contains("✓ SAVE10"))
        #expect(promo.backend.requests == ["promos/NOPE42.json", "promos/SAVE10.json"], "one lookup per code")
        await promo.reload()
        #expect(promo.card().contains("✓ SAVE10"), "a reload keeps the latest code: it lives in the screen's state")
    }

    @Test func theWireFormatIsStrict() {
        let wire = { (fields: String) in DomainEvent("promo.applied", json: "{\(fields)}") }
        #expect(
            wire(#""code":"SAVE10","percent":10,"capMinorUnits":1500,"currency":"SAR""#).payload(of: .promoApplied)
                != nil)
        for fields in [
            #""code":"SAVE10","percent":10,"capMinorUnits":1500"#,
            #""code":"SAVE10","percent":0,"capMinorUnits":1500,"currency":"SAR""#,
            #""code":"SAVE10","percent":10,"capMinorUnits":-5,"currency":"SAR""#,
            #""code":"SAVE10","percent":10,"capMinorUnits":1500,"currency":"sar""#,
            #""code":"a b","percent":10,"capMinorUnits":1500,"currency":"SAR""#,
            #""code":"SAVE10","percent":"10","capMinorUnits":1500,"currency":"SAR""#,
        ] {
            #expect(wire(fields).payload(of: .promoApplied) == nil, "\(fields)")
        }
        let good = #"{"code":"SAVE10","percent":10,"capMinorUnits":1500,"currency":"SAR"}"#
        #expect(DomainEvent("order.status", json: good).payload(of: .promoApplied) == nil, "another event's name")
    }
}
