import Core
import LocationInterface
import Testing

/// The event Location publishes is declared in LocationInterface under Location's namespace, so Order names it
/// by importing the interface, never Location.
@Suite struct LocationEventsTests {
    @Test func theHandOverEventIsLocationsAndReadsItsPayloadTyped() {
        #expect(AnyEventName.deliveryHandedOver.rawValue == "delivery.handed_over")
        let handedOver = AnyEventName.deliveryHandedOver(true)
        #expect(handedOver.payload == "true" && handedOver.description == "delivery.handed_over=true")
        #expect(DomainEvent("delivery.handed_over", text: "true").payload(of: .deliveryHandedOver) == true)
        #expect(DomainEvent("delivery.handed_over", text: "yes").payload(of: .deliveryHandedOver) == nil)
    }
}
