import ArgumentParsing
import Core
import FixtureBackend
import Foundation
import HostComposition
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
        // The ids and the prompts' values, each held to its kind's rule (HostComposition's `PreviewInputs`).
        let events = parsed.all(event)
        let given = try PreviewInputs(
            order: parsed[order], inputs: parsed.all(input), events: events,
            prompts: HostEnvironment.demoScreen(showing: card)?.prompts ?? [],
            subjects: HostEnvironment.demoSubjects(for: card, registry: host.registry), terminal: host.terminal)
        // The backend is composed here, with the host's others: a fault injected in front of the host's.
        let fault = forced == .failed && injected == nil ? .malformed : injected
        let preview = CardPreview(
            id: card, events: events.map { DomainEvent($0.name, text: $0.value) }, said: given.said, ids: given.ids,
            payload: fault == nil ? data : nil, state: forced)
        let phase = await preview.show(
            registry: host.registry,
            backend: fault.map { FaultInjectingBackend(fault: $0, clock: host.clock) } ?? host.backend,
            clock: host.clock, timeout: host.timeout, runner: host.runner,
            terminal: host.terminal)
        return phase == nil ? .usage : phase == .failed ? .degraded : .ok
    }
}
