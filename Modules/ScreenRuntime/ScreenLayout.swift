import Core
import Foundation
import JSON

extension ScreenEntry {
    /// The entries of a layout, `{"components": ["order", {"id": "eta", "payload": {…}}]}`: component ids in
    /// order, each optionally with its own payload slice, kept as the exact bytes the backend sent (the component
    /// decodes exactly those; the runtime never looks inside). Without a `components` list: `defaultOrder`.
    public static func layout(from data: Data, defaultOrder: [ComponentID]) throws -> [ScreenEntry] {
        let (value, slices) = try JSONValue.parse(data) { path in
            path.count == 3 && path[0] == "components" && path[2] == "payload"
        }
        guard case .object(let root) = value else {
            throw Failure("screen.json must be a JSON object")
        }
        return try entries(root["components"], slices: slices, source: "screen.json")
            ?? defaultOrder.map { ScreenEntry(id: $0) }
    }

    /// The most cards a definition or a layout may list: far beyond any screen, and bounded so that a hostile
    /// list (a 14 MB answer holds 3.5 million one-letter ids) is refused with one line instead of being laid out.
    /// Above the 190,000 entries a 14 MB layout with payloads holds (`HugeLayoutTests`), so such a layout is still
    /// read, summarised and held to the deadline.
    public static let maximumCount = 200_000

    /// The entries of a `components` list (nil when there is none): an id, or `{"id": …, "payload": …,
    /// "critical": true}`; `slices` are the payloads' exact bytes by path.
    static func entries(_ list: JSONValue?, slices: [[String]: Data], source: String) throws -> [ScreenEntry]? {
        guard let list else { return nil }
        guard case .array(let items) = list else { throw Failure("\(source): 'components' must be a list") }
        // Refused while still inside the deadline that covers the parse: every entry costs a slot, a registry
        // look-up and, unknown, a line kept for the summary, after the deadline (3.5 million took 1.1 GB).
        guard items.count <= maximumCount else {
            throw Failure("\(source): 'components' lists \(items.count) cards; a screen takes at most \(maximumCount)")
        }
        return try items.enumerated().map { index, item in
            switch item {
            case .string(let id): return ScreenEntry(id: ComponentID(id))
            case .object(let fields):
                guard case .string(let id)? = fields["id"] else {
                    throw Failure("\(source): components[\(index)] has no string 'id'")
                }
                var critical = false
                switch fields["critical"] {
                case nil, .bool(false)?: break
                case .bool(true)?: critical = true
                default: throw Failure("\(source): components[\(index)]: 'critical' must be true or false")
                }
                return ScreenEntry(
                    id: ComponentID(id), payload: slices[["components", String(index), "payload"]], critical: critical)
            default: throw Failure("\(source): components[\(index)] must be an id or {\"id\": …}")
            }
        }
    }
}

/// Why a screen's layout could not be had; the host turns each into its own advice (a screen without its layout
/// cannot be shown at all).
public enum LayoutFailure: Error, Sendable, Equatable {
    /// The backend has no such screen (HTTP 404): the order does not exist.
    case notFound(path: String)
    /// No answer within the deadline (the deadline and the transport's own limit count alike).
    case noAnswer(path: String)
    /// The backend failed otherwise (refused, reset, HTTP 5xx, …).
    case unreachable(BackendError)
    /// The answer is not a layout.
    case unreadable(Failure)
}

extension ScreenEntry {
    /// Fetches the layout at `endpoint` and decodes it (``layout(from:defaultOrder:)``), both within `timeout` on
    /// `clock`: a huge layout that takes long to read or parse is "no answer" at the deadline, like a slow one.
    public static func fetchLayout(
        _ endpoint: Endpoint, backend: any Backend, clock: any CourierClock, timeout: Duration,
        defaultOrder: [ComponentID]
    ) async throws(LayoutFailure) -> [ScreenEntry] {
        try await fetchDecoded(endpoint, backend: backend, clock: clock, timeout: timeout) {
            try layout(from: $0, defaultOrder: defaultOrder)
        }
    }
}

/// Fetches `endpoint` and decodes it with `decode`, both within `timeout` on `clock` (a screen's definition, an
/// order's layout): without it the screen cannot be shown, so every way it can fail is a ``LayoutFailure``.
public func fetchDecoded<Value: Sendable>(
    _ endpoint: Endpoint, backend: any Backend, clock: any CourierClock, timeout: Duration,
    decode: @escaping @Sendable (Data) throws -> Value
) async throws(LayoutFailure) -> Value {
    let decoded: Result<Value, Failure>
    do {
        decoded = try await withDeadline(timeout, on: clock) {
            let data = try await backend.fetch(endpoint)
            // Parsing off the caller's task, and off the pool the deadline's timer needs: at the deadline the
            // caller goes on and this is left to finish.
            return await TaskPlacement.blocking { () -> Result<Value, Failure> in
                do { return .success(try decode(data)) } catch { return .failure(Failure(describing: error)) }
            }
        }
    } catch BackendError.notFound(let path) {
        throw .notFound(path: path)
    } catch BackendError.timeout {
        throw .noAnswer(path: endpoint.path)
    } catch let error as BackendError {
        throw .unreachable(error)
    } catch is DeadlineExceeded {
        throw .noAnswer(path: endpoint.path)
    } catch {
        throw .unreadable(Failure(describing: error))
    }
    switch decoded {
    case .success(let value): return value
    case .failure(let failure): throw .unreadable(failure)
    }
}
