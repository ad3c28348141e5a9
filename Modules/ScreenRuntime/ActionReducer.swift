import Core
import Foundation

extension ScreenState {
    /// A person asked for action `spec` (one of the screen's: ``ScreenAction/act(_:)`` takes no other, the host refuses any
    /// other `--pay` or `--action`): the validating cards' stored verdicts are added up (``ActionCheck``). A
    /// veto or "cannot tell" is listed and stops it, and so does a question the cards' facts cannot fill (no
    /// amount: nothing to confirm). An allowed action is confirmed first (the dialog's question, which says what it
    /// would go without) unless `confirmed` (`--action`, `--pay`): then an input a person gave that the intent does
    /// not carry stops it, and otherwise it is sent once, or done at once when it sends nothing. A screen that has
    /// failed does nothing. What a person is shown (the dialog, the action's line) is told (``ActionState/told``),
    /// for a live screen to show.
    mutating func act(_ spec: ActionSpec, confirmed: Bool, _ now: Date, _ effects: inout [ScreenEffect]) {
        let id = spec.id
        if case .sending? = action.progress { return }
        if let failure {
            action.progress = .failed(action: id, reason: "the screen failed (\(failure)); nothing was sent")
            return
        }
        for index in cards.indices where cards[index].spec.validates && cards[index].machine == .info {
            if cards[index].verdicts[spec.action] != nil { effects.append(.track(card: index, .verdict(spec.action))) }
        }
        let check = currentCheck(spec.action, carrying: spec.carries)
        effects.append(.trace("action \(id): \(check.outcome) (\(check.vetoes) vetoes)"))
        action.progress = .checked(check, summary: check.summary(spec))
        let question = check.question(spec)
        if check.outcome == .allowed, question == nil {
            action.progress = .failed(
                action: id, reason: "no card gave what '\(spec.question)' needs; nothing was sent",
                verdicts: check.verdicts)
        }
        if confirmed, let refusal = check.refusal(spec) { action.progress = .checked(check, summary: refusal) }
        guard check.outcome == .allowed, question != nil, confirmed, check.missing.isEmpty else {
            let lines = check.lines + [check.refusal(spec).flatMap { confirmed ? $0 : nil } ?? check.summary(spec)]
            let asking = check.outcome == .allowed && !confirmed ? question : nil
            action.tell(.dialog(id: id, title: spec.label, lines: lines, question: asking, check: check))
            // A confirmed action's answer (`--pay`) is its report, never a question left open: should the cards
            // change after, it is not asked again of nobody.
            if confirmed { action.open = nil }
            return
        }
        send(spec, check, &effects)
    }

    /// A person said yes to `shown`, the check action `id`'s dialog showed. What is sent is exactly that: the intent
    /// kept with it, and what it said it would go without. Should the cards now say anything else (a price changed
    /// or a code was applied under the open dialog, or the dialog was asked again before the answer), nothing is
    /// sent and the question is asked again.
    mutating func confirm(_ id: String, shown: ActionCheck, _ now: Date, _ effects: inout [ScreenEffect]) {
        if action.open == id { action.open = nil }
        guard case .checked(let last, _)? = action.progress, last.action == id, let spec = action.spec(id) else {
            return
        }
        guard currentCheck(spec.action, carrying: spec.carries) == shown, failure == nil else {
            effects.append(.trace("action \(id): the cards changed before the answer; asking again"))
            return act(spec, confirmed: false, now, &effects)
        }
        effects.append(.trace("action \(id): confirmed"))
        send(spec, shown, &effects)
    }

    /// While an action's dialog is open (``ActionState/open``) it shows what the cards say now: when a card's change
    /// alters their answers, it asks again (and a live screen must draw it again before a `y` counts).
    mutating func askAgainIfChanged(_ now: Date, _ effects: inout [ScreenEffect]) {
        guard let id = action.open, case .checked(let shown, _)? = action.progress, shown.action == id,
            let spec = action.spec(id), currentCheck(spec.action, carrying: spec.carries) != shown
        else { return }
        effects.append(.trace("action \(id): the cards changed while it was open; asking again"))
        act(spec, confirmed: false, now, &effects)
    }

    /// The validating cards' verdicts on `asked` kept in ``asked``, each one that said something heard by its
    /// squad's analytics (a card without info counts as "could not check").
    mutating func answer(_ asked: UserAction, _ effects: inout [ScreenEffect]) {
        for index in cards.indices where cards[index].spec.validates && cards[index].machine == .info {
            if cards[index].verdicts[asked] != nil { effects.append(.track(card: index, .verdict(asked))) }
        }
        action.asked = currentCheck(asked)
    }

    /// The validating cards' stored verdicts on `action`, as they stand, with each of the `carrying` prompts'
    /// values a person gave that the intent does not hold.
    private func currentCheck(_ action: UserAction, carrying: [ScreenPrompt] = []) -> ActionCheck {
        let inputs = self.action.inputs
        let verdicts = cards.filter(\.spec.validates).map { card in
            ActionVerdict(
                id: card.id, verdict: card.machine == .info ? card.verdicts[action] : nil, reason: card.reason)
        }
        let check = ActionCheck(action: action.name, verdicts: verdicts, inputs: inputs)
        let intent = check.intent
        let missing = carrying.compactMap { prompt -> MissingInput? in
            guard let (index, value) = given(prompt) else { return nil }
            // Codes are letters and digits (what a prompt takes), so one that differs only in case is the same.
            if let fact = intent[prompt.name], fact.description.lowercased() == value.lowercased() { return nil }
            let card = cards[index]
            let why =
                if card.failed {
                    "its card failed: \(card.reason ?? "no reason given")"
                } else if cards.contains(where: \.loading) {
                    "the cards are still loading"
                } else {
                    "the cards did not apply it"
                }
            return MissingInput(name: prompt.name, label: prompt.prompt.label, value: value, why: why)
        }
        return ActionCheck(action: action.name, verdicts: verdicts, inputs: inputs, missing: missing)
    }

    /// The latest value a person gave `prompt` (typed, or said on the command line), and the card that holds it.
    private func given(_ prompt: ScreenPrompt) -> (Int, String)? {
        for index in cards.indices where prompt.card == nil || cards[index].id == prompt.card {
            guard let event = cards[index].received.last(where: { $0.name == prompt.prompt.event }),
                let text = try? JSONDecoder().decode(String.self, from: Data(event.payload.utf8))
            else { continue }
            return (index, text)
        }
        return nil
    }

    /// Sends the intent of `check` once (or finishes at once when the action sends nothing).
    private mutating func send(
        _ spec: ActionSpec, _ check: ActionCheck, _ effects: inout [ScreenEffect]
    ) {
        guard let template = spec.send else {
            return finish(spec, fields: check.words, verdicts: check.verdicts, &effects)
        }
        if let (name, value) = ActionRequest.inexact(check.intent) {
            // A body would carry it rounded: another amount than the one confirmed.
            let reason = "\(name) \(value) is too large to send exactly; nothing was sent"
            action.progress = .failed(action: spec.id, reason: reason, verdicts: check.verdicts)
            action.tell(.line("\(spec.label) failed: \(reason)"))
            return
        }
        do {
            let request = ActionRequest(
                action: spec.id, endpoint: try ScreenDefinition.endpoint(template, check.words), intent: check.intent,
                words: check.words, subject: action.inputs)
            action.progress = .sending(request, verdicts: check.verdicts)
            action.tell(.line("\(spec.label): sending…"))
            effects.append(.send(request))
        } catch {
            action.progress = .failed(
                action: spec.id, reason: "\(Failure(describing: error).reason); nothing was sent",
                verdicts: check.verdicts)
            action.tell(.line("\(spec.label) failed: \(Failure(describing: error).reason)"))
        }
    }

    /// What became of a send: done (and, on a live screen, on to the screen it leads to), failed with why, or
    /// unknown: it may have gone through, so a person is told to check before trying again and it is never
    /// called a failure. An answer that gives another value than was sent for a field (an amount, a method) is
    /// unknown too, never reported as done. Once the outcome is known (done or failed) the attempt is settled;
    /// nothing is sent again by itself.
    mutating func sent(
        _ id: String, _ outcome: SendOutcome, _ effects: inout [ScreenEffect]
    ) {
        guard case .sending(let request, let verdicts)? = action.progress, request.action == id,
            let spec = action.spec(id)
        else { return }
        let said = request.words.merging(request.sent) { _, sent in sent }
        switch outcome {
        case .done(let answer, let unread):
            let contradicted = answer.filter { name, value in request.contradicts(name, value, carrying: spec) }
            guard contradicted.isEmpty else {
                let each = contradicted.sorted { $0.key < $1.key }.map { name, value in
                    "\(name) \(value) (sent \(request.said(name) ?? "none"))"
                }
                let reason = "the answer contradicts what was sent: " + each.joined(separator: ", ")
                return uncertain(spec, request, reason, verdicts, contradicted: contradicted, &effects)
            }
            effects.append(.settle(request, KeptAnswer(fields: answer, unread: unread)))
            let fields = answer.filter { request.said($0.key) == nil }.merging(said) { _, sent in sent }
            finish(spec, fields: fields, verdicts: verdicts, unread: unread, &effects)
        case .kept(let answer, let at):
            // Settled before with this very request, and kept: the same report as then, said as such.
            let fields = answer.fields.filter { request.said($0.key) == nil }.merging(said) { _, sent in sent }
            effects.append(.trace("action \(id): answered from its attempt kept since \(at.formatted(.iso8601))"))
            finish(spec, fields: fields, verdicts: verdicts, unread: answer.unread, already: true, &effects)
        case .failed(let reason):
            effects.append(.abandon(request))
            action.progress = .failed(action: id, reason: reason, verdicts: verdicts)
            action.tell(.line("\(spec.label) failed: \(reason)"))
            effects.append(.trace("action \(id): failed (\(reason))"))
        case .unknown(let reason):
            uncertain(spec, request, reason, verdicts, &effects)
        case .pending(let reason):
            action.progress = .pending(action: id, reason: reason, verdicts: verdicts)
            action.tell(.line("\(spec.label) not sent: \(reason)"))
            effects.append(.trace("action \(id): not sent, an earlier attempt is pending"))
        }
    }

    /// The send may have gone through: the action's `uncertain` words, and what was sent.
    private mutating func uncertain(
        _ spec: ActionSpec, _ request: ActionRequest, _ reason: String, _ verdicts: [ActionVerdict],
        contradicted: [String: String] = [:], _ effects: inout [ScreenEffect]
    ) {
        let values = request.words.merging(request.sent) { _, sent in sent }
        let line = ScreenDefinition.fill(spec.uncertain, values) ?? ActionSpec(id: spec.id, label: spec.label).uncertain
        action.progress = .unknown(
            action: spec.id, reason: reason, line: line, facts: request.sent, verdicts: verdicts,
            contradicted: contradicted)
        action.tell(.line("\(line) (\(reason))"))
        effects.append(.trace("action \(spec.id): unknown (\(reason))"))
    }

    /// Done: the line in the action's words. An answer that could not be read says so and what was sent, and
    /// leads nowhere (the next screen's inputs would come from it).
    private mutating func finish(
        _ spec: ActionSpec, fields: [String: String], verdicts: [ActionVerdict], unread: String? = nil,
        already: Bool = false, _ effects: inout [ScreenEffect]
    ) {
        let values = action.inputs.merging(fields) { _, field in field }
        var line = ScreenDefinition.fill(spec.done, values) ?? "\(spec.label): done."
        if let unread {
            let sent = fields.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            line = "\(spec.label): done, but the answer could not be read (\(unread)); sent: \(sent)"
        }
        if already { line = "already \(spec.result): \(line)" }
        action.progress = .done(
            action: spec.id, fields: fields, line: line, result: spec.result, verdicts: verdicts, unread: unread)
        action.tell(.line(line))
        effects.append(.trace("action \(spec.id): done"))
        if let then = spec.then, unread == nil {
            action.next = ScreenLink(screen: then, inputs: fields)
            stop(&effects)
        }
    }
}

/// What the action's reducer has a person shown (``ActionState/told``), which a live screen shows: the runtime
/// writes no console.
public enum ActionNotice: Sendable, Equatable {
    /// The squads' verdicts on action `id` under `title`, asking `question` when nobody vetoed; `check` is what a
    /// `y` confirms (``ScreenAction/confirm(_:shown:)``).
    case dialog(id: String, title: String, lines: [String], question: String?, check: ActionCheck)
    /// The action's line under the screen ("Pay: sending…", "Paid SAR 45.45.").
    case line(String)
}
