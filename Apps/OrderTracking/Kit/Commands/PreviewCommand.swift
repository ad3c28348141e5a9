import ArgumentParsing
import Core
import FixtureBackend
import Foundation
import HostComposition
import InputRules
import ScreenSinks

extension OrderTrackingApp {
    /// `preview COMPONENT` (ScreenSinks' `CardPreview`): `[--payload FILE] [--fail F] [--state S] [--event NAME=VALUE]...` from parsed arguments.
    static func runPreview(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        let host = try context.host(parsed)
        let file = parsed[payload]
        let data = file.flatMap { FileManager.default.contents(atPath: $0) }
        if let file, data == nil {
            throw UsageError(message: "--payload '\(file)' cannot be read; give a path to a JSON file")
        }
        let (injected, forced) = (parsed[fail], parsed[state])
        let card = ComponentID(parsed.positionals[0])
        // An input named like a prompt of the card's screen is that prompt's value, said at the start as on the
        // screen (`--input promo=SAVE10`); any other is an id the card reads.
        let prompts = HostEnvironment.demoScreen(showing: card)?.prompts ?? []
        var ids = parsed[order].map { ["order": $0] } ?? [:]
        var said: [DomainEvent] = []
        for given in parsed.all(input) {
            guard let prompt = prompts.first(where: { $0.name == given.name }) else {
                ids[given.name] = try validateID(given.value, kind: given.name)
                continue
            }
            if let refusal = ScreenRun.refusal(of: given.value, by: prompt, command: "preview") { throw refusal }
            said.append(prompt.event(given.value))
        }
        // An input not given: the first demo subject of the card's screen, said in one line.
        for subject in HostEnvironment.demoSubjects(for: card, registry: host.registry) where ids[subject.input] == nil
        {
            ids[subject.input] = subject.id
            host.terminal.err(subject.line)
        }
        // `--event order.status=delivered`: another squad's event, delivered after the load. A prompt's event is
        // what a person types, so its value is held to the prompt's rule (a code), as `--input` holds it.
        let events = parsed.all(event)
        for given in events where prompts.contains(where: { $0.prompt.event == given.name }) {
            guard InputCode.accepts(given.value) else {
                throw UsageError(message: InputCode.refusal(of: given.value, given: "--event \(given.name)"))
            }
        }
        // The backend is composed here, with the host's others: a fault injected in front of the host's.
        let fault = forced == .failed && injected == nil ? .malformed : injected
        let preview = CardPreview(
            id: card, events: events.map { DomainEvent($0.name, text: $0.value) }, said: said, ids: ids,
            payload: fault == nil ? data : nil, state: forced)
        let phase = await preview.show(
            registry: host.registry,
            backend: fault.map { FaultInjectingBackend(fault: $0, clock: host.clock) } ?? host.backend,
            clock: host.clock, timeout: host.timeout, runner: host.runner,
            terminal: host.terminal)
        return phase == nil ? .usage : phase == .failed ? .degraded : .ok
    }
}
