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
        /// A card vetoed it (or could not check): nothing was sent.
        case vetoed
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
        case .checked(let check, _): check.outcome == .cannotTell ? .cannotTell : .vetoed
        case .failed: .failed
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
        case .unknown(let action, let reason, let line, _, _): lines = ["\(action): \(reason)", line]
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
        case .sending(let request, let verdicts):
            (action["id"], action["reason"]) = (.string(request.action), .string("no answer before the run ended"))
            (action["verdicts"], action["sent"]) = (.array(verdicts.map(Self.verdict)), strings(request.facts))
        case .done(let id, let facts, _, let result, let verdicts, let unread):
            (action["id"], action["verdicts"]) = (.string(id), .array(verdicts.map(Self.verdict)))
            if let unread { action["reason"] = .string("the answer could not be read: \(unread)") }
            fields.append((result, strings(facts).text))
        case .failed(let id, let reason, let verdicts):
            (action["id"], action["reason"]) = (.string(id), .string(reason))
            action["verdicts"] = .array(verdicts.map(Self.verdict))
        case .unknown(let id, let reason, let line, let facts, let verdicts):
            (action["id"], action["reason"]) = (.string(id), .string("\(reason). \(line)"))
            (action["verdicts"], action["sent"]) = (.array(verdicts.map(Self.verdict)), strings(facts))
        }
        return [("action", JSONValue.object(action).text)] + fields
    }

    private var outcomeName: String {
        switch ending {
        case .done: "done"
        case .vetoed: "vetoed"
        case .cannotTell: "cannot-tell"
        case .failed: "failed"
        case .unknown: "unknown"
        }
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
                "summary": .string(summary), "facts": .object(facts.mapValues(JSONValue.string)),
            ])
        case .veto(let reason)?: row["reason"] = .string(reason)
        case nil: row["reason"] = .string("could not check (\(entry.reason ?? "not loaded"))")
        }
        return .object(row)
    }
}
