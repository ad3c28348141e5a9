import Core
import OrderInterface
import Testing

/// The events Order publishes are declared in OrderInterface under Order's namespace, so a consumer (the rider
/// card) names them and reads them typed by importing the interface, never Order.
@Suite struct OrderEventsTests {
    @Test func theStatusEventIsOrdersAndReadsItsPayloadTyped() {
        #expect(AnyEventName.orderStatus.rawValue == "order.status")
        let delivered = AnyEventName.orderStatus(.delivered)
        #expect(delivered == DomainEvent("order.status", json: #""delivered""#))
        #expect(delivered.description == "order.status=delivered", "a string payload reads as its text in traces")
        #expect(delivered.payload(of: .orderStatus) == .delivered)
        #expect(DomainEvent("order.status", json: #""lost""#).payload(of: .orderStatus) == nil, "a bad payload")
        #expect(DomainEvent("order.status", json: "{").payload(of: .orderStatus) == nil, "not JSON at all")
    }

    /// A person types a value (`--event NAME=VALUE`, a prompt); the payload's declaration reads it.
    @Test func aPersonsTextIsReadByTheStatusDeclaration() {
        #expect(DomainEvent("order.status", text: "on_the_way").payload(of: .orderStatus) == .onTheWay)
        #expect(OrderStatus.preparing < .onTheWay && OrderStatus.delivered > .placed, "cases are the timeline")
    }
}
