import Core
import Foundation
import JSON

/// Every backend answer as one JSON line (`at_ms` since the first request, `endpoint`, `status`, `body_base64`
/// or `error`; a send's answer adds `"method": "POST"`, what was sent (`sent_base64`) and its `idempotency_key`,
/// and a send that went out unanswered `"unanswered": true`),
/// so a screen seen once can be played back, frame for frame, in a bug report: `RecordingBackend` writes them,
/// `ReplayBackend` answers from them. Both time answers on the injected clock.
/// One recorded answer.
public struct RecordedAnswer: Sendable {
    /// Milliseconds from the recording's first request to this answer.
    public let atMilliseconds: Int
    /// The endpoint's path.
    public let endpoint: String
    /// "GET" for a fetch, "POST" for a send (an action such as pay).
    public let method: String
    /// The body, or the fault.
    public let outcome: Result<Data, BackendError>
    /// A send's request: its body and its `Idempotency-Key` (nil for a fetch), which a replay must match.
    public let request: (body: Data, key: String?)?

    /// The answer as one JSON line (a fetch's line has no `method`, as before sends were recorded).
    public var line: String {
        var fields: [String: JSONValue] = [
            "at_ms": .number(Double(atMilliseconds)), "endpoint": .string(endpoint),
        ]
        if method != "GET" { fields["method"] = .string(method) }
        if let request {
            fields["sent_base64"] = .string(request.body.base64EncodedString())
            fields["idempotency_key"] = request.key.map(JSONValue.string) ?? .null
        }
        switch outcome {
        case .success(let body):
            fields["status"] = .number(200)
            fields["body_base64"] = .string(body.base64EncodedString())
        case .failure(.notFound): fields["status"] = .number(404)
        case .failure(.httpStatus(let code, _)): fields["status"] = .number(Double(code))
        case .failure(.timeout): fields["error"] = .string("timeout")
        case .failure(.transport(let message, _)): fields["error"] = .string(message)
        case .failure(.unanswered(let message, _)):
            (fields["error"], fields["unanswered"]) = (.string(message), .bool(true))
        case .failure(.invalidRequest(let why)): fields["error"] = .string("invalid request: \(why)")
        }
        return JSONValue.object(fields).text
    }

    /// An answer to record (`method` "POST" for a send's).
    public init(
        atMilliseconds: Int, endpoint: String, method: String = "GET", outcome: Result<Data, BackendError>,
        request: (body: Data, key: String?)? = nil
    ) {
        self.atMilliseconds = atMilliseconds
        self.endpoint = endpoint
        self.method = method
        self.outcome = outcome
        self.request = request
    }

    /// Reads one line; the error says which field is wrong. Numbers are checked before they become integers:
    /// `"at_ms": 1e19` or `"status": 1e30` is a clear error, not a trap.
    public init(line: Data) throws(RecordingError) {
        let value: JSONValue
        do { value = try JSONValue(parsing: line) } catch {
            throw RecordingError("\(error.problem) (byte \(error.offset))")
        }
        guard case .object(let fields) = value else { throw RecordingError("not a JSON object") }
        guard case .string(let endpoint)? = fields["endpoint"] else { throw RecordingError("no \"endpoint\" string") }
        guard case .number(let at)? = fields["at_ms"], let milliseconds = Int(exactly: at),
            (0...RecordedAnswer.longestRecording).contains(milliseconds)
        else {
            throw RecordingError(
                "\"at_ms\" must be a whole number of milliseconds from 0 to \(RecordedAnswer.longestRecording)")
        }
        self.atMilliseconds = milliseconds
        self.endpoint = endpoint
        switch fields["method"] {
        case nil: method = "GET"
        case .string(let name)? where name == "GET" || name == "POST": method = name
        default: throw RecordingError("\"method\" must be \"GET\" or \"POST\"")
        }
        switch (method, fields["sent_base64"], fields["idempotency_key"]) {
        case ("GET", _, _): request = nil
        case (_, .string(let body)?, let key):
            guard let data = Data(base64Encoded: body) else { throw RecordingError("\"sent_base64\" is not base64") }
            switch key {
            case .string(let key)?: request = (data, key)
            case nil, .null?: request = (data, nil)
            default: throw RecordingError("\"idempotency_key\" must be a string")
            }
        // A recording made before requests were kept: its POST answers no send (nothing matches it), the rest
        // still replays.
        case (_, nil, _): request = nil
        default: throw RecordingError("\"sent_base64\" must be a base64 string")
        }
        switch (fields["status"], fields["body_base64"], fields["error"]) {
        case (.number(let status)?, let body, _):
            guard let code = Int(exactly: status), (100...599).contains(code) else {
                throw RecordingError("\"status\" must be an HTTP status from 100 to 599")
            }
            switch (code, body) {
            case (200, .string(let body)?):
                guard let data = Data(base64Encoded: body) else {
                    throw RecordingError("\"body_base64\" is not base64")
                }
                outcome = .success(data)
            case (200, _): throw RecordingError("status 200 needs a \"body_base64\" string")
            case (404, _): outcome = .failure(.notFound(path: endpoint))
            default: outcome = .failure(.httpStatus(code, path: endpoint))
            }
        case (_, _, .string(let message)?) where fields["unanswered"] == .bool(true):
            outcome = .failure(.unanswered(message, path: endpoint))
        case (_, _, .string("timeout")?): outcome = .failure(.timeout(path: endpoint))
        case (_, _, .string(let message)?): outcome = .failure(.transport(message, path: endpoint))
        default: throw RecordingError("neither a \"status\" number nor an \"error\" string")
        }
    }

    /// A week: no recorded run is longer, and the figure keeps later arithmetic far from overflow.
    public static let longestRecording = 7 * 24 * 3_600_000
}

/// Why a line of a recording cannot be replayed.
public struct RecordingError: Error, Equatable, Sendable {
    /// What is wrong, naming the field.
    public let reason: String
    /// A reason, e.g. "no \"endpoint\" string".
    public init(_ reason: String) { self.reason = reason }
}

/// Passes every request through and hands each answer, as its line, to `write` as it arrives: fetches and sends
/// (a payment's answer, or its fault, is a backend answer too).
public final class RecordingBackend: Backend {
    private let wrapped: any Backend
    private let clock: any CourierClock
    private let write: @Sendable (String) -> Void
    private let started = Locked(Date?.none)

    /// Records what `backend` answers, timed on `clock`.
    public init(wrapping backend: any Backend, clock: any CourierClock, write: @escaping @Sendable (String) -> Void) {
        (wrapped, self.clock, self.write) = (backend, clock, write)
    }

    /// The wrapped backend's answer, recorded.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        try await record(endpoint, method: "GET") { () async throws(BackendError) in try await wrapped.fetch(endpoint) }
    }

    /// Passes a POST through once and records its answer or its fault (`"method": "POST"`), with the body and
    /// the `Idempotency-Key` it was sent with, so a replay answers only the same request.
    public func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
        try await record(endpoint, method: "POST", request: (body, headers["Idempotency-Key"])) {
            () async throws(BackendError) in
            try await wrapped.send(endpoint, body: body, headers: headers)
        }
    }

    private func record(
        _ endpoint: Endpoint, method: String, request sent: (body: Data, key: String?)? = nil,
        _ request: () async throws(BackendError) -> Data
    ) async throws(BackendError) -> Data {
        let now = clock.now()
        let started = self.started.withLock { started in
            if started == nil { started = now }
            return started!
        }
        let outcome: Result<Data, BackendError>
        do { outcome = .success(try await request()) } catch { outcome = .failure(error) }
        let elapsed = clock.now().timeIntervalSince(started) * 1000
        let answer = RecordedAnswer(
            atMilliseconds: Int(min(max(elapsed, 0), Double(RecordedAnswer.longestRecording))),
            endpoint: endpoint.path, method: method, outcome: outcome, request: sent)
        write(answer.line)
        return try outcome.get()
    }
}

/// Answers from a recording: each endpoint's answers in the order they were recorded, each no earlier than
/// it arrived in the recorded run (timed from the first request, on the injected clock). A send is answered
/// from the recording's POST answers for the same request (endpoint, body and `Idempotency-Key`), so a bug
/// report replays a payment's outcome too; nothing is ever sent, and any other send is refused: a replay never
/// answers a payment it did not record.
public final class ReplayBackend: Backend {
    private let clock: any CourierClock
    private let state: Locked<(answers: [String: [RecordedAnswer]], started: Date?)>

    /// Why a recording cannot be replayed: the line (1-based) and what is wrong with it.
    public struct LineError: Error, Equatable, Sendable {
        /// The line's number.
        public let line: Int
        /// What is wrong with it.
        public let reason: String
    }

    /// Reads every line of `data` (blank lines skipped); the first bad line is the error.
    public init(recording data: Data, clock: any CourierClock) throws(LineError) {
        var answers: [String: [RecordedAnswer]] = [:]
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            do {
                let answer = try RecordedAnswer(line: Data(line))
                answers[Self.key(answer.endpoint, answer.method), default: []].append(answer)
            } catch {
                throw LineError(line: number, reason: error.reason)
            }
        }
        self.clock = clock
        state = Locked((answers, nil))
    }

    private static func key(_ path: String, _ method: String) -> String { method == "GET" ? path : method + " " + path }

    /// The recorded answer for `endpoint`, no earlier than it came in the recording.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        try await replay(endpoint, method: "GET")
    }

    /// The recorded answer to the same POST (`endpoint`, `body` and `Idempotency-Key` all equal): that request's own
    /// answer, never another's; nothing is sent.
    public func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
        let recorded = state.withLock { $0.answers[Self.key(endpoint.path, "POST")] ?? [] }
        guard !recorded.isEmpty else { return try await replay(endpoint, method: "POST") }
        guard recorded.contains(where: { $0.request?.body == body }) else {
            let why =
                recorded.allSatisfy { $0.request == nil }
                ? "the recording was made before requests were kept; record it again"
                : "the recording holds another request to it (a different body)"
            throw .invalidRequest("\(endpoint.path): \(why)")
        }
        let key = headers["Idempotency-Key"]
        guard recorded.contains(where: { $0.request?.body == body && $0.request?.key == key }) else {
            throw .invalidRequest("\(endpoint.path): the recording sent it under another Idempotency-Key")
        }
        return try await replay(endpoint, method: "POST") { $0.request?.body == body && $0.request?.key == key }
    }

    /// The `Idempotency-Key` the recording sent `body` to `path` under: a replayed attempt is the recorded one.
    public func recordedKey(_ path: String, body: Data) -> String? {
        state.withLock { $0.answers[Self.key(path, "POST")]?.first { $0.request?.body == body }?.request?.key }
    }

    private func replay(
        _ endpoint: Endpoint, method: String, matching: (RecordedAnswer) -> Bool = { _ in true }
    ) async throws(BackendError) -> Data {
        let now = clock.now()
        let key = Self.key(endpoint.path, method)
        let (answer, started) = state.withLock { state -> (RecordedAnswer?, Date) in
            if state.started == nil { state.started = now }
            let queue = state.answers[key] ?? []
            guard let index = queue.firstIndex(where: matching) else { return (nil, state.started!) }
            // The last answer of an endpoint keeps answering: a replay may ask once more than the recording did.
            if queue.count > 1 { state.answers[key]?.remove(at: index) }
            return (queue[index], state.started!)
        }
        guard let answer else {
            if method == "POST" { throw .invalidRequest("\(endpoint.path): no POST to it in the recording") }
            throw .transport("not in the recording", path: endpoint.path)
        }
        let wait = started.addingTimeInterval(Double(answer.atMilliseconds) / 1000).timeIntervalSince(clock.now())
        if wait > 0 {
            do { try await clock.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up)))) } catch {
                throw .transport("cancelled", path: endpoint.path)
            }
        }
        return try answer.outcome.get()
    }
}
