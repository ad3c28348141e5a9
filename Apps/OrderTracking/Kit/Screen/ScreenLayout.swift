import Core
import Foundation
import ScreenRuntime

/// The order's screen as the backend describes it: component ids in order, each optionally with its own raw
/// payload slice. The host never looks inside a slice; it hands the bytes to that component.
struct ScreenLayout: Equatable {
    let entries: [ScreenEntry]

    /// The host's order when the layout names no components.
    static let defaultOrder: [ComponentID] = ["tabs", "order", "eta", "delivery", "payment", "account"]

    /// Decodes `{"components": ["order", {"id": "eta", "payload": {…}}]}` (ScreenRuntime's layout format); a
    /// missing list means the default order.
    static func decode(_ data: Data) throws -> ScreenLayout {
        ScreenLayout(entries: try ScreenEntry.layout(from: data, defaultOrder: defaultOrder))
    }
}

extension ScreenLayout {
    /// Fetches `orders/<id>/screen.json`. A 404 means the order does not exist; any other fault means the
    /// backend cannot be used. Both are fatal for a screen, with a message that says what to try.
    static func fetch(order: String, host: HostEnvironment, timeout: Duration) async -> Result<ScreenLayout, FatalError>
    {
        do {
            let endpoint = try Endpoint("orders", order, "screen.json")
            let backend = host.backend
            let data = try await withDeadline(timeout, on: host.clock) { try await backend.fetch(endpoint) }
            return .success(try ScreenLayout.decode(data))
        } catch BackendError.notFound(let path) {
            return .failure(FatalError("order '\(order)' not found (\(path): 404); try the demo order 1234"))
        } catch let error where ScreenLayout.isTimeout(error) {
            // The deadline and the transport's own limit are the same --timeout; whichever fires, say it one way.
            let limit = String(format: "%g", timeout.seconds)
            return .failure(
                FatalError(
                    "cannot load the screen layout: orders/\(order)/screen.json: no answer within \(limit)s; "
                        + "check --api or raise --timeout"))
        } catch let error as BackendError {
            return .failure(FatalError("cannot load the screen layout: \(error); check --api or try again later"))
        } catch {
            return .failure(
                FatalError("cannot load the screen layout for order '\(order)': \(Failure(describing: error))"))
        }
    }

    /// The deadline and the transport's own limit are both `--timeout`: either means "no answer in time".
    private static func isTimeout(_ error: any Error) -> Bool {
        if error is DeadlineExceeded { return true }
        if case BackendError.timeout = error { return true }
        return false
    }
}

extension HostEnvironment {
    /// The runtime for `order`'s screen (the same slots for the screen and for `cancel`), or nil when its layout
    /// cannot be fetched (said on stderr: the run is fatal).
    func runtime(order: String, settings: ScreenSettings, trace: Bool = false, analytics: AnalyticsLog?) async
        -> ScreenRuntime?
    {
        switch await ScreenLayout.fetch(order: order, host: self, timeout: settings.timeout) {
        case .failure(let error):
            terminal.err(error.message)
            return nil
        case .success(let layout):
            let terminal = terminal
            var report = RuntimeReport(diagnostic: { terminal.err($0) })
            if trace { report.trace = { terminal.err($0) } }
            if let analytics { report.analytics = { event, id in analytics.record(event, from: id) } }
            return ScreenRuntime(
                entries: layout.entries, registry: registry, backend: backend, clock: clock, settings: settings,
                report: report, source: "orders/\(order)/screen.json")
        }
    }
}

/// A run that cannot show a screen at all (exit 1); the message says why and what to try.
struct FatalError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
