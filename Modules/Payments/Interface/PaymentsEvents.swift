import Core
import Foundation

/// The events the Payments squad takes from people (its `PaymentMethodComponent.inputEvents`), declared in its
/// interface target so a screen's prompt and a host name them by importing PaymentsInterface, never Payments.
extension AnyEventName {
    /// A person chose how to pay (the checkout's `m` prompt, `--method ID`).
    public static let paymentMethodChosen = EventName<PaymentMethodChoice>("payment.method.chosen")
}

/// What a person chose to pay with: a saved method's number on the card ("2") or its id ("visa-4242"). Typed,
/// so the card never guesses which one a text meant.
public enum PaymentMethodChoice: Sendable, Equatable, Codable, EventPayload {
    /// The method at this position on the card, from 1.
    case number(Int)
    /// The saved method with this id.
    case id(String)

    /// A number when the text is one, otherwise an id; nothing for blank text.
    public init?(text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        self = Int(text).map(PaymentMethodChoice.number) ?? .id(text)
    }
}
