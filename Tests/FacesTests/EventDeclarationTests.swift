import Core
import Faces
import Testing

/// The events squads publish to each other are declared here, each under its publisher's namespace, so a
/// consumer names them through the declaration and never by importing the publisher.
@Suite struct EventDeclarationTests {
    static let declared: [(name: AnyEventName, publisher: String)] = [
        (.orderStatus, "order."), (.deliveryHandedOver, "delivery."), (.paymentMethodChosen, "payment."),
        (.promoApplied, "promo."), (.promoEntered, "promo."),
    ]

    @Test func eachNameIsItsPublishersAndDistinct() {
        for (name, publisher) in Self.declared {
            #expect(name.rawValue.hasPrefix(publisher), "\(name.rawValue)")
        }
        #expect(Set(Self.declared.map(\.name.rawValue)).count == Self.declared.count)
    }

    @Test func aDeclaredNameBuildsItsEventAndReadsItsPayloadTyped() {
        let delivered = AnyEventName.orderStatus(.delivered)
        #expect(delivered == DomainEvent("order.status", json: #""delivered""#))
        #expect(delivered.description == "order.status=delivered", "a string payload reads as its text in traces")
        #expect(delivered.payload(of: .orderStatus) == .delivered)
        #expect(delivered.payload(of: .promoEntered) == nil, "another event's name reads as no payload")
        #expect(DomainEvent("order.status", json: #""lost""#).payload(of: .orderStatus) == nil, "a bad payload")
        #expect(DomainEvent("order.status", json: "{").payload(of: .orderStatus) == nil, "not JSON at all")
        let handedOver = AnyEventName.deliveryHandedOver(true)
        #expect(handedOver.payload == "true" && handedOver.description == "delivery.handed_over=true")
    }

    /// A person types a value (`--event NAME=VALUE`, a prompt); the payload's declaration reads it.
    @Test func aPersonsTextIsReadByThePayloadsDeclaration() throws {
        #expect(DomainEvent("order.status", text: "on_the_way").payload(of: .orderStatus) == .onTheWay)
        #expect(DomainEvent("delivery.handed_over", text: "true").payload(of: .deliveryHandedOver) == true)
        #expect(DomainEvent("delivery.handed_over", text: "yes").payload(of: .deliveryHandedOver) == nil)
        #expect(DomainEvent("payment.method.chosen", text: "2").payload(of: .paymentMethodChosen) == .number(2))
        #expect(
            DomainEvent("payment.method.chosen", text: "visa4242").payload(of: .paymentMethodChosen) == .id("visa4242"))
        #expect(DomainEvent("payment.method.chosen", text: " ").payload(of: .paymentMethodChosen) == nil)
        #expect(
            DomainEvent("promo.entered", text: "123").payload(of: .promoEntered) == "123", "a code of digits stays text"
        )
        let rule = #"{"capMinorUnits":1500,"code":"SAVE10","currency":"SAR","percent":10}"#
        let typed = try #require(DomainEvent("promo.applied", text: rule).payload(of: .promoApplied))
        #expect(typed == PromoDiscount(code: "SAVE10", percent: 10, capMinorUnits: 1500, currency: "SAR"))
        #expect(DomainEvent("promo.applied", text: "SAVE10 10 1500 SAR").payload(of: .promoApplied) == nil)
    }
}
