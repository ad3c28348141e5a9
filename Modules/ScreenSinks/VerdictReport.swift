import Core
import JSON
import SafeText

/// What the squads said about a user action (cancelling an order), in the words a person reads and the object a
/// script reads: `order-tracking cancel` prints it, and the live screen's cancel dialog says the same words.
/// Fails closed: a validating card that could not load counts as a veto.
public struct VerdictReport: Sendable {
    /// One validating card's answer; `verdict` is nil when the card could not load (`reason` says why).
    public typealias Entry = (id: ComponentID, verdict: Verdict?, reason: String?)

    let order: String
    let entries: [Entry]

    /// The report for `order`, entries in screen order.
    public init(order: String, entries: [Entry]) { (self.order, self.entries) = (order, entries) }

    /// How many said no (or could not answer).
    public var vetoes: Int { entries.filter { Self.isVeto($0.verdict) }.count }

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
        lines.append(
            vetoes == 0
                ? "Order \(order) can be cancelled." : "Order \(order) can't be cancelled (\(vetoes) \(plural)).")
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
            "order": .string(order), "cancellable": .bool(vetoes == 0), "vetoes": .number(Double(vetoes)),
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
