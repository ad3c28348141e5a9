import Core
import Foundation
import JSON

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
/// sent fact different values (two currencies), or a card naming another subject than the screen's (another
/// cart), stop it too. The confirmations' typed facts and the screen's inputs are the action's *intent*: what is
/// sent, and nothing else. An input a person gave that the intent does not carry (a promo code that failed) is
/// ``missing``: it stops a one-shot action and makes the live question say so.
public struct ActionCheck: Sendable, Equatable {
    /// The action asked about.
    public let action: String
    /// Each validating card's answer, in screen order.
    public let verdicts: [ActionVerdict]
    /// The screen's inputs (`["cart": "C100"]`): part of every intent.
    public let inputs: [String: String]
    /// What a person gave that the action carries (``ActionSpec/carries``) and the intent does not hold.
    public let missing: [MissingInput]

    /// What the answers add up to.
    public enum Outcome: Sendable, Equatable {
        /// At least one card answered, none vetoed and the facts agree.
        case allowed
        /// A card vetoed, could not check, or the facts disagree.
        case vetoed
        /// No card on the screen answers for this action.
        case cannotTell
    }

    /// The answers of `verdicts` on `action`, on a screen of `inputs`, with what a person gave that is `missing`.
    public init(
        action: String, verdicts: [ActionVerdict], inputs: [String: String] = [:], missing: [MissingInput] = []
    ) {
        (self.action, self.verdicts, self.inputs, self.missing) = (action, verdicts, inputs, missing)
    }

    /// How many said no or could not answer (a disagreement on a fact counts as one more).
    public var vetoes: Int { verdicts.filter(\.isVeto).count + (disagreement == nil ? 0 : 1) }

    /// The outcome: allowed only with at least one verdict and no veto.
    public var outcome: Outcome {
        if verdicts.isEmpty { return .cannotTell }
        return vetoes == 0 ? .allowed : .vetoed
    }

    /// Every confirmation's facts, merged (the first card to give a name keeps it).
    public var facts: [String: Fact] {
        var facts: [String: Fact] = [:]
        for case .confirm(_, let more)? in verdicts.map(\.verdict) { facts.merge(more) { first, _ in first } }
        return facts
    }

    /// What is sent: the screen's inputs and the cards' typed facts (never their words).
    public var intent: [String: Fact] {
        facts.filter(\.value.isSent).merging(inputs.mapValues(Fact.text)) { _, input in input }
    }

    /// The values a line is filled with: the inputs, then every fact as it reads (but agreed amounts, the cards'
    /// cross-check, never in a question or a report).
    public var words: [String: String] {
        inputs.merging(facts.filter { !$0.value.isAgreed }.mapValues(\.description)) { input, _ in input }
    }

    /// The first compared fact two cards give different values (as its kind compares them), or a card gives
    /// another value than the screen's input of that name, if any.
    public var disagreement: String? { conflict?.name }

    /// The first disagreement and who said what: "cart SAR 40.50, total SAR 999.99".
    private var conflict: (name: String, said: String)? {
        var seen = inputs.mapValues { (by: "the screen", fact: Fact.text($0)) }
        for entry in verdicts {
            guard case .confirm(_, let facts)? = entry.verdict else { continue }
            for (name, value) in facts.sorted(by: { $0.key < $1.key }) where value.isCompared {
                if let earlier = seen[name], !earlier.fact.agrees(with: value) {
                    return (name, "\(earlier.by) \(earlier.fact), \(entry.id.rawValue) \(value)")
                }
                seen[name] = seen[name] ?? (entry.id.rawValue, value)
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
        if let conflict { lines.append("veto: the cards disagree on '\(conflict.name)' (\(conflict.said))") }
        return lines
    }

    /// The line after the verdicts of a confirmed action (`--pay`) that stops because it would go without what a
    /// person gave: what is missing and why, that nothing was sent, and what to do. Nil when nothing is missing.
    public func refusal(_ spec: ActionSpec) -> String? {
        guard outcome == .allowed, let first = missing.first else { return nil }
        return missing.map { $0.line + "." }.joined(separator: " ")
            + " \(spec.label): nothing was sent; give a \(first.label.lowercased()) that applies, or none to go "
            + "without it."
    }

    /// The line after the verdicts, in `spec`'s words with the inputs and facts filled in.
    public func summary(_ spec: ActionSpec) -> String {
        var values = words
        values["vetoes"] = vetoes == 1 ? "1 veto" : "\(vetoes) vetoes"
        let template =
            switch outcome {
            case .allowed: spec.allowed
            case .vetoed: spec.vetoed
            case .cannotTell: spec.unknown
            }
        return ScreenDefinition.fill(template, values) ?? template
    }

    /// The question a person answers before it goes, or nil when the facts cannot fill it: the action's own,
    /// preceded by what it would go without ("Promo code SAVE10 is not applied (…). Pay SAR 50.50 with Visa
    /// •••• 4242 without it?"), so a "yes" to paying without the code is an explicit one.
    public func question(_ spec: ActionSpec) -> String? {
        guard let question = ScreenDefinition.fill(spec.question, words) else { return nil }
        guard !missing.isEmpty else { return question }
        let bare = question.hasSuffix("?") ? String(question.dropLast()) : question
        let without = missing.count == 1 ? "without it?" : "without them?"
        return missing.map { $0.line + "." }.joined(separator: " ") + " \(bare) \(without)"
    }
}

/// A value a person gave for a prompt an action carries (a promo code) that the action's intent does not hold:
/// its card failed, is still loading, or the cards did not apply it.
public struct MissingInput: Sendable, Equatable {
    /// The prompt's name ("promo").
    public let name: String
    /// The prompt's label ("Promo code").
    public let label: String
    /// What the person gave, cut for a line.
    public let value: String
    /// Why it is not in the intent ("its card failed: HTTP 500").
    public let why: String

    /// A missing input.
    public init(name: String, label: String, value: String, why: String) {
        (self.name, self.label, self.value, self.why) = (name, label, value, why)
    }

    /// "Promo code SAVE10 is not applied (its card failed: HTTP 500)".
    public var line: String {
        let shown = value.count > 16 ? value.prefix(16) + "…" : value
        return "\(label) \(shown) is not applied (\(why))"
    }
}

/// A confirmed action on its way to the backend: where it goes and its intent, whose typed values are the body
/// (a JSON object, keys sorted). The `Idempotency-Key` is not a hash of it: the host's ``AttemptLedger`` makes one
/// per attempt and keeps it with the request until the outcome is known.
public struct ActionRequest: Sendable, Equatable {
    /// The action.
    public let action: String
    /// Where it is POSTed.
    public let endpoint: Endpoint
    /// What is sent: the inputs and the cards' typed facts.
    public let intent: [String: Fact]
    /// Every fact as a person reads it (the words beside the intent): the report's lines.
    public let words: [String: String]
    /// The intent as a JSON object with sorted keys: texts as strings, integers as numbers.
    public let body: Data
    /// What is acted on: the screen's inputs that name it (`["cart": "C100"]`). With the action, it is the
    /// attempt's identity (``AttemptLedger``): never the place the request is sent, which a screen's definition
    /// may spell with any fact in it (`carts/{cart}/pay/{method_id}`).
    public let subject: [String: String]

    /// The request for `intent` to `endpoint`, acting on `subject`.
    public init(
        action: String, endpoint: Endpoint, intent: [String: Fact], words: [String: String],
        subject: [String: String] = [:]
    ) {
        let fields = intent.filter(\.value.isSent).mapValues { value -> JSONValue in
            switch value {
            case .integer(let number): .number(Double(number))
            case .text(let text), .words(let text), .currency(let text), .agreed(_, let text): .string(text)
            }
        }
        // The JSON module writes it: keys sorted, no spaces, integers as numbers, and the escaping every other
        // JSON the project writes has (controls and the invisible bidirectional marks as \uXXXX).
        body = JSONValue.object(fields).data()
        (self.action, self.endpoint, self.intent, self.words) = (action, endpoint, intent, words)
        self.subject = subject
    }

    /// The subject as a line names it: "cart C100" (several inputs in their names' order), or "this screen".
    public var subjectWords: String {
        subject.isEmpty
            ? "this screen" : subject.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// What was sent, by name, as text (the reports' `sent`).
    public var sent: [String: String] { intent.mapValues(\.description) }

    /// What was said under `name` (its letters' case aside): a sent value, else the words shown.
    public func said(_ name: String) -> String? {
        let folded = name.lowercased()
        if let fact = intent.first(where: { $0.key.lowercased() == folded }) { return fact.value.description }
        return words.first { $0.key.lowercased() == folded }?.value
    }

    /// Whether an answer's field `name` = `value` contradicts what was sent: another value for a sent fact (as its
    /// kind compares: a currency in any letter case, anything else exactly), a value for an input `spec` carries
    /// that was not sent (a promo code the person did not give), or other words for a fact shown (its letters'
    /// case and runs of spaces aside).
    func contradicts(_ name: String, _ value: String, carrying spec: ActionSpec) -> Bool {
        let folded = name.lowercased()
        if let fact = intent.first(where: { $0.key.lowercased() == folded && $0.value.isSent }) {
            return !fact.value.isSaid(by: value)
        }
        if spec.carries.contains(where: { $0.name.lowercased() == folded }) { return true }
        guard let shown = words.first(where: { $0.key.lowercased() == folded })?.value else { return false }
        let plain = { (text: String) in text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        return plain(shown) != plain(value)
    }

    /// The integers a body carries exactly: JSON's numbers are doubles, and the JSON module writes a whole one as
    /// digits only below 10^15, so an integer past this range (no amount in minor units) is never sent rounded.
    public static let exactIntegers = -999_999_999_999_999...999_999_999_999_999

    /// The first sent integer of `intent` that a body cannot carry exactly (``exactIntegers``), by name.
    public static func inexact(_ intent: [String: Fact]) -> (name: String, value: Int)? {
        for (name, fact) in intent.sorted(by: { $0.key < $1.key }) {
            if case .integer(let number) = fact, !exactIntegers.contains(number) { return (name, number) }
        }
        return nil
    }
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
    /// `contradicted` holds each field of a 2xx answer that gives another value than was sent (an amount, a
    /// currency, a method): such an answer is never reported as what was done.
    case unknown(
        action: String, reason: String, line: String, facts: [String: String], verdicts: [ActionVerdict],
        contradicted: [String: String] = [:])
    /// Not sent: an earlier attempt of this action to the same place has no known outcome and held another
    /// request, so sending this one under a new key could do both. Why, and how to settle the earlier one.
    case pending(action: String, reason: String, verdicts: [ActionVerdict])

    /// Whether its line says the send is under way or may have moved something (sending, done, unknown): the only
    /// trace of it on a screen that stays, so a key (a scroll, `?`) does not wipe it as it wipes other messages.
    public var keepsItsLine: Bool {
        switch self {
        case .sending, .done, .unknown, .pending: true
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
