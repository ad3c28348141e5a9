import Core
import Foundation

extension ScreenState {
    /// A person asked for action `id`: the validating cards' stored verdicts are added up (``ActionCheck``). A
    /// veto or "cannot tell" is listed and stops it; an allowed action is confirmed first (the dialog's question)
    /// unless `confirmed`, then sent once, or done at once when it sends nothing. A screen that has failed does
    /// nothing.
    mutating func act(_ id: String, confirmed: Bool, _ now: Date, _ effects: inout [ScreenEffect]) {
        guard let spec = actions.first(where: { $0.id == id }) else {
            effects.append(.diagnostic("this screen has no action '\(id)'"))
            return
        }
        if case .sending? = action { return }
        if let failure = frame(at: now).failure {
            action = .failed(action: id, reason: "the screen failed (\(failure)); nothing was sent")
            return
        }
        let check = ActionCheck(
            action: id,
            verdicts: cards.indices.filter { cards[$0].validates }.map { index in
                let card = cards[index]
                let verdict = card.phase == .info ? card.verdicts[id] : nil
                if verdict != nil { effects.append(.track(card: index, .verdict(id))) }
                return ActionVerdict(id: card.id, verdict: verdict, reason: card.reason)
            })
        effects.append(.trace("action \(id): \(check.outcome) (\(check.vetoes) vetoes)"))
        action = .checked(check, summary: check.summary(spec, values: inputs))
        let values = inputs.merging(check.facts) { input, _ in input }
        let question = ScreenDefinition.fill(spec.question, values)
        guard check.outcome == .allowed, confirmed else {
            let lines = check.lines + [check.summary(spec, values: inputs)]
            let asking = check.outcome == .allowed ? question : nil
            if check.outcome == .allowed, asking == nil {
                action = .failed(action: id, reason: "no card gave what '\(spec.question)' needs; nothing was sent")
            }
            console.showAction(id: id, title: spec.label, lines: lines, question: asking)
            return
        }
        guard let template = spec.send else {
            return finish(spec, fields: check.facts, &effects)
        }
        do {
            let request = ActionRequest(
                action: id, endpoint: try ScreenDefinition.endpoint(template, values), facts: check.facts)
            (action, sending) = (.sending(request), true)
            console.message = "\(spec.label): sending…"
            effects.append(.send(request))
        } catch {
            action = .failed(action: id, reason: "\(Failure(describing: error).reason); nothing was sent")
            console.message = "\(spec.label) failed: \(Failure(describing: error).reason)"
        }
    }

    /// The backend's answer to a send: done (and, on a live screen, on to the screen it leads to), or failed
    /// with why; a failed send is never sent again by itself.
    mutating func sent(_ id: String, _ result: Result<[String: String], Failure>, _ effects: inout [ScreenEffect]) {
        guard case .sending(let request)? = action, request.action == id,
            let spec = actions.first(where: { $0.id == id })
        else { return }
        sending = false
        switch result {
        case .success(let answer):
            finish(spec, fields: request.facts.merging(answer) { _, answered in answered }, &effects)
        case .failure(let failure):
            action = .failed(action: id, reason: failure.reason)
            console.message = "\(spec.label) failed: \(failure.reason)"
            effects.append(.trace("action \(id): failed (\(failure.reason))"))
        }
    }

    private mutating func finish(_ spec: ActionSpec, fields: [String: String], _ effects: inout [ScreenEffect]) {
        let values = inputs.merging(fields) { _, field in field }
        let line = ScreenDefinition.fill(spec.done, values) ?? "\(spec.label): done."
        action = .done(action: spec.id, fields: fields, line: line, result: spec.result)
        console.message = line
        effects.append(.trace("action \(spec.id): done"))
        if let then = spec.then {
            next = ScreenLink(screen: then, inputs: fields)
            stop(&effects)
        }
    }
}
