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

    /// Reads one line; nil when it is not a recorded answer.
    init?(line: String) {
        guard case .object(let fields)? = try? JSONValue(parsing: Data(line.utf8)),
            case .number(let at)? = fields["at_ms"], case .string(let endpoint)? = fields["endpoint"]
        else { return nil }
        self.atMilliseconds = Int(at)
        self.endpoint = endpoint
        switch (fields["status"], fields["body_base64"], fields["error"]) {
        case (.number(200)?, .string(let body)?, _):
            guard let data = Data(base64Encoded: body) else { return nil }
            outcome = .success(data)
        case (.number(404)?, _, _): outcome = .failure(.notFound(path: endpoint))
        case (.number(let code)?, _, _): outcome = .failure(.httpStatus(Int(code), path: endpoint))
        case (_, _, .string("timeout")?): outcome = .failure(.timeout(path: endpoint))
        case (_, _, .string(let message)?): outcome = .failure(.transport(message, path: endpoint))
        default: return nil
        }
    }
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

    init(file path: String, clock: any CourierClock) throws(UsageError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "--replay '\(path)' cannot be read; give a file written by --record")
        }
        var answers: [String: [RecordedAnswer]] = [:]
        for (number, line) in String(decoding: data, as: UTF8.self).split(separator: "\n").enumerated() {
            guard let answer = RecordedAnswer(line: String(line)) else {
                throw UsageError(message: "--replay '\(path)' line \(number + 1) is not a recorded answer")
            }
            answers[answer.endpoint, default: []].append(answer)
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
