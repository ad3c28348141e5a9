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
        let host = try context.host(parsed)
        let file = parsed[payload]
        let data = file.flatMap { FileManager.default.contents(atPath: $0) }
        if let file, data == nil {
            throw UsageError(message: "--payload '\(file)' cannot be read; give a path to a JSON file")
        }
        let (injected, forced) = (parsed[fail], parsed[state])
        let ids = parsed.all(input).reduce(into: ["order": parsed[order, default: "1234"]]) { $0[$1.name] = $1.value }
        // `--event order.status=delivered`: another squad's event, delivered after the load.
        let preview = CardPreview(
            id: ComponentID(parsed.positionals[0]),
            events: parsed.all(event).map { DomainEvent($0.name, text: $0.value) },
            ids: ids, payload: data, fault: forced == .failed && injected == nil ? .malformed : injected, state: forced)
        let phase = await preview.show(
            registry: host.registry, backend: host.backend, clock: host.clock, timeout: host.timeout,
            terminal: host.terminal)
        return phase == nil ? .usage : phase == .failed ? .degraded : .ok
    }
}
