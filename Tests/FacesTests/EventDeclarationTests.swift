import Core
import Faces
import Testing

/// The events squads publish to each other are declared here, each under its publisher's namespace, so a
/// consumer names them through the declaration and never by importing the publisher.
@Suite struct EventDeclarationTests {
    static let declared: [(name: EventName, publisher: String)] = [
        (.orderStatus, "order."), (.deliveryHandedOver, "delivery."), (.paymentMethodChosen, "payment."),
        (.promoApplied, "promo."), (.promoEntered, "promo."),
    ]

    @Test func eachNameIsItsPublishersAndDistinct() {
        for (name, publisher) in Self.declared {
            #expect(name.rawValue.hasPrefix(publisher), "\(name.rawValue)")
        }
        #expect(Set(Self.declared.map(\.name.rawValue)).count == Self.declared.count)
    }

    @Test func aDeclaredNameBuildsItsEvent() {
        #expect(EventName.orderStatus("delivered") == DomainEvent("order.status", "delivered"))
    }
}
