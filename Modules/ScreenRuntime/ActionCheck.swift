import Core
import Foundation

/// One validating card's answer on an action; `verdict` is nil when it could not check (it has no info).
public struct ActionVerdict: Sendable, Equatable {
    /// The card.
    public let id: ComponentID
    /// What it said, or nil: it could not load, so it could not check.
    public let verdict: Verdict?
    /// Why it has no info, when it has none.
    public let reason: String?

    /// An answer.
    public init(id: ComponentID, verdict: Verdict?, reason: String?) {
        (self.id, self.verdict, self.reason) = (id, verdict, reason)
    }

    /// Fails closed: a veto, or no verdict at all, stops the action.
    public var isVeto: Bool {
        switch verdict {
        case .allow?, .confirm?: false
        case .veto?, nil: true
        }
    }
}

/// What a screen's validating cards said about an action, added up so that silence is never a yes: one veto (or
/// a card that could not check) stops it, no validating card at all is "cannot tell", and two cards giving one
/// fact different values (two amounts) stop it too. The confirmations' facts are the action's typed output.
public struct ActionCheck: Sendable, Equatable {
    /// The action asked about.
    public let action: String
    /// Each validating card's answer, in screen order.
    public let verdicts: [ActionVerdict]

    /// What the answers add up to.
    public enum Outcome: Sendable, Equatable {
        /// At least one card answered, none vetoed and the facts agree.
        case allowed
        /// A card vetoed, could not check, or the facts disagree.
        case vetoed
        /// No card on the screen answers for this action.
        case cannotTell
    }

    /// The answers of `verdicts` on `action`.
    public init(action: String, verdicts: [ActionVerdict]) { (self.action, self.verdicts) = (action, verdicts) }

    /// How many said no or could not answer (a disagreement on a fact counts as one more).
    public var vetoes: Int { verdicts.filter(\.isVeto).count + (disagreement == nil ? 0 : 1) }

    /// The outcome: allowed only with at least one verdict and no veto.
    public var outcome: Outcome {
        if verdicts.isEmpty { return .cannotTell }
        return vetoes == 0 ? .allowed : .vetoed
    }

    /// Every confirmation's facts, merged (what is sent, and what the words are made of).
    public var facts: [String: String] {
        var facts: [String: String] = [:]
        for case .confirm(_, let more)? in verdicts.map(\.verdict) { facts.merge(more) { first, _ in first } }
        return facts
    }

    /// The first fact two cards give different values, if any.
    public var disagreement: String? {
        var seen: [String: String] = [:]
        for case .confirm(_, let facts)? in verdicts.map(\.verdict) {
            for (name, value) in facts.sorted(by: { $0.key < $1.key }) {
                if let earlier = seen[name], earlier != value { return name }
                seen[name] = value
            }
        }
        return nil
    }

    /// One line per card ("payment: ok: refund SAR 42.50 to card …", "order: veto: …"), as a person reads them.
    public var lines: [String] {
        var lines = verdicts.map { entry in
            let id = entry.id.rawValue
            switch entry.verdict {
            case .allow?: return "\(id): ok"
            case .confirm(let summary, _)?: return "\(id): ok: \(summary)"
            case .veto(let reason)?: return "\(id): veto: \(reason)"
            case nil: return "\(id): veto: could not check (\(entry.reason ?? "not loaded"))"
            }
        }
        if let disagreement { lines.append("veto: the cards disagree on '\(disagreement)'") }
        return lines
    }

    /// The line after the verdicts, in `spec`'s words with `values` (the screen's inputs) filled in.
    public func summary(_ spec: ActionSpec, values: [String: String]) -> String {
        var values = values.merging(facts) { input, _ in input }
        values["vetoes"] = vetoes == 1 ? "1 veto" : "\(vetoes) vetoes"
        let template =
            switch outcome {
            case .allowed: spec.allowed
            case .vetoed: spec.vetoed
            case .cannotTell: spec.unknown
            }
        return ScreenDefinition.fill(template, values) ?? template
    }
}

/// A confirmed action on its way to the backend: where it goes, the body (the facts, keys sorted) and the key
/// that makes a retry harmless.
public struct ActionRequest: Sendable, Equatable {
    /// The action.
    public let action: String
    /// Where it is POSTed.
    public let endpoint: Endpoint
    /// The facts, as a JSON object with sorted keys.
    public let body: Data
    /// `Idempotency-Key`: derived from the endpoint and the body alone, so sending the same payment twice (a
    /// retry, a second press) carries the same key and the backend charges once.
    public let key: String
    /// The facts it carries.
    public let facts: [String: String]

    /// The request for `facts` to `endpoint`.
    public init(action: String, endpoint: Endpoint, facts: [String: String]) {
        let fields = facts.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + Self.quoted($0.value) }
        let body = Data(("{" + fields.joined(separator: ",") + "}").utf8)
        (self.action, self.endpoint, self.body, self.facts) = (action, endpoint, body, facts)
        key = action + "-" + SHA256.hex(Data((endpoint.path + "\n").utf8) + body).prefix(32)
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20:
                result += "\\u00" + String(scalar.value, radix: 16).leftPadded(to: 2)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// Where an action went: what it is waiting for, or how it ended. Past the check, each case keeps the cards'
/// verdicts it went ahead on, so a report can say who allowed what was done (or tried).
public enum ActionProgress: Sendable, Equatable {
    /// The cards were asked; a vetoed or unanswerable action stops here, an allowed one waits for a "yes".
    /// `summary` is the line after the verdicts, in the action's words.
    case checked(ActionCheck, summary: String)
    /// Confirmed and sent; the backend has not answered yet.
    case sending(ActionRequest, verdicts: [ActionVerdict])
    /// Done: the facts and the backend's answer (its fields), the line that says so, and the JSON report's key
    /// for it (`result`: "paid"). `unread` says why the backend's answer could not be read, when it could not:
    /// the backend took it (a 2xx), and the fields are only the facts that were sent.
    case done(
        action: String, fields: [String: String], line: String, result: String, verdicts: [ActionVerdict],
        unread: String? = nil)
    /// It could not be done: why (nothing was sent, the backend refused it, the screen failed first). Never retried
    /// by itself.
    case failed(action: String, reason: String, verdicts: [ActionVerdict] = [])
    /// It was sent and nothing says how it ended (no answer, a redirect, a 5xx): it may have gone through. Why, the
    /// line that tells a person to check before trying again (the action's `uncertain` words), and the facts that
    /// were sent. Never called a failure, never retried by itself.
    case unknown(action: String, reason: String, line: String, facts: [String: String], verdicts: [ActionVerdict])

    /// Whether its line says the send is under way or may have moved something (sending, done, unknown): the only
    /// trace of it on a screen that stays, so a key (a scroll, `?`) does not wipe it as it wipes other messages.
    var keepsItsLine: Bool {
        switch self {
        case .sending, .done, .unknown: true
        case .checked, .failed: false
        }
    }
}

/// The screen a finished action leads to: its name and its inputs (pay → the tracking screen of the new order).
public struct ScreenLink: Sendable, Equatable {
    /// The screen's name.
    public let screen: String
    /// Its inputs, from the action's answer.
    public let inputs: [String: String]

    /// A link to `screen`.
    public init(screen: String, inputs: [String: String]) { (self.screen, self.inputs) = (screen, inputs) }
}
