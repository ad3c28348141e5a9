import CoreTesting
import Foundation
import Testing

/// The same screens over a real HTTP server (`python3 -m http.server`) serving the fixture tree.
@Suite(.serialized) struct HTTPScreenTests {
    @Test func screensOverHTTPAreIdenticalToTheEmbeddedOnes() throws {
        let server = try TestServer.staticFiles(CLI.fixtures)
        defer { server.stop() }
        for order in ["1234", "5678", "9012", "4040", "7777", "3333", "9999"] {
            let embedded = try CLI.run([order])
            let http = try CLI.run([order, "--api", server.baseURL.absoluteString])
            #expect(http.stdout == embedded.stdout, "order \(order)")
            #expect(http.status == embedded.status, "order \(order)")
            #expect(http.stderr == embedded.stderr, "order \(order)")
        }
    }

    @Test func anUnreachableBackendIsFatal() throws {
        let run = try CLI.run(["1234", "--api", "http://127.0.0.1:9"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("cannot load the screen layout: orders/1234/screen.json:"))
        #expect(run.stderr.hasSuffix("; check --api or try again later\n"))
    }
}
