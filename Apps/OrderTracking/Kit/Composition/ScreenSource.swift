import ComponentWorkers
import Core
import Foundation
import ScreenRuntime
import ScreenSinks

extension HostEnvironment {
    /// Screen `name`'s definition from the backend, or nil when it cannot be had (said on stderr: fatal; unsaid
    /// when the run was cancelled). A backend laid out before screens were data has no `screens/tracking.json`:
    /// the embedded demo's is used.
    func definition(_ name: String) async -> ScreenDefinition? {
        do { return try await ScreenDefinition.fetch(name, backend: backend, clock: clock, timeout: timeout) } catch {
            // Cut short by a signal or a vanished reader: the run ends with its goodbye, not a failed fetch.
            if Task.isCancelled { return nil }
            if case .notFound(let path) = error {
                if name == "tracking", let embedded = Self.embeddedDefinition(name) { return embedded }
                terminal.err("no screen '\(name)' on this backend (\(path): 404); the demo has tracking and checkout")
            } else {
                terminal.err(error.advice(what: "screen '\(name)'", timeout: timeout))
            }
            return nil
        }
    }

    /// The embedded demo's definition of `name`, read from the fixtures shipped with the app.
    static func embeddedDefinition(_ name: String) -> ScreenDefinition? {
        FileManager.default.contents(atPath: embeddedFixtures + "/screens/\(name).json").flatMap {
            try? ScreenDefinition.parse($0, name: name)
        }
    }

    /// The runtime for `definition` with `settings` (its ids are the screen's inputs), with `extra` cards at its
    /// end (those a prompt feeds), or nil when a per-subject layout cannot be fetched (said on stderr: fatal;
    /// unsaid when the run was cancelled).
    func runtime(
        _ definition: ScreenDefinition, settings: ScreenSettings, trace: Bool = false, analytics: AnalyticsLog?,
        adding extra: [ComponentID] = []
    ) async -> ScreenRuntime? {
        if trace { workers?.trace { [terminal] in terminal.err($0) } }
        do {
            return try await definition.runtime(
                settings: settings, registry: registry, backend: backend, clock: clock,
                report: RuntimeReport(terminal: terminal, trace: trace, analytics: analytics), adding: extra)
        } catch {
            if Task.isCancelled { return nil }
            let subject = definition.inputs.first.map { (kind: $0, id: settings.ids[$0] ?? "") }
            let hint = subject?.kind == "order" ? "try the demo order 1234" : nil
            terminal.err(
                error.advice(what: "the screen layout", subject: subject, hint: hint, timeout: settings.timeout))
            return nil
        }
    }
}
