import Core
import Foundation
import TerminalUI

/// What `order-tracking [ORDER-ID]` was asked to do.
struct TrackingOptions {
    var order = "1234"
    var json = false
    var plain = false
    var timeout: Duration = .seconds(5)
    var watch: Duration?
    var trace = false
}

/// One order-tracking screen: lays out a slot per component, runs them all concurrently, paints every
/// change, routes their events, and reports. It never decodes a component's data or draws inside a slot.
final class TrackingScreen: Sendable {
    private let options: TrackingOptions
    private let host: HostEnvironment
    private let started = ContinuousClock.now
    private let elapsed = Locked<[String: Int]>([:])
    private let delivered = Locked(false)

    init(options: TrackingOptions, host: HostEnvironment) {
        self.options = options
        self.host = host
    }

    func run() async -> ExitCode {
        let layout: ScreenLayout
        switch await ScreenLayout.fetch(order: options.order, host: host, timeout: options.timeout) {
        case .success(let fetched): layout = fetched
        case .failure(let error):
            host.terminal.err(error.message)
            return .fatal
        }
        let (stream, sink) = AsyncStream<(Int, SlotUpdate)>.makeStream()
        var components: [(registration: ComponentRegistration, component: any LoadableComponent)] = []
        for entry in layout.entries {
            do {
                let registration = try host.registry.registration(for: entry.id)
                let index = components.count
                let slot = Slot(id: entry.id) { sink.yield((index, $0)) }
                let context = ComponentContext(
                    ids: ["order": options.order], backend: host.backend, clock: host.clock, timeout: options.timeout,
                    payload: entry.payload)
                components.append((registration, registration.instantiate(in: slot, context: context)))
            } catch {
                host.terminal.err("skipping '\(entry.id)' from orders/\(options.order)/screen.json: \(error)")
            }
        }
        let live = host.terminal.isTTY && !options.plain && !options.json
        let terminal = host.terminal
        var painter = FramePainter(
            width: terminal.cardWidth, styler: terminal.styler, live: live,
            header: [terminal.styler.apply(.bold, "Order \(options.order)")],
            slots: components.map { SlotView(id: $0.registration.id) }
        ) { terminal.out($0) }
        for (index, entry) in components.enumerated() {
            entry.component.present()
            painter.update(index, block: .some(entry.component.snapshot(includingInfo: false).block))
        }
        terminal.hideCursorIf(live)
        painter.paintFirstFrame()
        let loaded = components.map(\.component)
        let consumer = Task { [painter] in
            var painter = painter
            await self.consume(stream, painter: &painter, components: loaded)
            return self.finish(&painter, components: components)
        }
        await loadAll(loaded)
        if let interval = options.watch { await watch(loaded, every: interval) }
        sink.finish()
        return await consumer.value
    }

    private func loadAll(_ components: [any LoadableComponent]) async {
        await withTaskGroup(of: Void.self) { group in
            for component in components {
                group.addTask {
                    await component.load()
                    let ms = Int((ContinuousClock.now - self.started).seconds * 1000)
                    self.elapsed.withLock { $0[component.id.rawValue] = ms }
                }
            }
        }
    }

    private func watch(_ components: [any LoadableComponent], every interval: Duration) async {
        while !Task.isCancelled {
            if delivered.withLock({ $0 }) { return }
            do { try await host.clock.sleep(for: interval) } catch { return }
            await withTaskGroup(of: Void.self) { group in
                for component in components {
                    group.addTask {
                        if component.snapshot(includingInfo: false).phase == .failed {
                            await component.retry()
                        } else {
                            await component.refresh()
                        }
                    }
                }
            }
        }
    }

    private func consume(
        _ stream: AsyncStream<(Int, SlotUpdate)>, painter: inout FramePainter, components: [any LoadableComponent]
    )
        async
    {
        let router = EventRouter(consumers: components.map { ($0.id, $0.consumedEvents) })
        for await (index, update) in stream {
            let id = components[index].id
            switch update {
            case .transition(let from, let to): trace("\(id): \(from?.rawValue ?? "start") → \(to.rawValue)")
            case .drew(let block): painter.update(index, block: .some(block))
            case .event(.hide(let failure)):
                trace("\(id): hide (\(failure.reason))")
                painter.update(index, block: nil, hidden: true)
            case .event(.show): painter.update(index, block: nil, hidden: false)
            case .event(.refreshRequested):
                for other in components where other.id != id && !other.consumedEvents.isEmpty { await other.refresh() }
            case .event(.domain(let event)):
                if event.value == "delivered" { delivered.withLock { $0 = true } }
                let result = await router.route(event, from: id) { target, event in
                    components.first { $0.id == target }?.receive(event) ?? []
                }
                for hop in result.hops { trace("event \(hop.event): \(hop.from) → \(hop.to)") }
                for cycle in result.cycles { host.terminal.err(cycle.description) }
            case .dropped(let generation): trace("\(id): dropped a stale answer (load #\(generation))")
            case .diagnostic(let message): host.terminal.err(message)
            }
        }
    }

    private func finish(
        _ painter: inout FramePainter,
        components: [(registration: ComponentRegistration, component: any LoadableComponent)]
    )
        -> ExitCode
    {
        let snapshots = components.map { $0.component.snapshot(includingInfo: options.json) }
        for (index, snapshot) in snapshots.enumerated() {
            painter.update(index, block: .some(snapshot.block), hidden: snapshot.phase == .failed)
        }
        host.terminal.restore()
        let failed = snapshots.filter { $0.phase == .failed }
        if options.json {
            let report = JSONReport(
                order: options.order, elapsedMs: Int((ContinuousClock.now - started).seconds * 1000),
                components: zip(components, snapshots).map { entry, snapshot in
                    JSONReport.Entry(
                        snapshot, module: entry.registration.module,
                        elapsedMs: elapsed.withLock { $0[snapshot.id.rawValue] })
                })
            host.terminal.out(report.text() + "\n")
        } else if !host.terminal.isTTY || options.plain {
            host.terminal.out(painter.frame())
        }
        for snapshot in failed { host.terminal.err("\(snapshot.id) hidden: \(snapshot.reason ?? "failed")") }
        return failed.isEmpty ? .ok : .degraded
    }

    private func trace(_ message: String) {
        guard options.trace else { return }
        let ms = Int((ContinuousClock.now - started).seconds * 1000)
        let stamp = String(ms)
        host.terminal.err("[" + String(repeating: " ", count: max(0, 6 - stamp.count)) + stamp + "ms] " + message)
    }
}
