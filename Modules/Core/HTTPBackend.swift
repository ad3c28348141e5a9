import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches endpoints from a real HTTP API laid out like the fixture tree.
public struct HTTPBackend: Backend {
    private let base: URL
    private let timeout: Duration
    private let session: URLSession

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
        self.session = URLSession(configuration: configuration)
    }

    /// The endpoint's URL: the base plus every segment percent-encoded.
    public func url(for endpoint: Endpoint) -> URL {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%;")
        let encoded = endpoint.segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        let trimmed = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        return URL(string: trimmed + "/" + encoded.joined(separator: "/"))!
    }

    /// GETs the endpoint; maps 404, other statuses, timeouts and transport faults to ``BackendError``.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let path = endpoint.path
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
