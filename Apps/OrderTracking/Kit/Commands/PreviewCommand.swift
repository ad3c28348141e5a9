import ArgumentParsing
import Core
import FixtureBackend
import Foundation
import ScreenSinks

extension OrderTrackingApp {
    /// `preview COMPONENT` (ScreenSinks' `CardPreview`): `[--payload FILE] [--fail F] [--state S] [--event NAME=VALUE]...` from parsed arguments.
    static func runPreview(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count == 1 else { throw UsageError(message: "preview needs exactly one COMPONENT id") }
        let host = try context.host(parsed)
        let file = parsed.value(payload)
        let data = file.flatMap { FileManager.default.contents(atPath: $0) }
        if let file, data == nil {
            throw UsageError(message: "--payload '\(file)' cannot be read; give a path to a JSON file")
        }
        let faults = InjectedFault.allCases.map(\.rawValue)
        let states = [Phase.loading, .info, .failed].map(\.rawValue)
        let injected =
            try parsed.isSet(fail) ? InjectedFault(rawValue: parsed.choice(fail, among: faults, default: "")) : nil
        let forced = try parsed.isSet(state) ? Phase(rawValue: parsed.choice(state, among: states, default: "")) : nil
        // `--event order.status=delivered`: another squad's event, delivered after the load.
        let events = try parsed.pairs(event, example: "order.status=delivered").map { DomainEvent($0.name, $0.value) }
        var ids = ["order": try validateID(parsed.value(order) ?? "1234", kind: "order")]
        for (name, value) in try inputs(parsed) { ids[name] = value }
        let preview = CardPreview(
            id: ComponentID(parsed.positionals[0]), events: events, ids: ids,
            payload: data, fault: forced == .failed && injected == nil ? .malformed : injected, state: forced)
        let phase = await preview.show(
            registry: host.registry, backend: host.backend, clock: host.clock, timeout: host.timeout,
            terminal: host.terminal)
        return phase == nil ? .usage : phase == .failed ? .degraded : .ok
    }
}
