import Core
import JSON
import SafeText
import ScreenRuntime

/// `cancel ORDER-ID`: loads the order's screen and asks every `Validatable` component whether it may be
/// cancelled. Fails closed: a validating component that could not load counts as a veto.
struct CancelCommand {
    let order: String
    let host: HostEnvironment
    let timeout: Duration
    let json: Bool
    let analytics: AnalyticsLog?

    func run() async -> ExitCode {
        let layout: ScreenLayout
        switch await ScreenLayout.fetch(order: order, host: host, timeout: timeout) {
        case .success(let fetched): layout = fetched
        case .failure(let error):
            host.terminal.err(error.message)
            return .fatal
        }
        // The same slots as the screen (unknown and repeated ids skipped, with a line on stderr).
        var settings = ScreenSettings(ids: ["order": order])
        settings.timeout = timeout
        let runtime = ScreenRuntime(
            entries: layout.entries, registry: host.registry, backend: host.backend, clock: host.clock,
            settings: settings, report: host.runtimeReport(trace: false, analytics: analytics),
            source: "orders/\(order)/screen.json")
        let verdicts: [(id: String, verdict: Verdict?, reason: String?)] = await runtime.verdicts(
            on: UserAction.cancelOrder
        ).map { ($0.id.rawValue, $0.verdict, $0.reason) }
        let vetoes = verdicts.filter { Self.isVeto($0.verdict) }.count
        if json {
            host.terminal.out(report(verdicts, vetoes: vetoes).text + "\n")
            return vetoes == 0 ? .ok : .vetoed
        }
        var lines: [String] = []
        for entry in verdicts {
            switch entry.verdict {
            case .allow?: lines.append("\(entry.id): ok")
            case .confirm(let summary, _)?: lines.append("\(entry.id): ok: \(summary)")
            case .veto(let reason)?: lines.append("\(entry.id): veto: \(reason)")
            case nil: lines.append("\(entry.id): veto: could not check (\(entry.reason ?? "not loaded"))")
            }
        }
        let plural = vetoes == 1 ? "veto" : "vetoes"
        lines.append(
            vetoes == 0
                ? "Order \(order) can be cancelled." : "Order \(order) can't be cancelled (\(vetoes) \(plural)).")
        host.terminal.out(lines.map { SafeText.visible($0) + "\n" }.joined())
        return vetoes == 0 ? .ok : .vetoed
    }

    /// `cancel --format json`: every verdict with its reason or confirmation, in one object.
    private func report(_ verdicts: [(id: String, verdict: Verdict?, reason: String?)], vetoes: Int) -> JSONValue {
        let rows: [JSONValue] = verdicts.map { entry in
            var row: [String: JSONValue] = [
                "id": .string(entry.id), "verdict": .string("veto"), "reason": .null, "confirmation": .null,
            ]
            switch entry.verdict {
            case .allow?: row["verdict"] = .string("allow")
            case .confirm(let summary, let facts)?:
                row["verdict"] = .string("allow")
                row["confirmation"] = .object([
                    "summary": .string(summary), "facts": .object(facts.mapValues(JSONValue.string)),
                ])
            case .veto(let reason)?: row["reason"] = .string(reason)
            case nil: row["reason"] = .string("could not check (\(entry.reason ?? "not loaded"))")
            }
            return .object(row)
        }
        return .object([
            "order": .string(order), "cancellable": .bool(vetoes == 0), "vetoes": .number(Double(vetoes)),
            "verdicts": .array(rows),
        ])
    }

    /// Fails closed: a veto, or no verdict at all (the component could not load), stops the cancel.
    static func isVeto(_ verdict: Verdict?) -> Bool {
        switch verdict {
        case .allow?, .confirm?: false
        case .veto?, nil: true
        }
    }
}
