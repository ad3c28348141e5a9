import Core
import Foundation

/// The events the Payments squad takes from people (its `PaymentMethodComponent.inputEvents`), declared in its
/// interface target so a screen's prompt and a host name them by importing PaymentsInterface, never Payments.
extension AnyEventName {
    /// A person chose how to pay (the checkout's `m` prompt, `--method ID`).
    public static let paymentMethodChosen = EventName<PaymentMethodChoice>("payment.method.chosen")
}

/// What a person chose to pay with: a saved method's id, compared exactly ("1" is the method whose id is "1",
/// never the first on the card, so a choice can never pay with another method than the one named).
public struct PaymentMethodChoice: Sendable, Equatable, Codable, EventPayload {
    /// The saved method's id, as the person gave it.
    public let id: String

    /// The choice of the method whose id is `id`.
    public init(id: String) { self.id = id }

    /// The id the text names (spaces around it aside); nothing for blank text.
    public init?(text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        self.id = text
    }
}
