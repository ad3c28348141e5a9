import Core

/// The events the Payments squad takes from people (its `PaymentMethodComponent.inputEvents`), declared beside
/// the faces so a screen's prompt can name them. Owned by @courier/payments (CODEOWNERS).
extension EventName {
    /// A person chose how to pay (the checkout's `m` prompt, `--method ID`); the value is a saved method's id or
    /// its number on the card ("2").
    public static let paymentMethodChosen: EventName = "payment.method.chosen"
}
