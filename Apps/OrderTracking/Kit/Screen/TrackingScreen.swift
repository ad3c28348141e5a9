import Core
import Foundation
import ScreenRuntime
import TerminalUI

/// One order-tracking screen: fetch the layout, hand it to the screen runtime (Modules/ScreenRuntime: slots,
/// loads, events, refreshes, `--watch` rounds, stale cards) and show its frames: painted in place on a
/// terminal, as frames or JSON otherwise (ScreenOutput). The host never decodes a component's data, draws
/// inside a slot or decides a component's business.
struct TrackingScreen: Sendable {
    let options: TrackingOptions
    let host: HostEnvironment
    /// `--analytics FILE`, when given: where the squads' analytics events go.
    var analytics: AnalyticsLog?

    func run() async -> ExitCode {
        let layout: ScreenLayout
        switch await ScreenLayout.fetch(order: options.order, host: host, timeout: options.timeout) {
        case .success(let fetched): layout = fetched
        case .failure(let error):
            host.terminal.err(error.message)
            return .fatal
        }
        let output = ScreenOutput(options: options, host: host)
        let terminal = host.terminal
        var settings = ScreenSettings(ids: ["order": options.order])
        (settings.timeout, settings.watch, settings.every) = (options.timeout, options.watch, options.every)
        (settings.staleLimit, settings.includeInfo) = (options.staleLimit, output.mode == .json)
        let runtime = ScreenRuntime(
            entries: layout.entries, registry: host.registry, backend: host.backend, clock: host.clock,
            settings: settings, report: host.runtimeReport(trace: options.trace, analytics: analytics),
            source: "orders/\(options.order)/screen.json")
        let screen = PaintedScreen(
            FramePainter(
                width: terminal.cardWidth, styler: terminal.styler, live: output.mode == .live,
                header: [terminal.styler.apply(.bold, "Order \(options.order)")],
                slots: runtime.cards.map { SlotView(id: $0.registration.id) }
            ) { terminal.out($0) })
        terminal.onResume { screen.paint { $0.repaintWhole() } }
        let final = await runtime.run { frame, moment in
            screen.show(frame)
            if moment == .first {
                terminal.hideCursorIf(output.mode == .live)
                screen.paint { $0.paintFirstFrame() }
            }
            if moment == .settled { output.settled(frame, screen: screen) }
        }
        screen.show(final)
        output.finished(final, screen: screen)
        terminal.restore()
        for card in final.cards where !card.visible {
            terminal.err("\(card.id) hidden: \(card.reason ?? "failed")")
        }
        return final.degraded ? .degraded : .ok
    }
}

extension HostEnvironment {
    /// Where a screen runtime's diagnostics, `--trace` lines and analytics go.
    func runtimeReport(trace: Bool, analytics: AnalyticsLog?) -> RuntimeReport {
        let terminal = terminal
        var report = RuntimeReport(diagnostic: { terminal.err($0) })
        if trace { report.trace = { terminal.err($0) } }
        if let analytics { report.analytics = { event, id in analytics.record(event, from: id) } }
        return report
    }
}
