import Core
import PromoInterface
import Testing

/// The events Promo publishes are declared in PromoInterface under Promo's namespace, with the rule they carry,
/// so Payments applies a code by importing the interface, never Promo.
@Suite struct PromoEventsTests {
    @Test func theNamesArePromosAndDistinct() {
        #expect(AnyEventName.promoApplied.rawValue == "promo.applied")
        #expect(AnyEventName.promoEntered.rawValue == "promo.entered")
    }

    /// A person types a value (`--event NAME=VALUE`, a prompt); the payload's declaration reads it.
    @Test func aPersonsTextIsReadByThePayloadsDeclaration() throws {
        #expect(
            DomainEvent("promo.entered", text: "123").payload(of: .promoEntered) == "123", "a code of digits stays text"
        )
        let rule = #"{"capMinorUnits":1500,"code":"SAVE10","currency":"SAR","percent":10}"#
        let typed = try #require(DomainEvent("promo.applied", text: rule).payload(of: .promoApplied))
        #expect(typed == PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR"))
        #expect(DomainEvent("promo.applied", text: "SAVE10 10 1500 SAR").payload(of: .promoApplied) == nil)
        #expect(DomainEvent("promo.entered", text: "SAVE10").payload(of: .promoApplied) == nil, "another event")
    }
}
