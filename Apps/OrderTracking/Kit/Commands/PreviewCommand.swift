import ArgumentParsing
import Core
import FixtureBackend
import Foundation
import SafeText
import ScreenRuntime
import TerminalUI

/// `preview COMPONENT`: one component alone (presentation: alone) with a payload file, an injected fault or a
/// forced state, so a squad can see every state of its card without the rest of the app.
struct PreviewCommand {
    let id: ComponentID
    /// Other squads' events to deliver after the load, in order (`--event NAME=VALUE`).
    var events: [DomainEvent] = []
    /// The ids the card reads (`--order`, `--input`).
    let ids: [String: String]
    let payload: Data?
    let fault: InjectedFault?
    let state: Phase?
    let host: HostEnvironment

    func run() async -> ExitCode {
        let module: String
        do { module = try host.registry.registration(for: id).module } catch {
            let known = host.registry.registrations.map(\.id.rawValue)
            host.terminal.err("\(error)" + suggestion(for: id.rawValue, among: known))
            return .usage
        }
        // One card, through the same runtime as the screen: its own context, alone, fed the payload or the fault.
        var settings = ScreenSettings(ids: ids)
        (settings.presentation, settings.timeout, settings.load) = (.alone, host.timeout, state != .loading)
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: id, payload: fault == nil ? payload : nil)], registry: host.registry,
            backend: fault.map { FaultInjectingBackend(fault: $0, clock: host.clock) } ?? host.backend,
            clock: host.clock, settings: settings, report: RuntimeReport(diagnostic: { host.terminal.err($0) }))
        await runtime.open(loading: settings.load ? [0] : [])
        var reactions: [String] = []
        for event in events {
            switch await runtime.deliver(event)[id] {
            case .reloaded?: reactions.append("\(event): reloaded")
            case .updated?: reactions.append("\(event): updated")
            default: reactions.append("\(event): no change (\(id) does not act on \(event.name) now)")
            }
        }
        let card = await runtime.stop().cards[0]
        if let forced = state, forced != .loading, forced != card.phase {
            host.terminal.err("asked for state '\(forced.rawValue)' but the component reached '\(card.phase.rawValue)'")
        }
        let styler = host.terminal.styler
        var lines = [styler.apply(.dim, "\(id) · \(module) · state: \(card.phase.rawValue)")]
        lines += reactions.map { styler.apply(.dim, SafeText.visible($0)) }
        if let block = card.block {
            lines += CardRenderer.lines(for: block, width: host.terminal.cardWidth, styler: styler)
        } else {
            lines.append(styler.apply(.error, "(hidden: \(card.reason ?? "nothing to draw"))"))
        }
        host.terminal.out(lines.map { $0 + "\n" }.joined())
        return card.phase == .failed ? .degraded : .ok
    }
}

extension OrderTrackingApp {
    /// `preview COMPONENT [--payload FILE] [--fail F] [--state S] [--event NAME=VALUE]...` from parsed arguments.
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
        let command = PreviewCommand(
            id: ComponentID(parsed.positionals[0]), events: events, ids: ids,
            payload: data, fault: forced == .failed && injected == nil ? .malformed : injected, state: forced,
            host: host)
        return await command.run()
    }
}
