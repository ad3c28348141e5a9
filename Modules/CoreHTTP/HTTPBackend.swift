import Core
import Foundation

/// Fetches endpoints from a real HTTP API laid out like the fixture tree. On Linux it drives libcurl directly
/// (``CurlTransport``: it sleeps while it waits); on Apple platforms it uses URLSession.
public struct HTTPBackend: Backend {
    private let base: String
    #if os(Linux)
        private let transport: Result<CurlTransport, BackendError.Unavailable>
    #else
        private let session: URLSession
        private let timeout: Duration
    #endif

    /// Talks to `base` (e.g. http://127.0.0.1:8080), giving each request `timeout` to answer. `caFile` names
    /// the certificates to trust for HTTPS instead of the system's.
    public init(base: URL, timeout: Duration, caFile: String? = nil) {
        let text = base.absoluteString
        self.base = text.hasSuffix("/") ? String(text.dropLast()) : text
        #if os(Linux)
            transport = CurlTransport.make(options: .init(timeout: timeout, caFile: caFile))
        #else
            self.timeout = timeout
            session = Self.session(timeout: timeout)
        #endif
    }

    /// Why a text is no base URL for ``HTTPBackend``: the words finish "--api 'TEXT' …" in a host's message.
    public struct BaseRefusal: Error, Sendable, Equatable {
        /// What is wrong and what to give instead.
        public let reason: String
    }

    /// An http(s) base URL from a person's text. Schemes are case-insensitive (`HTTP://` is http); a query or a
    /// fragment is refused, because every endpoint path is appended to the base and would land inside it.
    public static func baseURL(_ text: String) throws(BaseRefusal) -> URL {
        let example = "like http://127.0.0.1:8080 or https://api.example.com/v1"
        guard var parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = parts.host, !host.isEmpty
        else { throw BaseRefusal(reason: "is not an http(s) URL \(example)") }
        guard parts.query == nil, parts.fragment == nil else {
            throw BaseRefusal(
                reason: "carries a query (?…) or a fragment (#…); endpoint paths go after the base, so give the "
                    + "base alone, \(example)")
        }
        parts.scheme = scheme
        guard let url = parts.url else { throw BaseRefusal(reason: "is not an http(s) URL \(example)") }
        return url
    }

    /// The endpoint's URL: the base plus every segment percent-encoded, so an id can never change the path.
    public func url(for endpoint: Endpoint) -> URL {
        URL(string: urlString(for: endpoint))!
    }

    private func urlString(for endpoint: Endpoint) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%;")
        let encoded = endpoint.segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0 }
        return base + "/" + encoded.joined(separator: "/")
    }

    /// Why this process cannot speak HTTP (libcurl is loaded on first use and may be missing), or nil when it can.
    /// Hosts ask before building an `HTTPBackend`, so a missing library is a clear message, not a crash.
    public static func unavailableReason() -> String? {
        #if os(Linux)
            if case .failure(let missing) = CurlTransport.make(options: .init(timeout: .seconds(1))) {
                return missing.reason
            }
        #endif
        return nil
    }

    /// GETs the endpoint; maps 404, other statuses, timeouts and transport faults to ``BackendError``.
    public func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
        let path = endpoint.path
        let (status, body) = try await get(urlString(for: endpoint), path: path)
        if status == 404 { throw .notFound(path: path) }
        guard (200..<300).contains(status) else { throw .httpStatus(status, path: path) }
        return body
    }

    /// POSTs `body` as JSON with `headers`, once, on a connection of its own (a redirect is not followed, a fault
    /// is not retried); the same status mapping as ``fetch(_:)``. A fault once the request went out is
    /// ``BackendError/unanswered(_:path:)``: the server may have acted on it.
    public func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
        let path = endpoint.path
        var lines = ["Content-Type: application/json"]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard Self.isHeaderText(name), Self.isHeaderText(value), !name.contains(":") else {
                throw .invalidRequest("header '\(name)' is not plain text")
            }
            lines.append("\(name): \(value)")
        }
        let (status, answer) = try await get(urlString(for: endpoint), path: path, post: (body, lines))
        if status == 404 { throw .notFound(path: path) }
        guard (200..<300).contains(status) else { throw .httpStatus(status, path: path) }
        return answer
    }

    /// Printable ASCII only: a header can never smuggle a line break into the request.
    private static func isHeaderText(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    #if os(Linux)
        private func get(_ url: String, path: String, post: (body: Data, headers: [String])? = nil)
            async throws(BackendError) -> (status: Int, body: Data)
        {
            switch transport {
            case .success(let transport): return try await transport.get(url, path: path, post: post)
            case .failure(let missing):
                throw .transport("HTTP needs libcurl (\(missing.reason)); install libcurl4", path: path)
            }
        }
    #else
        /// An ephemeral session that follows redirects only to the same scheme or a stronger one.
        private static func session(timeout: Duration) -> URLSession {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout.seconds
            configuration.timeoutIntervalForResource = timeout.seconds
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            return URLSession(configuration: configuration, delegate: SameSchemeRedirects(), delegateQueue: nil)
        }

        /// URLSession's faults that come before any byte of the request was written: nothing was sent.
        private static let beforeSending: Set<URLError.Code> = [
            .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet, .secureConnectionFailed,
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot, .clientCertificateRejected, .clientCertificateRequired,
            .appTransportSecurityRequiresSecureConnection,
        ]

        private func get(_ url: String, path: String, post: (body: Data, headers: [String])? = nil)
            async throws(BackendError) -> (status: Int, body: Data)
        {
            guard let url = URL(string: url) else { throw .invalidRequest("bad URL \(url)") }
            // A POST gets a session of its own, made for it and thrown away after it: a new connection no earlier
            // request kept alive, so the system has no dead connection to send it again on.
            let session = post == nil ? self.session : Self.session(timeout: timeout)
            defer { if post != nil { session.finishTasksAndInvalidate() } }
            var request = URLRequest(url: url)
            if let post {
                (request.httpMethod, request.httpBody) = ("POST", post.body)
                for line in post.headers {
                    let parts = line.split(separator: ":", maxSplits: 1).map(String.init)
                    request.setValue(parts.last?.trimmingCharacters(in: .whitespaces), forHTTPHeaderField: parts[0])
                }
            }
            do {
                let (data, response) = try await session.data(for: request)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                // SameSchemeRedirects stops a downgrade, which leaves the redirect itself as the answer (a POST's
                // redirect is never followed: its status is the answer).
                if post == nil, (300..<400).contains(status), url.scheme?.lowercased() == "https" {
                    throw BackendError.transport(BackendError.downgradeRefused, path: path)
                }
                return (status, data)
            } catch let error as BackendError {
                throw error
            } catch let error as URLError {
                // URLSession does not say how much of a POST went out: anything but a fault before connecting may
                // have reached the server.
                if post != nil, !Self.beforeSending.contains(error.code) {
                    throw .unanswered("\(error.localizedDescription) (the request may have gone out)", path: path)
                }
                if error.code == .timedOut { throw .timeout(path: path) }
                throw .transport(error.localizedDescription, path: path)
            } catch {
                if post != nil { throw .unanswered("\(error) (the request may have gone out)", path: path) }
                throw .transport("\(error)", path: path)
            }
        }
    #endif
}

#if !os(Linux)
    /// Follows a redirect only to the same scheme or a stronger one: https never falls back to cleartext http.
    private final class SameSchemeRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest
        ) async -> URLRequest? {
            // A POST is never redirected: it would arrive elsewhere as a GET, or be sent twice.
            if task.originalRequest?.httpMethod == "POST" { return nil }
            let from = task.originalRequest?.url?.scheme?.lowercased()
            let to = request.url?.scheme?.lowercased()
            return from == "https" && to != "https" ? nil : request
        }
    }
#endif

extension BackendError {
    /// The reason a card shows when an https backend redirects to http: the transfer is refused, never downgraded.
    public static let downgradeRefused =
        "refused a redirect from https to http (the answer would travel in cleartext); fix the server's redirect"

    /// Why a backend cannot work in this process at all (a shared library it needs is missing).
    public struct Unavailable: Error, Sendable {
        /// What the loader said, e.g. "libcurl.so.4: cannot open shared object file".
        public let reason: String
    }
}
