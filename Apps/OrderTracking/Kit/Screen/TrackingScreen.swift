import Core
import Foundation
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
        var settings = ScreenSettings(ids: ["order": options.order])
        (settings.timeout, settings.watch, settings.every) = (options.timeout, options.watch, options.every)
        (settings.staleLimit, settings.includeInfo) = (options.staleLimit, options.json)
        guard
            let runtime = await host.runtime(
                order: options.order, settings: settings, trace: options.trace, analytics: analytics,
                adding: options.promo == nil ? [] : ["promo"])
        else { return .fatal }
        let output = ScreenOutput(
            order: options.order, cards: runtime.cards.map(\.registration.id), json: options.json,
            plain: options.plain, watch: options.watch, terminal: host.terminal, clock: host.clock)
        let final = await runtime.run { frame, moment in output.show(frame, moment) }
        output.finish(final)
        return final.degraded ? .degraded : .ok
    }
}
