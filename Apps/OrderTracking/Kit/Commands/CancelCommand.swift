import Core
import ScreenRuntime
import ScreenSinks

/// `cancel ORDER-ID`: loads the order's screen and asks every `Validatable` component whether it may be
/// cancelled; prints each verdict (ScreenSinks' `VerdictReport`). Fails closed: a validating component that
/// could not load counts as a veto, and a screen with no validating card is "cannot tell" (exit 4), never yes.
struct CancelCommand {
    let order: String
    let host: HostEnvironment
    let json: Bool
    let analytics: AnalyticsLog?

    func run() async -> ExitCode {
        var settings = ScreenSettings(ids: ["order": order])
        settings.timeout = host.timeout
        guard let runtime = await host.runtime(order: order, settings: settings, analytics: analytics) else {
            return .fatal
        }
        let report = VerdictReport(order: order, entries: await runtime.verdicts(on: UserAction.cancelOrder))
        host.terminal.out(json ? report.json.text + "\n" : report.lines.map { $0 + "\n" }.joined())
        return report.outcome == .allowed ? .ok : report.outcome == .vetoed ? .vetoed : .cannotTell
    }
}
