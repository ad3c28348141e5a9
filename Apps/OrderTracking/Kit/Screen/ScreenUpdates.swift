import Core
import Foundation

/// Reacts to what the components report, in order: repaints the slot that changed, hides and shows cards,
/// routes domain events between components, notes refresh requests and the end of the order, and traces
/// every step under `--trace`. It never reads a component's info.
struct ScreenUpdates: Sendable {
    let slots: [ScreenSlot]
    let state: ScreenState
    let host: HostEnvironment
    let trace: Trace
    let analytics: AnalyticsLog?

    func consume(_ stream: AsyncStream<ScreenMessage>) async {
        let components = slots.map(\.component)
        let router = EventRouter(consumers: components.map { ($0.id, $0.consumedEvents) })
        var handled = 0
        for await message in stream {
            guard case .update(let index, let update) = message else {
                if case .barrier(let continuation) = message { continuation.resume(returning: handled) }
                continue
            }
            handled += 1
            let id = components[index].id
            switch update {
            case .transition(let from, let to):
                trace("\(id): \(from?.rawValue ?? "start") → \(to.rawValue)")
                if to != .loading { state.settled(index, at: trace.elapsedMilliseconds) }
            case .drew(let block): state.paint { $0.update(index, block: .some(block)) }
            case .event(.hide(let failure)):
                trace("\(id): hide (\(failure.reason))")
                state.paint { $0.update(index, block: nil, hidden: true) }
            case .event(.show):
                trace("\(id): show")
                state.paint { $0.update(index, block: nil, hidden: false) }
            case .event(.refresh(let delay)):
                trace("\(id): asks for a refresh in \(delay.seconds)s")
                state.requestRefresh(index, after: delay)
            case .event(.finished):
                trace("\(id): finished")
                state.markFinished()
            case .event(.domain(let event)):
                let result = await router.route(event, from: id) { target, event in
                    components.first { $0.id == target }?.receive(event) ?? []
                }
                for hop in result.hops { trace("event \(hop.event): \(hop.from) → \(hop.to)") }
                for cycle in result.cycles { host.terminal.err(cycle.description) }
            case .event(.analytics(let event)):
                trace("\(id): analytics \(event.name)")
                analytics?.record(event, from: id)
            case .dropped(let generation): trace("\(id): dropped a stale answer (load #\(generation))")
            case .diagnostic(let message): host.terminal.err(message)
            }
        }
    }
}

/// `--trace`: timestamped lines on stderr, milliseconds since the run started.
struct Trace: Sendable {
    let enabled: Bool
    let started: ContinuousClock.Instant
    let terminal: Terminal

    var elapsedMilliseconds: Int { Int((ContinuousClock.now - started).seconds * 1000) }

    func callAsFunction(_ message: @autoclosure () -> String) {
        guard enabled else { return }
        let stamp = String(elapsedMilliseconds)
        terminal.err("[" + String(repeating: " ", count: max(0, 6 - stamp.count)) + stamp + "ms] " + message())
    }
}
