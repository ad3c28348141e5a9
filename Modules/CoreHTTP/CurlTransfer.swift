#if os(Linux)
    import Core
    import CurlBinding
    import Foundation

    /// One GET (or one POST) on one easy handle: its options, the body as it arrives, and the one continuation it
    /// resumes. Only the transport's loop thread touches it after it is queued (`@unchecked` for that reason).
    final class CurlTransfer: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
        let path: String
        var continuation: CheckedContinuation<Result<(status: Int, body: Data), BackendError>, Never>?
        var cancelled = false
        private let limit: Int
        private let redirects: Int
        private let timeout: Duration
        /// An https request may only be redirected to https: a redirect to http would send the rest in cleartext.
        private let secureOnly: Bool
        private var body = Data()
        private var overflowed = false
        private let errors = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
        /// A POST's header list, freed with the handle.
        private var headerList: UnsafeMutableRawPointer?
        /// A POST: its faults say whether the request went out (``BackendError/unanswered(_:path:)``).
        private let posting: Bool

        // curl.h's option and info numbers (type base + index).
        private static let url: Int32 = 10002, writeData: Int32 = 10001, errorBuffer: Int32 = 10010
        private static let followLocation: Int32 = 52, maxRedirects: Int32 = 68, noSignal: Int32 = 99
        private static let timeoutMs: Int32 = 155, connectTimeoutMs: Int32 = 156, caInfo: Int32 = 10065
        private static let protocols: Int32 = 181, redirectProtocols: Int32 = 182, userAgent: Int32 = 10018
        private static let responseCode: Int32 = 0x20_0002
        private static let post: Int32 = 47, postFieldSize: Int32 = 60, copyPostFields: Int32 = 10165
        private static let httpHeader: Int32 = 10023
        private static let freshConnect: Int32 = 74, forbidReuse: Int32 = 75, httpVersion: Int32 = 84
        private static let requestSize: Int32 = 0x20_000C, http1_1 = 2
        private static let httpAndHTTPS = 3, httpsOnly = 2
        private static let unsupportedProtocol: Int32 = 1

        /// A GET of `url`, or with `post` a POST of its body with its header lines, never redirected (a 302 would
        /// turn it into a GET elsewhere) and never sent twice: libcurl sends a request again by itself only when
        /// it went out on a reused connection that turned out dead (and on an HTTP/2 stream the server refused), so
        /// a POST goes out on a new connection of its own, over HTTP/1.1, that nothing reuses after it.
        init(url: String, path: String, options: CurlTransport.Options, post: (body: Data, headers: [String])? = nil)
            throws(BackendError)
        {
            guard let easy = courier_curl_easy_init() else { throw .transport("curl_easy_init failed", path: path) }
            self.easy = easy
            self.path = path
            self.limit = options.maximumBodyBytes
            self.redirects = options.maximumRedirects
            self.timeout = options.timeout
            self.secureOnly = url.utf8.prefix(6).map { $0 | 0x20 } == Array("https:".utf8)
            self.posting = post != nil
            errors.initialize(to: 0)
            let milliseconds = Self.milliseconds(options.timeout)
            _ = courier_curl_easy_setopt_pointer(easy, Self.url, url)
            _ = courier_curl_easy_setopt_pointer(easy, Self.userAgent, "courier")
            _ = courier_curl_easy_setopt_pointer(easy, Self.errorBuffer, errors)
            _ = courier_curl_easy_setopt_long(easy, Self.noSignal, 1)
            _ = courier_curl_easy_setopt_long(easy, Self.timeoutMs, milliseconds)
            _ = courier_curl_easy_setopt_long(easy, Self.connectTimeoutMs, milliseconds)
            _ = courier_curl_easy_setopt_long(easy, Self.followLocation, post == nil ? 1 : 0)
            _ = courier_curl_easy_setopt_long(easy, Self.maxRedirects, options.maximumRedirects)
            _ = courier_curl_easy_setopt_long(easy, Self.protocols, Self.httpAndHTTPS)
            _ = courier_curl_easy_setopt_long(
                easy, Self.redirectProtocols, secureOnly ? Self.httpsOnly : Self.httpAndHTTPS)
            if let caFile = options.caFile { _ = courier_curl_easy_setopt_pointer(easy, Self.caInfo, caFile) }
            if let post {
                _ = courier_curl_easy_setopt_long(easy, Self.freshConnect, 1)
                _ = courier_curl_easy_setopt_long(easy, Self.forbidReuse, 1)
                _ = courier_curl_easy_setopt_long(easy, Self.httpVersion, Self.http1_1)
                _ = courier_curl_easy_setopt_long(easy, Self.post, 1)
                _ = courier_curl_easy_setopt_long(easy, Self.postFieldSize, post.body.count)
                // Copied by curl, so the bytes need not outlive this call.
                _ = post.body.withUnsafeBytes {
                    courier_curl_easy_setopt_pointer(easy, Self.copyPostFields, $0.baseAddress)
                }
                for line in post.headers { headerList = courier_curl_slist_append(headerList, line) }
                _ = courier_curl_easy_setopt_pointer(easy, Self.httpHeader, headerList)
            }
            _ = courier_curl_easy_setopt_pointer(easy, Self.writeData, Unmanaged.passUnretained(self).toOpaque())
            _ = courier_curl_easy_setopt_write_callback(easy) { data, size, count, context in
                guard let data, let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.append(UnsafeRawBufferPointer(start: data, count: size * count))
            }
        }

        /// curl's whole-transfer and connect limits, in the unit it takes (at least 1: 0 would mean "no limit").
        static func milliseconds(_ timeout: Duration) -> Int {
            max(1, Int((timeout.seconds * 1000).rounded()))
        }

        deinit {
            courier_curl_easy_cleanup(easy)
            if let headerList { courier_curl_slist_free_all(headerList) }
            errors.deallocate()
        }

        /// Keeps the bytes; past the limit it stops the transfer (curl reports a write error).
        private func append(_ bytes: UnsafeRawBufferPointer) -> Int {
            guard body.count + bytes.count <= limit else {
                overflowed = true
                return 0
            }
            body.append(contentsOf: bytes)
            return bytes.count
        }

        /// What a finished transfer means for the caller. A POST's fault after any of its bytes went out (curl's
        /// request size is what it wrote to the socket) is ``BackendError/unanswered(_:path:)``: the server may
        /// have acted on it. Before that (refused, DNS, TLS, a connect timeout) nothing was sent.
        func outcome(code: Int32) -> Result<(status: Int, body: Data), BackendError> {
            let result = transferOutcome(code: code)
            guard case .failure(let error) = result, wroteRequest else { return result }
            switch error {
            case .timeout:
                let seconds = String(format: "%g", timeout.seconds)
                return .failure(.unanswered("no answer within \(seconds)s after the request was sent", path: path))
            case .transport(let message, _):
                return .failure(.unanswered("\(message) after the request was sent", path: path))
            default: return result
            }
        }

        /// What a transfer cancelled while under way means: for a POST that went out, the server may have it.
        func cancellation() -> Result<(status: Int, body: Data), BackendError> {
            wroteRequest
                ? .failure(.unanswered("cancelled after the request was sent", path: path))
                : .failure(.transport("cancelled", path: path))
        }

        /// Whether this is a POST and curl wrote any of it to the socket.
        private var wroteRequest: Bool {
            guard posting else { return false }
            var written = 0
            _ = courier_curl_easy_getinfo_long(easy, Self.requestSize, &written)
            return written > 0
        }

        private func transferOutcome(code: Int32) -> Result<(status: Int, body: Data), BackendError> {
            switch code {
            case 0:
                var status = 0
                _ = courier_curl_easy_getinfo_long(easy, Self.responseCode, &status)
                return .success((status, body))
            case 28: return .failure(.timeout(path: path))
            case 23 where overflowed:
                return .failure(.transport("the answer is larger than \(limit >> 20) MB", path: path))
            case 47: return .failure(.transport("more than \(redirects) redirects", path: path))
            case Self.unsupportedProtocol where secureOnly:
                return .failure(.transport(BackendError.downgradeRefused, path: path))
            default:
                let summary = String(cString: courier_curl_easy_strerror(code))
                let detail = String(cString: errors)
                return .failure(.transport(detail.isEmpty ? summary : "\(summary) (\(detail))", path: path))
            }
        }

        /// Resumes the waiting request exactly once.
        func finish(_ result: Result<(status: Int, body: Data), BackendError>) {
            continuation?.resume(returning: result)
            continuation = nil
        }
    }
#endif
