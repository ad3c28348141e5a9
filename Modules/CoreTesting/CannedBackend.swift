import Core
import Foundation

/// A canned answer for one endpoint path.
public indirect enum CannedAnswer: Sendable {
    /// This JSON text as the body.
    case json(String)
    /// These bytes as the body.
    case body(Data)
    /// This fault instead of a body.
    case fault(BackendError)
    /// The body, after `delay` of virtual time.
    case delayed(Duration, String)
    /// Never answers (until cancelled): exercises the component's deadline.
    case hang
    /// One answer per fetch, in order; the last one repeats (a backend that fails, then recovers).
    case sequence([CannedAnswer])
}

/// A backend that answers from a table on a virtual clock and records what was asked, so tests see every fetch.
public final class CannedBackend: Backend {
    private let answers: [String: CannedAnswer]
    private let clock: VirtualClock
    private let state = Locked<(requests: [String], sleeping: Int, sent: [SentRequest])>(([], 0, []))

    /// Answers `answers[path]`; any other path is `notFound`.
    public init(_ answers: [String: CannedAnswer], clock: VirtualClock) {
        self.answers = answers
        self.clock = clock
    }

    /// Every path requested, in order.
    public var requests: [String] { state.withLock { $0.requests } }

    /// Every POST, in order, with its body and headers: what a test asserts was (or was not) sent.
    public var sent: [SentRequest] { state.withLock { $0.sent } }

    /// How many fetches are waiting on the virtual clock (the harness waits for them before advancing it).
    public var sleepingFetches: Int { state.withLock { $0.sleeping } }

    /// Answers from the table.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let path = endpoint.path
        let asked = state.withLock { state in
            state.requests.append(path)
            return state.requests.filter { $0 == path }.count
        }
        return try await answer(answers[path], path: path, fetch: asked)
    }

    /// Answers a POST from `answers["POST " + path]` (none: notFound), recording it. A POST that hangs was sent:
    /// when it ends without an answer (cancelled, or a day of virtual time) that is `unanswered`, as over HTTP.
    public func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
        let key = "POST " + endpoint.path
        let asked = state.withLock { state in
            state.sent.append(SentRequest(path: endpoint.path, body: body, headers: headers))
            return state.sent.filter { $0.path == endpoint.path }.count
        }
        return try await answer(answers[key], path: endpoint.path, fetch: asked, sent: true)
    }

    private func answer(_ answer: CannedAnswer?, path: String, fetch: Int, sent: Bool = false)
        async throws(BackendError) -> Data
    {
        switch answer {
        case nil: throw .notFound(path: path)
        case .json(let text): return Data(text.utf8)
        case .body(let data): return data
        case .fault(let error): throw error
        case .delayed(let delay, let text):
            try await sleep(delay, path: path, sent: sent)
            return Data(text.utf8)
        case .hang:
            try await sleep(.seconds(86_400), path: path, sent: sent)
            throw sent ? .unanswered("no answer", path: path) : .timeout(path: path)
        case .sequence(let answers):
            return try await self.answer(
                answers.isEmpty ? nil : answers[min(fetch, answers.count) - 1], path: path, fetch: fetch, sent: sent)
        }
    }

    private func sleep(_ duration: Duration, path: String, sent: Bool) async throws(BackendError) {
        state.withLock { $0.sleeping += 1 }
        defer { state.withLock { $0.sleeping -= 1 } }
        do { try await clock.sleep(for: duration) } catch {
            throw sent
                ? .unanswered("cancelled after the request was sent", path: path) : .transport("cancelled", path: path)
        }
    }
}

/// One POST a ``CannedBackend`` received.
public struct SentRequest: Sendable, Equatable {
    /// The endpoint's path.
    public let path: String
    /// The body as sent.
    public let body: Data
    /// The headers as sent.
    public let headers: [String: String]

    /// A request, as a test expects one.
    public init(path: String, body: Data, headers: [String: String]) {
        (self.path, self.body, self.headers) = (path, body, headers)
    }
}
