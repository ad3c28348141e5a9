import ArgumentParsing
import Core
import Foundation
import HostIO
import JSON
import ScreenRuntime

/// `--analytics FILE`: what each squad's components asked to record (`Tracking`), one JSON line per event,
/// appended: `time`, the screen's subject (`order` on tracking, `cart` on the checkout), `component`, `module`,
/// `event`, `properties`. The squads choose the events and their properties; the sink adds only where and when.
public struct AnalyticsLog: Sendable {
    let file: JSONLinesFile
    /// The screen's inputs the events are about (`["order": "4242"]`); a run that moves on to another screen
    /// (pay → the new order's tracking) tags that screen's events with its own.
    var subject: [String: String]
    let registry: ComponentRegistry
    let clock: any CourierClock
    let terminal: Terminal

    /// Opens `path` for appending (a usage error that says what to do when it cannot be written), or nil when
    /// no file was asked for.
    public static func open(
        _ path: String?, subject: [String: String], registry: ComponentRegistry, clock: any CourierClock,
        terminal: Terminal
    ) throws(UsageError) -> AnalyticsLog? {
        guard let path else { return nil }
        let file = try JSONLinesFile(path: path, option: "--analytics", append: true)
        return AnalyticsLog(file: file, subject: subject, registry: registry, clock: clock, terminal: terminal)
    }

    /// The same file, for the events of a screen about `subject`.
    public func about(_ subject: [String: String]) -> AnalyticsLog {
        var log = self
        log.subject = subject
        return log
    }

    /// Writes one event as its line; a line that cannot be written is said once on stderr.
    public func record(_ event: AnalyticsEvent, from id: ComponentID) {
        let module = (try? registry.registration(for: id))?.module ?? "?"
        let fields: [String: JSONValue] = [
            "time": .string(clock.now().formatted(.iso8601)), "component": .string(id.rawValue),
            "module": .string(module), "event": .string(event.name),
            "properties": .object(event.properties.mapValues(JSONValue.string)),
        ]
        let line = JSONValue.object(fields.merging(subject.mapValues(JSONValue.string)) { own, _ in own })
        file.append(line.text) { terminal.err($0) }
    }
}

extension RuntimeReport {
    /// A host's report: diagnostics (and with `trace`, `--trace` lines) to `terminal`'s stderr, the squads'
    /// analytics to `analytics` when given.
    public init(terminal: Terminal, trace: Bool, analytics: AnalyticsLog?) {
        self.init(diagnostic: { terminal.err($0) })
        if trace { self.trace = { terminal.err($0) } }
        if let analytics { self.analytics = { event, id in analytics.record(event, from: id) } }
    }
}
