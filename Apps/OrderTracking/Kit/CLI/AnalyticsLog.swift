import ArgumentParsing
import Core
import Foundation
import HostIO
import JSON

/// `--analytics FILE`: what each squad's components asked to record (`Tracking`), one JSON line per event,
/// appended: `time`, `order`, `component`, `module`, `event`, `properties`. The squads choose the events and
/// their properties; the host adds only where and when.
struct AnalyticsLog: Sendable {
    let file: JSONLinesFile
    let order: String
    let host: HostEnvironment

    /// Opens `path` for appending, or nil when `--analytics` was not given.
    static func open(_ path: String?, order: String, host: HostEnvironment) throws(UsageError) -> AnalyticsLog? {
        guard let path else { return nil }
        return AnalyticsLog(
            file: try JSONLinesFile(path: path, option: "--analytics", append: true), order: order, host: host)
    }

    /// Writes one event as its line.
    func record(_ event: AnalyticsEvent, from id: ComponentID) {
        let module = (try? host.registry.registration(for: id))?.module ?? "?"
        let line = JSONValue.object([
            "time": .string(host.clock.now().formatted(.iso8601)), "order": .string(order),
            "component": .string(id.rawValue), "module": .string(module), "event": .string(event.name),
            "properties": .object(event.properties.mapValues(JSONValue.string)),
        ])
        file.append(line.text) { host.terminal.err($0) }
    }
}
