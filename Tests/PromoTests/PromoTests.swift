import Core
import CoreTesting
import Faces
import Promo
import Testing

/// The Promo squad's card alone: the code it is given, its own endpoint, what it announces.
@Suite struct PromoTests {
    static let save10 = #"{"code": "SAVE10", "percent_off": 10, "cap": {"minor": 1500, "currency": "SAR"}}"#

    func harness(_ code: String?, answers: [String: CannedAnswer] = ["promos/SAVE10.json": .json(save10)])
        -> ComponentHarness<PromoComponent>
    {
        ComponentHarness(PromoComponent(input: PromoInput(code: code)), answers: answers)
    }

    @Test func withoutACodeTheCardInvitesOneAndFetchesNothing() async {
        let promo = harness(nil)
        await promo.load()
        promo.expectPhases([.loading, .info])
        #expect(promo.card().contains("No code yet"))
        #expect(promo.backend.requests.isEmpty)
        #expect(promo.events.allSatisfy { if case .domain = $0 { false } else { true } })
    }

    @Test func aKnownCodeIsShownAndItsDiscountAnnouncedOnce() async throws {
        let promo = harness(" save10 ")
        await promo.load()
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
            let promo = harness(code)
            await promo.load()
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
        let promo = harness("SAVE10", answers: ["promos/SAVE10.json": answer])
        await promo.load()
        promo.expectPhases([.loading, .failed])
        let hidden = promo.events.compactMap { if case .hide(let failure) = $0 { failure.reason } else { nil } }
        #expect(hidden.count == 1 && hidden[0].contains(reason), "\(hidden)")
    }

    @Test func aTimeoutHidesOnlyThePromoAnswer() async {
        let promo = ComponentHarness(
            PromoComponent(input: PromoInput(code: "SAVE10")), answers: ["promos/SAVE10.json": .hang],
            timeout: .seconds(2))
        await promo.load()
        promo.expectHidden(because: "no answer within 2s")
    }

    @Test func anotherCodeOnTheNextLoadReplacesTheFirst() async {
        let input = PromoInput(code: "NOPE42")
        let promo = ComponentHarness(
            PromoComponent(input: input), answers: ["promos/SAVE10.json": .json(Self.save10)])
        await promo.load()
        #expect(promo.card().contains("NOPE42 is not recognised"))
        input.submit("SAVE10")
        await promo.reload()
        #expect(promo.card().contains("✓ SAVE10"))
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
