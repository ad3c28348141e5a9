import Core
import Foundation
import LazyCurl

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches endpoints from a real HTTP API laid out like the fixture tree.
public struct HTTPBackend: Backend {
    private let base: URL
    private let timeout: Duration
    private let session: Result<URLSession, BackendError.Unavailable>

    /// Talks to `base` (e.g. http://127.0.0.1:8080), giving each request `timeout` to answer.
    public init(base: URL, timeout: Duration) {
        self.base = base
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        // FoundationNetworking hands whole seconds to curl (0.5 s becomes "time out at once"): round up, and let
        // the component container's deadline enforce sub-second limits.
        let seconds = max(1, timeout.seconds.rounded(.up))
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // libcurl is loaded here, not at process start (Modules/LazyCurl); without it every fetch explains why.
        if let reason = Self.unavailableReason() {
            self.session = .failure(.init(reason: reason))
        } else {
            self.session = .success(URLSession(configuration: configuration))
        }
    }

    /// The endpoint's URL: the base plus every segment percent-encoded.
    public func url(for endpoint: Endpoint) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%;")
        let encoded = endpoint.segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        let trimmed = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        return URL(string: trimmed + "/" + encoded.joined(separator: "/"))!
    }

    /// Why this process cannot speak HTTP (libcurl is loaded on first use and may be missing), or nil when it can.
    /// Hosts ask before building an `HTTPBackend`, so a missing library is a clear message, not a crash.
    public static func unavailableReason() -> String? {
        var reason = [CChar](repeating: 0, count: 512)
        guard lazy_curl_available(&reason, reason.count) == 0 else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// GETs the endpoint; maps 404, other statuses, timeouts and transport faults to ``BackendError``.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let path = endpoint.path
        let session: URLSession
        switch self.session {
        case .success(let ready): session = ready
        case .failure(let missing):
            throw .transport("HTTP needs libcurl (\(missing.reason)); install libcurl4", path: path)
        }
        var request = URLRequest(url: url(for: endpoint))
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        let data: Data
        let response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch let error as URLError {
            if error.code == .timedOut { throw .timeout(path: path) }
            throw .transport(error.localizedDescription, path: path)
        } catch { throw .transport("\(error)", path: path) }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status == 404 { throw .notFound(path: path) }
        guard (200..<300).contains(status) else { throw .httpStatus(status, path: path) }
        return data
    }
}

extension BackendError {
    /// Why a backend cannot work in this process at all (a shared library it needs is missing).
    public struct Unavailable: Error, Sendable {
        /// What the loader said, e.g. "libcurl.so.4: cannot open shared object file".
        public let reason: String
    }
}
