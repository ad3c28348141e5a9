import ArgumentParsing
import Core
import Foundation
import JSON

/// `--record FILE` and `--replay FILE`: every backend answer as one JSON line (`at_ms` since the first request,
/// `endpoint`, `status`, `body_base64` or `error`), so a screen seen once can be played back, frame for frame,
/// in a bug report.
struct RecordingOptions {
    let record: String?
    let replay: String?

    func backend(wrapping backend: any Backend, clock: any CourierClock, terminal: Terminal) throws(UsageError)
        -> any Backend
    {
        if let replay { return try ReplayBackend(file: replay, clock: clock) }
        if let record { return try RecordingBackend(wrapping: backend, file: record, terminal: terminal) }
        return backend
    }
}

/// One recorded answer.
struct RecordedAnswer: Sendable {
    let atMilliseconds: Int
    let endpoint: String
    let outcome: Result<Data, BackendError>

    var line: String {
        var fields: [String: JSONValue] = [
            "at_ms": .number(Double(atMilliseconds)), "endpoint": .string(endpoint),
        ]
        switch outcome {
        case .success(let body):
            fields["status"] = .number(200)
            fields["body_base64"] = .string(body.base64EncodedString())
        case .failure(.notFound): fields["status"] = .number(404)
        case .failure(.httpStatus(let code, _)): fields["status"] = .number(Double(code))
        case .failure(.timeout): fields["error"] = .string("timeout")
        case .failure(.transport(let message, _)): fields["error"] = .string(message)
        case .failure(.invalidRequest(let why)): fields["error"] = .string("invalid request: \(why)")
        }
        return JSONValue.object(fields).text
    }

    init(atMilliseconds: Int, endpoint: String, outcome: Result<Data, BackendError>) {
        self.atMilliseconds = atMilliseconds
        self.endpoint = endpoint
        self.outcome = outcome
    }

    /// Reads one line; the error says which field is wrong. Numbers are checked before they become integers:
    /// `"at_ms": 1e19` or `"status": 1e30` is a clear error, not a trap.
    init(line: Data) throws(RecordingError) {
        guard case .object(let fields)? = try? JSONValue(parsing: line) else {
            throw RecordingError("not a JSON object")
        }
        guard case .string(let endpoint)? = fields["endpoint"] else { throw RecordingError("no \"endpoint\" string") }
        guard case .number(let at)? = fields["at_ms"], let milliseconds = Int(exactly: at),
            (0...RecordedAnswer.longestRecording).contains(milliseconds)
        else {
            throw RecordingError(
                "\"at_ms\" must be a whole number of milliseconds from 0 to \(RecordedAnswer.longestRecording)")
        }
        self.atMilliseconds = milliseconds
        self.endpoint = endpoint
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
        case (_, _, .string("timeout")?): outcome = .failure(.timeout(path: endpoint))
        case (_, _, .string(let message)?): outcome = .failure(.transport(message, path: endpoint))
        default: throw RecordingError("neither a \"status\" number nor an \"error\" string")
        }
    }

    /// A week: no recorded run is longer, and the figure keeps later arithmetic far from overflow.
    static let longestRecording = 7 * 24 * 3_600_000
}

/// Why a line of a recording cannot be replayed.
struct RecordingError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Passes every request through and appends its answer to the file as it arrives.
final class RecordingBackend: Backend {
    private let wrapped: any Backend
    private let file: JSONLinesFile
    private let terminal: Terminal
    private let started = Locked(ContinuousClock.Instant?.none)

    init(wrapping backend: any Backend, file path: String, terminal: Terminal) throws(UsageError) {
        file = try JSONLinesFile(path: path, option: "--record", append: false)
        wrapped = backend
        self.terminal = terminal
    }

    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let started = self.started.withLock { started in
            if started == nil { started = ContinuousClock.now }
            return started!
        }
        let outcome: Result<Data, BackendError>
        do { outcome = .success(try await wrapped.fetch(endpoint)) } catch { outcome = .failure(error) }
        let answer = RecordedAnswer(
            atMilliseconds: Int((ContinuousClock.now - started).seconds * 1000), endpoint: endpoint.path,
            outcome: outcome)
        file.append(answer.line, errors: terminal)
        return try outcome.get()
    }
}

/// Answers from a recording: each endpoint's answers in the order they were recorded, each no earlier than
/// it arrived in the recorded run (timed from the first request).
final class ReplayBackend: Backend {
    private let clock: any CourierClock
    private let state: Locked<(answers: [String: [RecordedAnswer]], started: ContinuousClock.Instant?)>

    /// The largest recording replayed: bodies are kept decoded in memory for the run.
    static let largestFile = 256 << 20

    init(file path: String, clock: any CourierClock) throws(UsageError) {
        // Mapped, not read: a large recording costs its decoded bodies, not two more copies of its text.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) else {
            throw UsageError(message: "--replay '\(path)' cannot be read; give a file written by --record")
        }
        guard data.count <= ReplayBackend.largestFile else {
            throw UsageError(message: "--replay '\(path)' is larger than 256 MB; replay a shorter recording")
        }
        var answers: [String: [RecordedAnswer]] = [:]
        var number = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
            do {
                let answer = try RecordedAnswer(line: Data(line))
                answers[answer.endpoint, default: []].append(answer)
            } catch {
                throw UsageError(
                    message: "--replay '\(path)' line \(number) is not a recorded answer: \(error.reason)")
            }
        }
        self.clock = clock
        state = Locked((answers, nil))
    }

    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let (answer, started) = state.withLock { state -> (RecordedAnswer?, ContinuousClock.Instant) in
            if state.started == nil { state.started = ContinuousClock.now }
            let queue = state.answers[endpoint.path] ?? []
            // The last answer of an endpoint keeps answering: a replay may ask once more than the recording did.
            if queue.count > 1 { state.answers[endpoint.path]?.removeFirst() }
            return (queue.first, state.started!)
        }
        guard let answer else { throw .transport("not in the recording", path: endpoint.path) }
        let wait = started + .milliseconds(answer.atMilliseconds) - ContinuousClock.now
        if wait > .zero {
            do { try await clock.sleep(for: wait) } catch { throw .transport("cancelled", path: endpoint.path) }
        }
        return try answer.outcome.get()
    }
}
