import Core
import CoreTesting
import Foundation
import HostIO
import Testing

@testable import CoreHTTP

@Suite(.serialized) struct HTTPBackendTests {
    @Test func againstARealPythonHTTPServer() async throws {
        let tree = try TemporaryDirectory()
        try tree.write(#"{"ok":true}"#, to: "orders/1/payment.json")
        let server = try TestServer.staticFiles(tree.url)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(5))
        let data = try await backend.fetch(try Endpoint("orders", "1", "payment.json"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
        await #expect(throws: BackendError.notFound(path: "orders/2/payment.json")) {
            try await backend.fetch(try Endpoint("orders", "2", "payment.json"))
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try TestServer.silent()
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(1))
        let started = ContinuousClock.now
        await #expect(throws: BackendError.timeout(path: "orders/1/payment.json")) {
            try await backend.fetch(try Endpoint("orders", "1", "payment.json"))
        }
        // The lower bound is the transport's; the upper one only says "it did not hang" (a loaded test process can
        // be slow to resume a finished task).
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(30))
    }

    /// The wall-clock side of this lives in HTTPScreenTests (in a process of its own, where a busy test pool
    /// cannot delay it); here the figure handed to the transport is checked exactly.
    @Test func timeoutsReachTheTransportInMilliseconds() {
        #if os(Linux)
            #expect(CurlTransfer.milliseconds(.milliseconds(300)) == 300)
            #expect(CurlTransfer.milliseconds(.seconds(1.5)) == 1500)
            #expect(CurlTransfer.milliseconds(.microseconds(10)) == 1)
        #endif
    }

    /// Schemes are case-insensitive; the base keeps its path, and endpoint paths are appended after it.
    @Test func anUpperCaseSchemeIsAScheme() throws {
        #expect(try HTTPBackend.baseURL("HTTP://127.0.0.1:8080/v1").absoluteString == "http://127.0.0.1:8080/v1")
        #expect(try HTTPBackend.baseURL("HtTpS://example.com").absoluteString == "https://example.com")
        #expect(throws: HTTPBackend.BaseRefusal.self) { try HTTPBackend.baseURL("http:///nohost") }
    }

    @Test func idsArePercentEncoded() throws {
        let backend = HTTPBackend(base: URL(string: "http://127.0.0.1:1/api/")!, timeout: .seconds(1))
        let url = backend.url(for: try Endpoint("orders", "a b?#%", "x.json"))
        #expect(url.absoluteString == "http://127.0.0.1:1/api/orders/a%20b%3F%23%25/x.json")
    }

    @Test func aRefusedConnectionIsATransportErrorThatSaysSo() async throws {
        let backend = HTTPBackend(base: URL(string: "http://127.0.0.1:9")!, timeout: .seconds(2))
        let error = await #expect(throws: BackendError.self) { try await backend.fetch(try Endpoint("x.json")) }
        guard case .transport(let message, let path) = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(path == "x.json" && message.contains("Couldn't connect to server"))
    }

    @Test func oneConnectionServesAWholeScreensRequests() async throws {
        let tree = try TemporaryDirectory()
        for name in ["a", "b", "c", "d", "e"] { try tree.write("{}", to: "orders/1/\(name).json") }
        let server = try TestServer.faults(root: tree.url)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(5))
        for name in ["a", "b", "c", "d", "e"] {
            _ = try await backend.fetch(try Endpoint("orders", "1", "\(name).json"))
        }
        let connections = try await backend.fetch(try Endpoint("_connections"))
        #expect(String(decoding: connections, as: UTF8.self) == "1")
    }

    @Test func redirectsAreFollowedUpToALimit() async throws {
        let tree = try TemporaryDirectory()
        try tree.write(#"{"moved":true}"#, to: "new.json")
        let rules = #"{"old.json": {"redirect": "/new.json"}, "loop.json": {"redirect": "/loop.json"}}"#
        let server = try TestServer.faults(root: tree.url, rules: rules)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(5))
        let data = try await backend.fetch(try Endpoint("old.json"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"moved":true}"#)
        await #expect(throws: BackendError.transport("more than 5 redirects", path: "loop.json")) {
            try await backend.fetch(try Endpoint("loop.json"))
        }
    }

    @Test func anAnswerLargerThanAnyPayloadIsRefused() async throws {
        let tree = try TemporaryDirectory()
        try tree.write("{}", to: "big.json")
        let server = try TestServer.faults(root: tree.url, rules: #"{"big.json": {"body": "huge"}}"#)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(10))
        await #expect(throws: BackendError.transport("the answer is larger than 16 MB", path: "big.json")) {
            try await backend.fetch(try Endpoint("big.json"))
        }
    }

    @Test func httpsWithATestCertificate() async throws {
        let tree = try TemporaryDirectory()
        try tree.write(#"{"secure":true}"#, to: "s.json")
        let (cert, key) = try Self.selfSignedCertificate(in: tree)
        let server = try TestServer.faults(root: tree.url, certificate: (cert, key))
        defer { server.stop() }
        let base = URL(string: "https://127.0.0.1:\(server.port)")!
        let trusted = HTTPBackend(base: base, timeout: .seconds(5), caFile: cert)
        let data = try await trusted.fetch(try Endpoint("s.json"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"secure":true}"#)
        let untrusted = HTTPBackend(base: base, timeout: .seconds(5))
        let error = await #expect(throws: BackendError.self) { try await untrusted.fetch(try Endpoint("s.json")) }
        guard case .transport(let message, _) = error else {
            Issue.record("expected a certificate failure, got \(String(describing: error))")
            return
        }
        #expect(message.contains("certificate"))
    }

    /// An https backend that answers with a redirect to http would move the payment card to cleartext: refused,
    /// and the refusal is the card's reason. An https-to-https redirect is still followed.
    @Test func anHTTPSBackendIsNeverRedirectedToHTTP() async throws {
        let plainTree = try TemporaryDirectory()
        try plainTree.write(#"{"cleartext":true}"#, to: "payment.json")
        let plain = try TestServer.staticFiles(plainTree.url)
        defer { plain.stop() }
        let tree = try TemporaryDirectory()
        try tree.write(#"{"secure":true}"#, to: "moved.json")
        let (cert, key) = try Self.selfSignedCertificate(in: tree)
        let rules = """
            {"payment.json": {"redirect": "http://127.0.0.1:\(plain.port)/payment.json"},
             "upper.json": {"redirect": "HTTP://127.0.0.1:\(plain.port)/payment.json"},
             "same.json": {"redirect": "/moved.json"}}
            """
        let server = try TestServer.faults(root: tree.url, rules: rules, certificate: (cert, key))
        defer { server.stop() }
        let backend = HTTPBackend(
            base: URL(string: "https://127.0.0.1:\(server.port)")!, timeout: .seconds(5), caFile: cert)
        for name in ["payment.json", "upper.json"] {
            await #expect(throws: BackendError.transport(BackendError.downgradeRefused, path: name)) {
                try await backend.fetch(try Endpoint(name))
            }
        }
        let data = try await backend.fetch(try Endpoint("same.json"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"secure":true}"#)
    }

    /// A certificate for 127.0.0.1 and its key, made by openssl in `tree`.
    static func selfSignedCertificate(in tree: TemporaryDirectory) throws -> (cert: String, key: String) {
        let cert = tree.url.appendingPathComponent("cert.pem").path
        let key = tree.url.appendingPathComponent("key.pem").path
        let openssl = try ChildProcess.startForTest([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        try #require(openssl.wait() == 0, "openssl could not make a test certificate")
        return (cert, key)
    }

    @Test func aCancelledRequestEndsAtOnce() async throws {
        let server = try TestServer.silent()
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(30))
        let task = Task { try await backend.fetch(try Endpoint("x.json")) }
        try await Task.sleep(for: .milliseconds(200))
        let started = ContinuousClock.now
        task.cancel()
        await #expect(throws: BackendError.transport("cancelled", path: "x.json")) { try await task.value }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
