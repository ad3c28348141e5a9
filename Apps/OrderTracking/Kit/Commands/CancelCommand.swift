import Core
import ScreenRuntime
import ScreenSinks

/// `cancel ORDER-ID`: the tracking screen's `cancel-order` action, asked without a person: loads the order's
/// validating cards and prints each verdict (ScreenSinks' `VerdictReport`). Fails closed: a validating card
/// that could not load counts as a veto, and a screen with no validating card is "cannot tell" (exit 4), never
/// yes.
struct CancelCommand {
    let order: String
    let host: HostEnvironment
    let json: Bool
    let analytics: AnalyticsLog?

    func run() async -> ExitCode {
        guard let definition = await host.screens.definition("tracking") else { return .fatal }
        var settings = ScreenSettings(ids: ["order": order])
        (settings.timeout, settings.actions, settings.runner) = (host.timeout, definition.actions, host.runner)
        guard let runtime = await host.runtime(definition, settings: settings, analytics: analytics) else {
            return .fatal
        }
        let entries = await runtime.verdicts(on: UserAction.cancelOrder)
        // Cut short by a signal: a card the signal kept from loading is no veto, so there is no answer to print.
        if Task.isCancelled { return .fatal }
        // The sentences are the tracking screen's own words for its action.
        let spec = definition.actions.first { $0.id == UserAction.cancelOrder.name } ?? ActionSpec(id: "cancel-order")
        let report = VerdictReport(action: spec, inputs: ["order": order], answer: "cancellable", entries: entries)
        host.terminal.out(json ? report.json.text + "\n" : report.lines.map { $0 + "\n" }.joined())
        return report.outcome == .allowed ? .ok : report.outcome == .vetoed ? .vetoed : .cannotTell
    }
}
