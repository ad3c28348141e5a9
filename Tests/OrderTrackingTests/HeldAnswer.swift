import CoreTesting
import Foundation

/// One endpoint whose answer the test releases: a real terminal test that needs a card still loading waits for
/// that screen and then lets the answer go, instead of hoping a capture lands inside a fixed delay.
final class HeldAnswer {
    let server: TestServer
    private let folder: TemporaryDirectory
    var gate: URL { folder.url.appendingPathComponent("release") }
    /// The file the server creates when the held path is asked for.
    var asked: URL { folder.url.appendingPathComponent("asked") }

    /// `python3 -m http.server`'s handler serving `root`, except that a GET of `path` waits until ``release()``
    /// (and says it was asked, ``wasAsked``).
    init(root: URL, path: String) throws {
        folder = try TemporaryDirectory()
        let script = """
            import http.server,os,sys,time
            root,held,gate,asked=sys.argv[1:5]
            class Handler(http.server.SimpleHTTPRequestHandler):
                def __init__(self,*args,**kwargs): super().__init__(*args,directory=root,**kwargs)
                def log_message(self,*args): pass
                def do_GET(self):
                    if self.path.split("?")[0].lstrip("/")==held:
                        open(asked,"w").close()
                        while not os.path.exists(gate): time.sleep(0.02)
                    super().do_GET()
            server=http.server.ThreadingHTTPServer(("127.0.0.1",0),Handler)
            server.daemon_threads=True
            print("port",server.server_address[1],flush=True)
            server.serve_forever()
            """
        server = try TestServer(
            arguments: [
                "-u", "-c", script, root.path, path, folder.url.appendingPathComponent("release").path,
                folder.url.appendingPathComponent("asked").path,
            ], portPattern: "port ")
    }

    /// Whether the held path has been asked for.
    var wasAsked: Bool { FileManager.default.fileExists(atPath: asked.path) }

    /// The held answer (and every later one) goes out.
    func release() { _ = FileManager.default.createFile(atPath: gate.path, contents: Data()) }

    deinit { server.stop() }
}
