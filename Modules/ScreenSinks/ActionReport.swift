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
        /// The send failed, or the screen failed first.
        case failed
    }

    /// How it ended.
    public var ending: Ending {
        switch progress {
        case .checked(let check, _): check.outcome == .cannotTell ? .cannotTell : .vetoed
        case .sending, .failed: .failed
        case .done: .done
        }
    }

    /// What a person reads after the frame: the verdicts and the outcome, or the done line, or why it failed.
    public var lines: [String] {
        let lines: [String]
        switch progress {
        case .checked(let check, let summary): lines = check.lines + [summary]
        case .sending(let request): lines = ["\(request.action): no answer; it may or may not have gone through"]
        case .done(_, _, let line, _): lines = [line]
        case .failed(let action, let reason): lines = ["\(action) failed: \(reason)"]
        }
        return lines.map(SafeText.visible)
    }

    /// The JSON report's fields: `action` always, and the result's key when it is done.
    var jsonFields: [(String, String)] {
        var action: [String: JSONValue] = ["outcome": .string(outcomeName), "verdicts": .array([]), "reason": .null]
        var fields: [(String, String)] = []
        switch progress {
        case .checked(let check, let summary):
            action["id"] = .string(check.action)
            action["verdicts"] = .array(check.verdicts.map(Self.verdict))
            action["reason"] = .string(summary)
        case .sending(let request):
            action["id"] = .string(request.action)
            action["reason"] = .string("no answer")
        case .done(let id, let facts, _, let result):
            action["id"] = .string(id)
            fields.append((result, JSONValue.object(facts.mapValues(JSONValue.string)).text))
        case .failed(let id, let reason):
            (action["id"], action["reason"]) = (.string(id), .string(reason))
        }
        return [("action", JSONValue.object(action).text)] + fields
    }

    private var outcomeName: String {
        switch ending {
        case .done: "done"
        case .vetoed: "vetoed"
        case .cannotTell: "cannot-tell"
        case .failed: "failed"
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
