import Core

/// How an action reads a card's facts: which are sent, which the cards must agree on, and how two values compare
/// (each as its kind: a currency in another letter case is no disagreement). The runtime's rules, not the squads'
/// (a squad only gives facts), so they live beside the check that applies them.
extension Fact {
    /// Whether an action sends it (texts, currencies and integers are sent; words and agreed amounts are not).
    public var isSent: Bool {
        switch self {
        case .words, .agreed: false
        case .text, .integer, .currency: true
        }
    }

    /// Whether cards must agree on it: every sent fact, and an agreed amount.
    var isCompared: Bool { isSent || isAgreed }

    /// Whether it is an amount the cards cross-check and nobody is shown or sent.
    var isAgreed: Bool {
        if case .agreed = self { return true }
        return false
    }

    /// Whether `other` is the same value as this, compared as its kind: a currency in any letter case, an agreed
    /// amount by its minor units, anything else exactly.
    func agrees(with other: Fact) -> Bool {
        switch (self, other) {
        case (.currency(let one), .currency(let two)): one.uppercased() == two.uppercased()
        case (.agreed(let one, _), .agreed(let two, _)): one == two
        default: self == other
        }
    }

    /// Whether an answer's `text` says this sent value, compared as its kind (a currency in any letter case).
    func isSaid(by text: String) -> Bool {
        if case .currency(let code) = self { return code.uppercased() == text.uppercased() }
        return description == text
    }
}
