import Core
import JSON
import SafeText
import ScreenRuntime

/// What the squads said about a user action (cancelling an order), in the words a person reads and the object a
/// script reads: `order-tracking cancel` prints it, and the live screen's cancel dialog says the same words.
/// Fails closed: a validating card that could not load counts as a veto, and no validating card at all is "cannot
/// tell" (never "can be cancelled").
public struct VerdictReport: Sendable {
    /// One validating card's answer; `verdict` is nil when the card could not load (`reason` says why).
    public typealias Entry = (id: ComponentID, verdict: Verdict?, reason: String?)

    let order: String
    let entries: [Entry]

    /// The report for `order`, entries in screen order.
    public init(order: String, entries: [Entry]) { (self.order, self.entries) = (order, entries) }

    /// How many said no (or could not answer), as the action mechanism counts them.
    public var vetoes: Int { check.vetoes }

    /// What the squads' answers add up to. Nobody to ask is never a yes: silence is `.cannotTell`.
    public enum Outcome: Sendable, Equatable {
        /// At least one card answered and none vetoed.
        case allowed
        /// At least one card vetoed or could not answer.
        case vetoed
        /// No card on the screen answers for this action (no `Validatable` card on the screen).
        case cannotTell
    }

    /// The outcome: allowed only with at least one verdict and no veto.
    public var outcome: Outcome {
        switch check.outcome {
        case .allowed: .allowed
        case .vetoed: .vetoed
        case .cannotTell: .cannotTell
        }
    }

    /// One line per card ("payment: ok: refund SAR 42.50 to card …", "order: veto: …") and the outcome.
    public var lines: [String] {
        var lines = check.lines
        let plural = vetoes == 1 ? "veto" : "vetoes"
        switch outcome {
        case .allowed: lines.append("Order \(order) can be cancelled.")
        case .vetoed: lines.append("Order \(order) can't be cancelled (\(vetoes) \(plural)).")
        case .cannotTell:
            lines.append(
                "Cannot tell whether order \(order) can be cancelled: no card on its screen answers for cancelling.")
        }
        return lines.map(SafeText.visible)
    }

    /// `cancel --format json`: every verdict with its reason or confirmation, in one object.
    public var json: JSONValue {
        return .object([
            "order": .string(order), "cancellable": outcome == .cannotTell ? .null : .bool(outcome == .allowed),
            "vetoes": .number(Double(vetoes)),
            "verdicts": .array(check.verdicts.map(ActionReport.verdict)),
        ])
    }

    /// The same answers as the screen's action mechanism adds them up (its per-card words and JSON rows).
    private var check: ActionCheck {
        ActionCheck(
            action: UserAction.cancelOrder.name,
            verdicts: entries.map { ActionVerdict(id: $0.id, verdict: $0.verdict, reason: $0.reason) })
    }

}
