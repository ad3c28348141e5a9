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
        await #expect(throws: BackendError.timeout(path: "orders/1/payment.json")) {
            try await backend.fetch(try Endpoint("orders", "1", "payment.json"))
        }
    }

    /// The deadline is the one given, to the millisecond: an answer that comes 0.95 s after the request is
    /// missed by a 0.1 s deadline (FoundationNetworking rounded it up to a second, and took it) and taken by a
    /// 10 s one (a deadline cut short would miss it). Which comes first, the deadline or the answer, not how long
    /// anything took: the gaps (0.85 s and 9 s) are far beyond what a busy machine delays a timer by.
    @Test func aSubSecondDeadlineIsKeptAndALongOneWaitsForTheAnswer() async throws {
        let tree = try TemporaryDirectory()
        try tree.write(#"{"ok":true}"#, to: "late.json")
        let server = try TestServer.faults(root: tree.url, rules: #"{"late.json": {"delay_ms": 950}}"#)
        defer { server.stop() }
        let short = HTTPBackend(base: server.baseURL, timeout: .milliseconds(100))
        await #expect(throws: BackendError.timeout(path: "late.json")) {
            try await short.fetch(try Endpoint("late.json"))
        }
        let long = HTTPBackend(base: server.baseURL, timeout: .seconds(10))
        let data = try await long.fetch(try Endpoint("late.json"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
    }

    /// The figure handed to the transport, checked exactly; the deadline itself above.
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

    /// The lines a server appended to `log`, in order.
    static func lines(_ log: URL) -> [String] {
        (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Six GETs at once: six kept-alive connections in the transport's pool, the ones libcurl used to send a POST
    /// again on when the POST's connection died.
    static func fillThePool(_ backend: HTTPBackend, _ names: [String]) async throws {
        try await withThrowingTaskGroup(of: Data.self) { group in
            for name in names { group.addTask { try await backend.fetch(try Endpoint(name)) } }
            for try await _ in group {}
        }
    }

    /// A pay endpoint that reads the request and drops the connection without answering (RST or FIN, after the
    /// body or after the headers only) gets it once: libcurl used to send it again on each kept-alive connection
    /// earlier GETs left (four times on the checkout). The fault is `unanswered` (it may have been acted on), a
    /// second send is one more POST, and the pool still serves GETs.
    @Test(arguments: ["reset", "close"], [true, false])
    func aSendWhoseConnectionDropsIsPostedOnce(drop: String, afterBody: Bool) async throws {
        let tree = try TemporaryDirectory()
        let names = ["a.json", "b.json", "c.json", "d.json", "e.json", "f.json"]
        for name in names { try tree.write("{}", to: name) }
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let rules = #"{"pay": {"\#(drop)": \#(afterBody ? "true" : #""headers""#)}}"#
        let server = try TestServer.faults(root: tree.url, rules: rules, log: log)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(10))
        try await Self.fillThePool(backend, names)
        for sends in 1...2 {
            let error = await #expect(throws: BackendError.self) {
                try await backend.send(try Endpoint("pay"), body: Data(#"{"amount":"SAR 1.00"}"#.utf8), headers: [:])
            }
            guard case .unanswered(let message, "pay")? = error else {
                Issue.record("expected unanswered, got \(String(describing: error))")
                return
            }
            #expect(message.hasSuffix("after the request was sent"))
            #expect(Self.lines(log).count == sends, "each send is POSTed once: \(Self.lines(log))")
        }
        #expect(try await backend.fetch(try Endpoint("a.json")) == Data("{}".utf8))
    }

    /// A POST is never redirected (a 303 would turn it into a GET elsewhere, a 307 would send it twice): the
    /// redirect is the answer. A server that reads a POST and never answers is `unanswered` at the deadline; a
    /// 204 is an empty answer.
    @Test func aSendIsNeverRedirectedAndASilentAnswerIsUnanswered() async throws {
        let tree = try TemporaryDirectory()
        try tree.write(#"{"order":"1"}"#, to: "_pay.post.json")
        try tree.write(#"{"order":"1"}"#, to: "_empty.post.json")
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        var rules = #""hang": {"hang": true}, "empty": {"status": 204}"#
        for code in [301, 302, 303, 307, 308] { rules += #", "r\#(code)": {"redirect": "/pay", "status": \#(code)}"# }
        let server = try TestServer.faults(root: tree.url, rules: "{\(rules)}", log: log)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(1))
        for code in [301, 302, 303, 307, 308] {
            await #expect(throws: BackendError.httpStatus(code, path: "r\(code)")) {
                try await backend.send(try Endpoint("r\(code)"), body: Data("{}".utf8), headers: [:])
            }
        }
        #expect(Self.lines(log).count == 5, "no redirect was followed: \(Self.lines(log))")
        #expect(try await backend.send(try Endpoint("empty"), body: Data("{}".utf8), headers: [:]).isEmpty)
        await #expect(
            throws: BackendError.unanswered("no answer within 1s after the request was sent", path: "hang")
        ) { try await backend.send(try Endpoint("hang"), body: Data("{}".utf8), headers: [:]) }
        #expect(Self.lines(log).count == 7)
    }

    /// A raw server: GETs answered on kept-alive connections; after `GET /_switch`, a new connection is dropped
    /// before anything is read (`fin`, `rst`) or no longer accepted at all (`refuse`). Each connection and
    /// request is a line of the log, so a POST sent again on a kept-alive connection would show.
    static let dropping = """
        import socket,struct,sys,threading
        log=open(sys.argv[1],"a",buffering=1); mode=sys.argv[2]; lock=threading.Lock(); switched=[False]
        s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(64)
        print("port", s.getsockname()[1], flush=True)
        def write(line):
            with lock: log.write(line+"\\n")
        def drop(c):
            if mode=="rst": c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii",1,0))
            c.close()
        def serve(c):
            f=c.makefile("rb")
            while True:
                line=f.readline()
                if not line: return c.close()
                while f.readline() not in (b"\\r\\n", b"\\n", b""): pass
                method,path=line.split()[:2]
                write(method.decode()+" "+path.decode())
                if method==b"POST": return drop(c)
                # The switch is made before its answer is sent, so no later connection can race it.
                if path==b"/_switch":
                    switched[0]=True
                    if mode=="refuse": s.shutdown(socket.SHUT_RDWR); s.close()
                c.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nContent-Length: 2\\r\\n\\r\\n{}")
        while True:
            try: c,_=s.accept()
            except OSError: break
            if switched[0]:
                write("dropped"); drop(c); continue
            write("accept")
            threading.Thread(target=serve,args=(c,),daemon=True).start()
        threading.Event().wait()
        """

    /// The connection a POST goes out on is dropped before the server read a byte (FIN or RST), or the server no
    /// longer listens, while earlier GETs' connections are still open: the POST is never sent on one of those,
    /// so the server never reads it at all. Refused is `transport` (nothing was sent); a drop may be either,
    /// as the socket says, but never twice.
    @Test(arguments: ["fin", "rst", "refuse"])
    func aSendNeverRidesAKeptAliveConnection(mode: String) async throws {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("connections.log")
        let server = try TestServer(arguments: ["-u", "-c", Self.dropping, log.path, mode], portPattern: "port ")
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(10))
        try await Self.fillThePool(backend, ["a", "b", "c", "d", "e", "f"])
        _ = try await backend.fetch(try Endpoint("_switch"))
        let error = await #expect(throws: BackendError.self) {
            try await backend.send(try Endpoint("pay"), body: Data("{}".utf8), headers: [:])
        }
        let lines = Self.lines(log)
        #expect(!lines.contains { $0.hasPrefix("POST") }, "the POST went out on a kept-alive connection: \(lines)")
        switch (error, mode) {
        case (.transport(let message, "pay")?, "refuse"): #expect(message.contains("Couldn't connect"))
        case (.transport(_, "pay")?, "fin"), (.transport(_, "pay")?, "rst"), (.unanswered(_, "pay")?, "fin"),
            (.unanswered(_, "pay")?, "rst"):
            #expect(lines.filter { $0 == "dropped" }.count == 1, "\(lines)")
        default: Issue.record("\(mode): \(String(describing: error))")
        }
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

    /// A request in flight (the server has its connection and will never answer) ends as soon as its task is
    /// cancelled, as "cancelled": its own deadline, a minute, would end it as a timeout instead.
    @Test func aCancelledRequestEndsAtOnce() async throws {
        let tree = try TemporaryDirectory()
        let server = try TestServer.faults(root: tree.url, rules: #"{"x.json": {"hang": true}}"#)
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(60))
        let task = Task { try await backend.fetch(try Endpoint("x.json")) }
        // In flight: the server has accepted its connection besides the one that asks (kept alive between asks).
        let probe = HTTPBackend(base: server.baseURL, timeout: .seconds(60))
        var connections = 0
        for _ in 0..<1200 where connections < 2 {
            connections = Int(String(decoding: try await probe.fetch(try Endpoint("_connections")), as: UTF8.self)) ?? 0
            if connections < 2 { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(connections >= 2, "the request never reached the server")
        task.cancel()
        await #expect(throws: BackendError.transport("cancelled", path: "x.json")) { try await task.value }
    }
}
