import ArgumentParsing
import Core
import Foundation
import SafeText
import TerminalUI

/// `preview COMPONENT`: one component alone (presentation: alone) with a payload file, an injected fault or a
/// forced state, so a squad can see every state of its card without the rest of the app.
struct PreviewCommand {
    let id: ComponentID
    /// Other squads' events to deliver after the load, in order (`--event NAME=VALUE`).
    var events: [DomainEvent] = []
    let order: String
    let payload: Data?
    let fault: InjectedFault?
    let state: Phase?
    let host: HostEnvironment
    let timeout: Duration

    func run() async -> ExitCode {
        let registration: ComponentRegistration
        do { registration = try host.registry.registration(for: id) } catch {
            host.terminal.err(
                "\(error)" + suggestion(for: id.rawValue, among: host.registry.registrations.map(\.id.rawValue)))
            return .usage
        }
        let backend: any Backend = fault.map { FaultInjectingBackend(fault: $0, clock: host.clock) } ?? host.backend
        let context = ComponentContext(
            ids: ["order": order], backend: backend, clock: host.clock, presentation: .alone, timeout: timeout,
            payload: fault == nil ? payload : nil)
        let refreshAsked = Locked(false)
        let slot = Slot(id: id) { update in
            if case .event(.refresh(after: .zero)) = update { refreshAsked.withLock { $0 = true } }
        }
        let component = registration.instantiate(in: slot, context: context)
        component.present()
        if state != .loading { await component.load() }
        var reactions: [String] = []
        for event in events {
            // Delivered as the host routes it; a component that asks to be reloaded on it is reloaded.
            refreshAsked.withLock { $0 = false }
            let before = component.snapshot(includingInfo: false).block
            _ = component.receive(event)
            if refreshAsked.withLock({ $0 }) {
                await component.refresh()
                reactions.append("\(event): reloaded")
            } else if component.snapshot(includingInfo: false).block != before {
                reactions.append("\(event): updated")
            } else {
                reactions.append("\(event): no change (\(id) does not act on \(event.name) now)")
            }
        }
        let snapshot = component.snapshot(includingInfo: true)
        if let forced = state, forced != .loading, forced != snapshot.phase {
            host.terminal.err(
                "asked for state '\(forced.rawValue)' but the component reached '\(snapshot.phase.rawValue)'")
        }
        let styler = host.terminal.styler
        var lines = [styler.apply(.dim, "\(id) · \(registration.module) · state: \(snapshot.phase.rawValue)")]
        lines += reactions.map { styler.apply(.dim, SafeText.visible($0)) }
        if let block = snapshot.block {
            lines += CardRenderer.lines(for: block, width: host.terminal.cardWidth, styler: styler)
        } else {
            lines.append(styler.apply(.error, "(hidden: \(snapshot.reason ?? "nothing to draw"))"))
        }
        host.terminal.out(lines.map { $0 + "\n" }.joined())
        return snapshot.phase == .failed ? .degraded : .ok
    }
}

/// A fault `preview --fail` injects in front of the component's endpoint.
enum InjectedFault: String, CaseIterable {
    case notfound, http500, timeout, malformed
}

/// Answers every fetch with the injected fault: the same faults the real backends produce.
struct FaultInjectingBackend: Backend {
    let fault: InjectedFault
    let clock: any CourierClock

    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        switch fault {
        case .notfound: throw .notFound(path: endpoint.path)
        case .http500: throw .httpStatus(500, path: endpoint.path)
        case .malformed: return Data("{\"truncated\": ".utf8)
        case .timeout:
            do { try await clock.sleep(for: .seconds(86_400)) } catch {}
            throw .timeout(path: endpoint.path)
        }
    }
}
