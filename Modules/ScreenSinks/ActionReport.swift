import Core
import JSON
import SafeText
import ScreenRuntime

/// A person's action on a screen (pay, cancel) as the outputs say it: lines after the frame, fields in the JSON
/// report (`action`, and on success the action's result key: `"paid": {"order": "4242", …facts}`), and what it
/// means for the exit status.
public struct ActionReport: Sendable {
    let progress: ActionProgress

    /// The report of `progress`, or nil when no action was asked for.
    public init?(_ progress: ActionProgress?) {
        guard let progress else { return nil }
        self.progress = progress
    }

    /// How the action ended, for the exit status.
    public enum Ending: Sendable, Equatable {
        /// Done (sent and answered, or nothing to send).
        case done
        /// A card vetoed it (or could not check, or the cards disagree): nothing was sent.
        case vetoed
        /// An input a person gave (a promo code) is not in what would be sent: nothing was sent.
        case incomplete
        /// An earlier attempt to the same place holds another request and its outcome is unknown: nothing was sent.
        case pending
        /// No card answers for it: nothing was sent.
        case cannotTell
        /// Nothing was sent, or the backend refused it (or the screen failed first).
        case failed
        /// It was sent and nothing says how it ended: it may have gone through (never called a failure).
        case unknown
    }

    /// How it ended. A run that ended while the send was still under way cannot know either.
    public var ending: Ending {
        switch progress {
        case .checked(let check, _):
            switch check.outcome {
            case .cannotTell: .cannotTell
            case .allowed where !check.missing.isEmpty: .incomplete
            case .allowed, .vetoed: .vetoed
            }
        case .failed: .failed
        case .pending: .pending
        case .sending, .unknown: .unknown
        case .done: .done
        }
    }

    /// What a person reads after the frame: the verdicts and the outcome, or the done line, or why it failed, or
    /// why nobody knows and what to do before trying again.
    public var lines: [String] {
        let lines: [String]
        switch progress {
        case .checked(let check, let summary): lines = check.lines + [summary]
        case .sending(let request, _):
            lines = [
                "\(request.action): no answer before the run ended: it may have gone through: check before trying again"
            ]
        case .done(_, _, let line, _, _, _): lines = [line]
        case .failed(let action, let reason, _): lines = ["\(action) failed: \(reason)"]
        case .unknown(let action, let reason, let line, _, _, _): lines = ["\(action): \(reason)", line]
        case .pending(let action, let reason, _): lines = ["\(action) not sent: \(reason)"]
        }
        return lines.map(SafeText.visible)
    }

    /// The JSON report's fields: `action` always (with the verdicts the action went ahead on, or stopped at),
    /// the result's key when it is done, and for an unknown outcome the facts that were sent (`sent`).
    var jsonFields: [(String, String)] {
        var action: [String: JSONValue] = ["outcome": .string(outcomeName), "verdicts": .array([]), "reason": .null]
        var fields: [(String, String)] = []
        func strings(_ facts: [String: String]) -> JSONValue { .object(facts.mapValues(JSONValue.string)) }
        switch progress {
        case .checked(let check, let summary):
            action["id"] = .string(check.action)
            action["verdicts"] = .array(check.verdicts.map(Self.verdict))
            action["reason"] = .string(summary)
            if !check.missing.isEmpty {
                action["missing"] = .array(
                    check.missing.map {
                        .object(["name": .string($0.name), "value": .string($0.value), "why": .string($0.why)])
                    })
            }
        case .sending(let request, let verdicts):
            (action["id"], action["reason"]) = (.string(request.action), .string("no answer before the run ended"))
            (action["verdicts"], action["sent"]) = (.array(verdicts.map(Self.verdict)), strings(request.sent))
        case .done(let id, let facts, _, let result, let verdicts, let unread):
            (action["id"], action["verdicts"]) = (.string(id), .array(verdicts.map(Self.verdict)))
            if let unread { action["reason"] = .string("the answer could not be read: \(unread)") }
            fields.append((result, strings(facts).text))
        case .failed(let id, let reason, let verdicts):
            (action["id"], action["reason"]) = (.string(id), .string(reason))
            action["verdicts"] = .array(verdicts.map(Self.verdict))
        case .unknown(let id, let reason, let line, let facts, let verdicts, let contradicted):
            (action["id"], action["reason"]) = (.string(id), .string("\(reason). \(line)"))
            (action["verdicts"], action["sent"]) = (.array(verdicts.map(Self.verdict)), strings(facts))
            if !contradicted.isEmpty { action["contradicted"] = strings(contradicted) }
        case .pending(let id, let reason, let verdicts):
            (action["id"], action["reason"]) = (.string(id), .string(reason))
            action["verdicts"] = .array(verdicts.map(Self.verdict))
        }
        return [("action", JSONValue.object(action).text)] + fields
    }

    private var outcomeName: String {
        switch ending {
        case .done: "done"
        case .vetoed: "vetoed"
        case .incomplete: "incomplete"
        case .pending: "pending"
        case .cannotTell: "cannot-tell"
        case .failed: "failed"
        case .unknown: "unknown"
        }
    }

    /// A fact as JSON: a sent integer as a number, anything else as its text.
    static func fact(_ fact: Fact) -> JSONValue {
        if case .integer(let number) = fact { return .number(Double(number)) }
        return .string(fact.description)
    }

    /// One card's answer as the JSON reports write it (`cancel --format json` and an action's `verdicts`).
    static func verdict(_ entry: ActionVerdict) -> JSONValue {
        var row: [String: JSONValue] = [
            "id": .string(entry.id.rawValue), "verdict": .string("veto"), "reason": .null, "confirmation": .null,
        ]
        switch entry.verdict {
        case .allow?: row["verdict"] = .string("allow")
        case .confirm(let summary, let facts)?:
            row["verdict"] = .string("allow")
            row["confirmation"] = .object([
                "summary": .string(summary), "facts": .object(facts.mapValues(Self.fact)),
            ])
        case .veto(let reason)?: row["reason"] = .string(reason)
        case nil: row["reason"] = .string("could not check (\(entry.reason ?? "not loaded"))")
        }
        return .object(row)
    }
}
