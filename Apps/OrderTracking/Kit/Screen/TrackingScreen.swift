import Core
import Foundation
import HostIO
import LiveScreen
import ScreenRuntime
import ScreenSinks

/// One order-tracking screen: fetch the layout, hand it to the screen runtime (Modules/ScreenRuntime: slots,
/// loads, events, refreshes, `--watch` rounds, stale cards) and its frames to the output (Modules/ScreenSinks:
/// painted in place on a terminal, frames or JSON otherwise). The host never decodes a component's data, draws
/// inside a slot or decides a component's business.
struct TrackingScreen: Sendable {
    let options: TrackingOptions
    let host: HostEnvironment
    /// `--analytics FILE`, when given: where the squads' analytics events go.
    var analytics: AnalyticsLog?

    func run() async -> ExitCode {
        if let code = options.promo { host.promo.submit(code) }
        // A person at a terminal drives a watched screen with keys (LiveConsole); everything else is as before.
        let interactive = options.watch && host.terminal.canReadKeys && !options.plain && !options.json
        var settings = ScreenSettings(ids: ["order": options.order])
        (settings.timeout, settings.watch, settings.every) = (host.timeout, options.watch, options.every)
        (settings.staleLimit, settings.includeInfo) = (options.staleLimit, options.json)
        settings.prompts = interactive ? HostEnvironment.prompts : []
        guard
            let runtime = await host.runtime(
                order: options.order, settings: settings, trace: options.trace, analytics: analytics,
                adding: options.promo == nil && !interactive ? [] : HostEnvironment.promptCards)
        else { return .fatal }
        let output = {
            ScreenOutput(
                order: options.order, cards: runtime.registrations.map(\.id), json: options.json,
                plain: options.plain || interactive, watch: options.watch && !interactive, terminal: host.terminal,
                clock: host.clock)
        }
        let (final, shown): (ScreenFrame, ScreenOutput)
        if interactive {
            let console = LiveConsole(
                order: options.order, runtime: runtime, terminal: host.terminal, clock: host.clock,
                tabs: host.consoleTabs(), heard: { [promo = host.promo] in promo.hear($0) },
                skipping: [HostEnvironment.barCard])
            final = await KeyReader.reading { await console.run(keys: $0) }
            // The last frame stays on the main screen, as a plain frame at the terminal's width now.
            shown = output()
        } else {
            shown = output()
            final = await runtime.run { frame, moment in shown.show(frame, moment) }
        }
        shown.finish(final)
        return final.degraded ? .degraded : .ok
    }
}
