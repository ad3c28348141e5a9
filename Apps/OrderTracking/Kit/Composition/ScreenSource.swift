import Core
import Foundation
import ScreenRuntime
import ScreenSinks

extension HostEnvironment {
    /// Screen `name`'s definition from the backend (`screens/NAME.json`), or nil when it cannot be had (said on
    /// stderr: the run is fatal). A backend laid out before screens were data has no `screens/tracking.json`:
    /// the embedded demo's is used.
    func definition(_ name: String) async -> ScreenDefinition? {
        guard let endpoint = try? Endpoint("screens", name + ".json") else { return nil }
        do {
            return try await fetchDecoded(endpoint, backend: backend, clock: clock, timeout: timeout) {
                try ScreenDefinition.parse($0, name: name)
            }
        } catch .notFound(let path) {
            if let embedded = Self.embeddedDefinition(name), name == "tracking" { return embedded }
            terminal.err("no screen '\(name)' on this backend (\(path): 404); the demo has tracking and checkout")
        } catch {
            terminal.err(Self.advice(error, what: "screen '\(name)'", timeout: timeout))
        }
        return nil
    }

    /// The embedded demo's definition of `name`, read from the fixtures shipped with the app.
    static func embeddedDefinition(_ name: String) -> ScreenDefinition? {
        guard let data = FileManager.default.contents(atPath: embeddedFixtures + "/screens/\(name).json") else {
            return nil
        }
        return try? ScreenDefinition.parse(data, name: name)
    }

    /// The runtime for `definition` with `settings` (its ids are the screen's inputs), with `extra` cards at its
    /// end (those a prompt feeds), or nil when a per-subject layout cannot be fetched (said on stderr: fatal).
    func runtime(
        _ definition: ScreenDefinition, settings: ScreenSettings, trace: Bool = false, analytics: AnalyticsLog?,
        adding extra: [ComponentID] = []
    ) async -> ScreenRuntime? {
        var entries = definition.entries
        var source = "screens/\(definition.name).json"
        if let layout = definition.layout {
            do {
                let endpoint = try ScreenDefinition.endpoint(layout, settings.ids)
                source = endpoint.path
                let critical = Set(entries.filter(\.critical).map(\.id))
                entries = try await ScreenEntry.fetchLayout(
                    endpoint, backend: backend, clock: clock, timeout: settings.timeout,
                    defaultOrder: entries.map(\.id)
                ).map { ScreenEntry(id: $0.id, payload: $0.payload, critical: $0.critical || critical.contains($0.id)) }
            } catch {
                let subject = definition.inputs.first.map { ($0, settings.ids[$0] ?? "") }
                terminal.err(Self.advice(error, what: "the screen layout", subject: subject, timeout: settings.timeout))
                return nil
            }
        }
        entries += extra.filter { id in !entries.contains { $0.id == id } }.map { ScreenEntry(id: $0) }
        let terminal = terminal
        var report = RuntimeReport(diagnostic: { terminal.err($0) })
        if trace { report.trace = { terminal.err($0) } }
        if let analytics { report.analytics = { event, id in analytics.record(event, from: id) } }
        return ScreenRuntime(
            entries: entries, registry: registry, backend: backend, clock: clock, settings: settings, report: report,
            source: source)
    }

    /// What a person should try when `what` cannot be had (the run is fatal: exit 1); a 404 of a subject's layout
    /// means the subject (`order 9999`) does not exist.
    static func advice(
        _ error: any Error, what: String, subject: (String, String)? = nil, timeout: Duration
    ) -> String {
        switch error as? LayoutFailure {
        case .notFound(let path)? where subject != nil:
            "\(subject!.0) '\(subject!.1)' not found (\(path): 404)"
                + (subject!.0 == "order" ? "; try the demo order 1234" : "")
        case .notFound(let path)?: "cannot load \(what): \(path): not found (404)"
        case .noAnswer(let path)?:
            "cannot load \(what): \(path): no answer within \(String(format: "%g", timeout.seconds))s; "
                + "check --api or raise --timeout"
        case .unreachable(let error)?: "cannot load \(what): \(error); check --api or try again later"
        case .unreadable(let failure)?: "cannot load \(what): \(failure)"
        case nil: "cannot load \(what): \(Failure(describing: error))"
        }
    }
}
