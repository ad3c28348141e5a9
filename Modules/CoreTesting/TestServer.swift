import Core
import Foundation
import HostIO

/// A real server process on 127.0.0.1 and a free port, started by a test and stopped when the test is done
/// (or after `lifetime`, whichever comes first), so no test leaves a listener behind.
public final class TestServer: @unchecked Sendable {
    // @unchecked: `process` is set once in init and only read afterwards; `stopped` is locked.
    private let process: ChildProcess
    /// The server's output, kept open while it runs: its log lines would otherwise end it with a broken pipe.
    private let output: Pipe
    /// Whether the server was stopped (and reaped), so a second `stop()` never signals a reused process id.
    private let stopped = Locked(false)
    /// The port the server listens on.
    public let port: Int

    /// The server's base URL.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `python3 -m http.server` serving `directory`: the real static server the design names.
    public static func staticFiles(_ directory: URL) throws -> TestServer {
        // `python3 -m http.server 0 --bind 127.0.0.1 --directory DIR`, run through runpy so the lifetime guard applies.
        let script = """
            import runpy,sys
            sys.argv=["http.server","0","--bind","127.0.0.1","--directory",sys.argv[1]]
            runpy.run_module("http.server", run_name="__main__")
            """
        return try TestServer(arguments: ["-u", "-c", script, directory.path], portPattern: "port ")
    }

    /// The project's own `Scripts/fault-server` serving `root` with per-path fault `rules` (JSON); HTTPS when a
    /// certificate and key are given; every POST it receives appended to `log` (JSON lines) when given.
    public static func faults(
        root: URL, rules: String = "{}", certificate: (cert: String, key: String)? = nil, log: URL? = nil
    ) throws -> TestServer {
        let tls = certificate.map { ["--cert", $0.cert, "--key", $0.key] } ?? []
        return try TestServer(
            arguments: [repositoryRoot.appendingPathComponent("Scripts/fault-server").path, "--root", root.path]
                + ["--rules", rules, "--lifetime", "\(lifetime)"] + tls + (log.map { ["--log", $0.path] } ?? []),
            portPattern: "port ")
    }

    /// How long a server lives at most, in seconds, when the test that started it never stops it (it crashed):
    /// long, because a test on a busy machine may start its server and wait minutes for its turn on the pool (at
    /// 120 s, a loaded suite's servers were gone before their tests asked them anything).
    public static let lifetime = 900

    /// The repository this harness was built from (Scripts/ and the fixtures live there).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// A listener that accepts connections and never answers: every request to it times out.
    public static func silent() throws -> TestServer {
        let script = """
            import socket,sys,time
            s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(64)
            print("port", s.getsockname()[1], flush=True)
            conns=[]
            s.settimeout(0.2)
            while True:
                try: conns.append(s.accept()[0])
                except socket.timeout: pass
            """
        return try TestServer(arguments: ["-u", "-c", script], portPattern: "port ")
    }

    /// Runs `python3 arguments`, reads its port from the first output line containing `portPattern`.
    public init(arguments: [String], portPattern: String, lifetime: Int = TestServer.lifetime) throws {
        // Test runners may block SIGTERM, and children inherit that; the guard unblocks it and ends the server
        // after `lifetime` seconds even if the test crashed before stopping it.
        let guardCode = """
            import os,signal,threading
            signal.pthread_sigmask(signal.SIG_UNBLOCK,[signal.SIGTERM,signal.SIGINT])
            signal.signal(signal.SIGTERM,signal.SIG_DFL)
            threading.Timer(\(lifetime),lambda:os._exit(0)).start()

            """
        var arguments = arguments
        if let index = arguments.firstIndex(of: "-c") { arguments[index + 1] = guardCode + arguments[index + 1] }
        let output = Pipe()
        let process = try ChildProcess.startForTest(
            ["python3"] + arguments, output: output.fileHandleForWriting, error: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        self.process = process
        self.output = output
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: portPattern),
                let port = Int(text[range.upperBound...].prefix(while: \.isNumber))
            {
                self.port = port
                return
            }
        }
        process.send(SIGKILL)
        _ = process.wait()
        throw TestServerError(output: text)
    }

    /// Stops the server.
    public func stop() {
        stopped.withLock { stopped in
            guard !stopped else { return }
            stopped = true
            if process.endedStatus() == nil {
                process.send(SIGKILL)
                _ = process.wait()
            }
        }
    }

    deinit { stop() }
}

/// The server did not report a port; its output says why.
public struct TestServerError: Error, CustomStringConvertible {
    /// What the server printed.
    public let output: String
    /// The server's output.
    public var description: String { "test server did not start: \(output)" }
}
