import Core
import JSON
import SafeText

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

    /// How many said no (or could not answer).
    public var vetoes: Int { entries.filter { Self.isVeto($0.verdict) }.count }

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
        if entries.isEmpty { return .cannotTell }
        return vetoes == 0 ? .allowed : .vetoed
    }

    /// One line per card ("payment: ok: refund SAR 42.50 to card …", "order: veto: …") and the outcome.
    public var lines: [String] {
        var lines = entries.map { entry in
            let id = entry.id.rawValue
            switch entry.verdict {
            case .allow?: return "\(id): ok"
            case .confirm(let summary, _)?: return "\(id): ok: \(summary)"
            case .veto(let reason)?: return "\(id): veto: \(reason)"
            case nil: return "\(id): veto: could not check (\(entry.reason ?? "not loaded"))"
            }
        }
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
        let rows: [JSONValue] = entries.map { entry in
            var row: [String: JSONValue] = [
                "id": .string(entry.id.rawValue), "verdict": .string("veto"), "reason": .null, "confirmation": .null,
            ]
            switch entry.verdict {
            case .allow?: row["verdict"] = .string("allow")
            case .confirm(let summary, let facts)?:
                row["verdict"] = .string("allow")
                row["confirmation"] = .object([
                    "summary": .string(summary), "facts": .object(facts.mapValues(JSONValue.string)),
                ])
            case .veto(let reason)?: row["reason"] = .string(reason)
            case nil: row["reason"] = .string("could not check (\(entry.reason ?? "not loaded"))")
            }
            return .object(row)
        }
        return .object([
            "order": .string(order), "cancellable": outcome == .cannotTell ? .null : .bool(outcome == .allowed),
            "vetoes": .number(Double(vetoes)),
            "verdicts": .array(rows),
        ])
    }

    /// Fails closed: a veto, or no verdict at all (the component could not load), stops the action.
    public static func isVeto(_ verdict: Verdict?) -> Bool {
        switch verdict {
        case .allow?, .confirm?: false
        case .veto?, nil: true
        }
    }
}
