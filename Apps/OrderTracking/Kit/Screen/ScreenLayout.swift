import Core
import Foundation
import ScreenRuntime
import ScreenSinks

/// The order's screen as the backend describes it (`orders/<id>/screen.json`: component ids in order, each
/// optionally with its own raw payload slice, which the host hands to that component unread).
enum ScreenLayout {
    /// The host's order when the layout names no components.
    static let defaultOrder: [ComponentID] = ["tabs", "order", "eta", "delivery", "payment", "account"]
}

extension HostEnvironment {
    /// The runtime for `order`'s screen (the same slots for the screen and for `cancel`), with `extra` cards the
    /// layout does not name at its end (the promo card under `--promo`), or nil when the layout cannot be fetched
    /// (said on stderr: the run is fatal).
    func runtime(
        order: String, settings: ScreenSettings, trace: Bool = false, analytics: AnalyticsLog?,
        adding extra: [ComponentID] = []
    ) async -> ScreenRuntime? {
        var entries: [ScreenEntry]
        do {
            entries = try await ScreenEntry.fetchLayout(
                try Endpoint("orders", order, "screen.json"), backend: backend, clock: clock, timeout: settings.timeout,
                defaultOrder: ScreenLayout.defaultOrder)
        } catch {
            terminal.err(ScreenLayout.advice(error, order: order, timeout: settings.timeout))
            return nil
        }
        entries += extra.filter { id in !entries.contains { $0.id == id } }.map { ScreenEntry(id: $0) }
        let terminal = terminal
        var report = RuntimeReport(diagnostic: { terminal.err($0) })
        if trace { report.trace = { terminal.err($0) } }
        if let analytics { report.analytics = { event, id in analytics.record(event, from: id) } }
        return ScreenRuntime(
            entries: entries, registry: registry, backend: backend, clock: clock, settings: settings, report: report,
            source: "orders/\(order)/screen.json")
    }
}

extension ScreenLayout {
    /// What a person should try when order `order`'s layout cannot be had (the run is fatal: exit 1).
    static func advice(_ error: any Error, order: String, timeout: Duration) -> String {
        switch error as? LayoutFailure {
        case .notFound(let path)?: "order '\(order)' not found (\(path): 404); try the demo order 1234"
        case .noAnswer(let path)?:
            "cannot load the screen layout: \(path): no answer within \(String(format: "%g", timeout.seconds))s; "
                + "check --api or raise --timeout"
        case .unreachable(let error)?: "cannot load the screen layout: \(error); check --api or try again later"
        case .unreadable(let failure)?: "cannot load the screen layout for order '\(order)': \(failure)"
        case nil: "cannot load the screen layout for order '\(order)': \(Failure(describing: error))"
        }
    }
}
