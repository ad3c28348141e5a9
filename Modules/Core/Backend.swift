import Foundation

/// Everything that can go wrong fetching an endpoint, as one enum so every component maps faults the same way.
public enum BackendError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The endpoint does not exist (HTTP 404, or no such fixture file).
    case notFound(path: String)
    /// The server answered with a non-success status.
    case httpStatus(Int, path: String)
    /// No answer within the request's time limit.
    case timeout(path: String)
    /// The connection failed (refused, reset, DNS, unreadable file).
    case transport(String, path: String)
    /// A send went out (all or part of it) and no answer came back (the connection dropped, the time ran out):
    /// the server may have acted on it, so it is never reported as "nothing happened".
    case unanswered(String, path: String)
    /// The request itself was refused before sending (bad id, traversal attempt).
    case invalidRequest(String)

    /// One line naming the endpoint and the fault.
    public var description: String {
        switch self {
        case .notFound(let path): "\(path): not found (404)"
        case .httpStatus(let code, let path): "\(path): server answered HTTP \(code)"
        case .timeout(let path): "\(path): timed out"
        case .transport(let message, let path), .unanswered(let message, let path): "\(path): \(message)"
        case .invalidRequest(let why): "invalid request: \(why)"
        }
    }

    /// The way to the data failed (a timeout, a dropped connection, a 5xx), not the request or the data.
    public var isTransient: Bool {
        switch self {
        case .timeout, .transport, .unanswered: true
        case .httpStatus(let code, _): (500...599).contains(code)
        case .notFound, .invalidRequest: false
        }
    }
}

/// A backend path built from validated segments, so an id can never climb out of its folder.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    /// The path's segments, each already checked.
    public let segments: [String]

    /// Builds an endpoint; rejects empty, ".", "..", hidden and slash-bearing segments.
    public init(_ segments: String...) throws(BackendError) { try self.init(segments: segments) }

    /// Builds an endpoint from a list (a screen's `carts/{cart}/pay` filled in); the same checks.
    public init(segments: [String]) throws(BackendError) {
        for segment in segments {
            guard !segment.isEmpty, segment.count <= 128 else {
                throw .invalidRequest("path segment must be 1 to 128 characters, got \(segment.count)")
            }
            guard segment != ".", segment != "..", !segment.hasPrefix("."),
                !segment.contains(where: { $0 == "/" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } == true })
            else { throw .invalidRequest("path segment '\(segment)' is not allowed (no '/', '\\', '..' or dot files)") }
        }
        self.segments = segments
    }

    /// The relative path, "orders/1234/payment.json".
    public var path: String {
        // A loop, not `joined`: that one is not specialised here and costs a runtime conformance lookup.
        segments.joined(separator: "/")
    }
    /// The relative path.
    public var description: String { path }
}

/// Where components get their bytes; the host picks the embedded fixtures or a real HTTP API.
public protocol Backend: Sendable {
    /// The body of `endpoint`, or the fault that prevented it.
    func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data
    /// POSTs `body` to `endpoint` with `headers` (a screen's action: pay) and returns a 2xx answer's body; sent
    /// once on a connection of its own, never retried by the backend, so a person decides whether to try again.
    /// What a fault says about the payment is part of the contract: `.unanswered` when the request went out and no
    /// answer came (it may have been done), `.httpStatus`/`.notFound` for any other answer, and `.timeout`,
    /// `.transport` or `.invalidRequest` only when nothing was sent.
    func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data
}

extension Backend {
    /// A backend that only reads refuses: nothing is sent, and the action says why.
    public func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
        throw .invalidRequest("\(endpoint.path): this backend only reads")
    }
}
