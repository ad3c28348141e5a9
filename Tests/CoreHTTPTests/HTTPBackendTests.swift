import Core
import CoreHTTP
import CoreTesting
import Foundation
import Testing

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
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(5))
    }

    @Test func idsArePercentEncoded() throws {
        let backend = HTTPBackend(base: URL(string: "http://127.0.0.1:1/api/")!, timeout: .seconds(1))
        let url = backend.url(for: try Endpoint("orders", "a b?#%", "x.json"))
        #expect(url.absoluteString == "http://127.0.0.1:1/api/orders/a%20b%3F%23%25/x.json")
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let backend = HTTPBackend(base: URL(string: "http://127.0.0.1:9")!, timeout: .seconds(2))
        let error = await #expect(throws: BackendError.self) { try await backend.fetch(try Endpoint("x.json")) }
        guard case .transport = error else {
            Issue.record("expected transport, got \(String(describing: error))"); return
        }
    }
}
