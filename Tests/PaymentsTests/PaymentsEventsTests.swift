import Core
import PaymentsInterface
import Testing

/// The event a person sends Payments (the checkout's method prompt) is declared in PaymentsInterface under
/// Payments' namespace, so a host names it by importing the interface, never Payments.
@Suite struct PaymentsEventsTests {
    @Test func aPersonsTextIsReadByTheMethodDeclaration() {
        #expect(AnyEventName.paymentMethodChosen.rawValue == "payment.method.chosen")
        #expect(
            DomainEvent("payment.method.chosen", text: "2").payload(of: .paymentMethodChosen)
                == PaymentMethodChoice(id: "2"), "an id, never a position")
        #expect(
            DomainEvent("payment.method.chosen", text: "visa4242").payload(of: .paymentMethodChosen)
                == PaymentMethodChoice(id: "visa4242"))
        #expect(DomainEvent("payment.method.chosen", text: " ").payload(of: .paymentMethodChosen) == nil)
        #expect(DomainEvent("order.status", text: "2").payload(of: .paymentMethodChosen) == nil, "another event")
    }
}
