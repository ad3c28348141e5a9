import Core
import Foundation
import TerminalUI

/// One order-tracking screen, start to end: fetch the layout, give each known component a slot with its
/// skeleton, load them all at once, and, under `--watch`, keep refreshing until the order is finished. Each
/// job lives in its own file: layout (ScreenLayout), slots (ScreenSlots), reacting to components
/// (ScreenUpdates), output modes (ScreenOutput), the JSON report (JSONReport). The host never decodes a
/// component's data, draws inside a slot or decides a component's business.
struct TrackingScreen: Sendable {
    let options: TrackingOptions
    let host: HostEnvironment
    /// `--analytics FILE`, when given: where the squads' analytics events go.
    var analytics: AnalyticsLog?

    func run() async -> ExitCode {
        let started = ContinuousClock.now
        let layout: ScreenLayout
        switch await ScreenLayout.fetch(order: options.order, host: host, timeout: options.timeout) {
        case .success(let fetched): layout = fetched
        case .failure(let error):
            host.terminal.err(error.message)
            return .fatal
        }
        let (stream, sink) = AsyncStream<ScreenMessage>.makeStream()
        let slots = layout.slots(for: options, host: host, sink: sink)
        let output = ScreenOutput(options: options, host: host)
        let terminal = host.terminal
        let painter = FramePainter(
            width: terminal.cardWidth, styler: terminal.styler, live: output.mode == .live,
            header: [terminal.styler.apply(.bold, "Order \(options.order)")],
            slots: slots.map { SlotView(id: $0.registration.id) }
        ) { terminal.out($0) }
        let state = ScreenState(painter: painter)
        for (index, slot) in slots.enumerated() {
            slot.component.present()
            let block = slot.component.snapshot(includingInfo: false).block
            state.paint { $0.update(index, block: .some(block)) }
        }
        terminal.hideCursorIf(output.mode == .live)
        state.paint { $0.paintFirstFrame() }
        terminal.onResume { state.paint { $0.repaintWhole() } }
        let trace = Trace(enabled: options.trace, started: started, terminal: terminal)
        let updates = ScreenUpdates(slots: slots, state: state, host: host, trace: trace, analytics: analytics)
        let consumer = Task { await updates.consume(stream) }
        let components = slots.map(\.component)

        await Self.concurrently(components) { await $0.load() }
        await Self.barrier(sink)
        output.settled(snapshot(slots, state, started, info: output.mode == .json), state: state)
        if options.watch {
            await watch(components, state: state, output: output, sink: sink, started: started, slots: slots)
        }

        sink.finish()
        await consumer.value
        let final = snapshot(slots, state, started, info: output.mode == .json)
        for (index, card) in final.cards.enumerated() {
            state.paint { $0.update(index, block: .some(card.snapshot.block), hidden: card.snapshot.phase == .failed) }
        }
        output.finished(final, state: state)
        terminal.restore()
        for card in final.cards where card.snapshot.phase == .failed {
            terminal.err("\(card.snapshot.id) hidden: \(card.snapshot.reason ?? "failed")")
        }
        return final.degraded ? .degraded : .ok
    }

    /// Until a component says the order is finished: sleep until the earliest card asked to be looked at again
    /// (or the `--every` round), reload those cards (retrying failed ones), and show the screen if it changed.
    private func watch(
        _ components: [any LoadableComponent], state: ScreenState, output: ScreenOutput,
        sink: AsyncStream<ScreenMessage>.Continuation, started: ContinuousClock.Instant, slots: [ScreenSlot]
    ) async {
        var nextRound = ContinuousClock.now + options.every
        var finishing = false
        while !finishing && !Task.isCancelled {
            // Once the order is finished, cards that asked for a look right now (the payment after "delivered")
            // get that last look, and the watch ends.
            finishing = state.isFinished
            let (due, next) = state.takeDue(now: ContinuousClock.now)
            var chosen = due
            if ContinuousClock.now >= nextRound && !finishing {
                chosen = Array(components.indices)
                nextRound = ContinuousClock.now + options.every
            }
            if chosen.isEmpty {
                if !finishing { await state.alarm.wait(until: min(next ?? nextRound, nextRound)) }
                continue
            }
            await Self.concurrently(chosen.map { components[$0] }) { component in
                if component.snapshot(includingInfo: false).phase == .failed {
                    await component.retry()
                } else {
                    await component.refresh()
                }
            }
            await Self.barrier(sink)
            output.settled(snapshot(slots, state, started, info: output.mode == .json), state: state)
        }
    }

    private func snapshot(
        _ slots: [ScreenSlot], _ state: ScreenState, _ started: ContinuousClock.Instant, info: Bool
    ) -> ScreenSnapshot {
        ScreenSnapshot(
            order: options.order, elapsedMs: Int((ContinuousClock.now - started).seconds * 1000),
            cards: slots.enumerated().map { index, slot in
                ScreenSnapshot.Card(
                    module: slot.registration.module, snapshot: slot.component.snapshot(includingInfo: info),
                    settledMs: state.settledAt(index))
            })
    }

    private static func concurrently(
        _ components: [any LoadableComponent], _ body: @escaping @Sendable (any LoadableComponent) async -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for component in components { group.addTask { await body(component) } }
        }
    }

    /// Waits until every update posted so far has been handled (painted, routed), including what handling
    /// them posted in turn (an event that makes another card ask for a refresh).
    private static func barrier(_ sink: AsyncStream<ScreenMessage>.Continuation) async {
        var last = -1
        while true {
            let handled = await withCheckedContinuation { continuation in
                if case .terminated = sink.yield(.barrier(continuation)) { continuation.resume(returning: last) }
            }
            if handled == last { return }
            last = handled
        }
    }
}
