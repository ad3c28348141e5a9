import Core
import JSON
import SafeText
import ScreenRuntime

/// What the squads said about one of a screen's actions, in the words a person reads and the object a script reads:
/// `order-tracking cancel` prints it for the tracking screen's `cancel-order`, and the live screen's dialog says the
/// same words. Every sentence is the screen definition's (the action's `allowed`, `vetoed` and `unknown`, filled with
/// the screen's inputs), so no screen's words live here. Fails closed: a validating card that could not load counts
/// as a veto, and no validating card at all is "cannot tell" (never "allowed").
public struct VerdictReport: Sendable {
    /// One validating card's answer; `verdict` is nil when the card could not load (`reason` says why).
    public typealias Entry = (id: ComponentID, verdict: Verdict?, reason: String?)

    let spec: ActionSpec
    let inputs: [String: String]
    let answer: String
    let entries: [Entry]

    /// The report on `spec` for a screen of `inputs` (`["order": "1234"]`), entries in screen order; `answer` is
    /// the JSON key that says whether the action may go (the script's word for it: "cancellable").
    public init(action spec: ActionSpec, inputs: [String: String], answer: String, entries: [Entry]) {
        (self.spec, self.inputs, self.answer, self.entries) = (spec, inputs, answer, entries)
    }

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

    /// One line per card ("payment: ok: refund SAR 42.50 to card …", "order: veto: …") and the outcome in the
    /// definition's words.
    public var lines: [String] { (check.lines + [check.summary(spec)]).map(SafeText.visible) }

    /// `--format json`: the screen's inputs, whether it may go under `answer` (null when nobody could tell), and
    /// every verdict with its reason or confirmation, in one object.
    public var json: JSONValue {
        var fields = inputs.mapValues(JSONValue.string)
        fields[answer] = outcome == .cannotTell ? .null : .bool(outcome == .allowed)
        fields["vetoes"] = .number(Double(vetoes))
        fields["verdicts"] = .array(check.verdicts.map(ActionReport.verdict))
        return .object(fields)
    }

    /// The same answers as the screen's action mechanism adds them up (its per-card words and JSON rows).
    private var check: ActionCheck {
        ActionCheck(
            action: spec.id, verdicts: entries.map { ActionVerdict(id: $0.id, verdict: $0.verdict, reason: $0.reason) },
            inputs: inputs)
    }
}
