import Core
import CoreHTTP
import CoreTesting
import Foundation
import HostIO

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Real HTTP and real watching: 200 cards loaded at once from the project's own load server
/// (Scripts/bench-server: asyncio, one thread, so the figure is the client's), beside `curl --parallel`
/// fetching the same 200 URLs; and what a `--watch` costs while it waits.
enum HTTPBenchmarks {
    struct Figures: Sendable {
        /// Wall time of the 200-card load ÷ the slowest card's delay.
        let wallOverSlowest: Double
        /// CPU seconds (user + system) this process spent loading the 200 cards.
        let cpu: Double
        /// CPU seconds `curl --parallel` spent fetching the same URLs (nil when curl is missing).
        let curlCPU: Double?
    }

    /// Serves 200 files with delays from 500 to 1,000 ms and loads them as 200 cards through the real kernel. The
    /// server answers one request at a time (about 0.5 ms each, ~0.1 s for all 200 whatever the client), so the
    /// delays are long enough for wall ÷ slowest to measure the client's concurrency, not the server's queue.
    static func twoHundredCards() async throws -> Figures {
        let tree = try TemporaryDirectory()
        var faults: [String] = []
        for index in 0..<200 {
            try tree.write("\(index)", to: "synthetic/\(index)")
            faults.append("\"\(index)\": {\"delay_ms\": \(500 + (index * 37) % 501)}")
        }
        try tree.write("{" + faults.joined(separator: ", ") + "}", to: "synthetic/_faults.json")
        let server = try TestServer(
            arguments: [TestServer.repositoryRoot.appendingPathComponent("Scripts/bench-server").path]
                + ["--root", tree.url.path, "--lifetime", "120"],
            portPattern: "port ")
        defer { server.stop() }
        let backend = HTTPBackend(base: server.baseURL, timeout: .seconds(30))
        _ = try? await backend.fetch(try Endpoint("synthetic", "0"))  // libcurl loaded before timing
        let cards = try KernelBenchmarks.screen(200, backend: backend)
        let before = cpuSeconds(ofChildren: false)
        let (wall, answers) = await KernelBenchmarks.loadConcurrently(cards)
        let cpu = cpuSeconds(ofChildren: false) - before
        let failed = answers.filter { $0 == nil }.count
        guard failed == 0 else { throw BenchmarkError(message: "\(failed) of 200 cards failed over HTTP") }
        let curl = try curlCPU(urls: (0..<200).map { "\(server.baseURL.absoluteString)/synthetic/\($0)" }, in: tree)
        return Figures(wallOverSlowest: wall / 1.0, cpu: cpu, curlCPU: curl)
    }

    /// CPU seconds `curl --parallel` needs for the same URLs, or nil when curl is not installed.
    static func curlCPU(urls: [String], in tree: TemporaryDirectory) throws -> Double? {
        try tree.write(urls.map { "url = \"\($0)\"\noutput = \"/dev/null\"\n" }.joined(), to: "curl.config")
        let before = cpuSeconds(ofChildren: true)
        guard
            let run = try? ProcessRunner.runBlocking(
                "curl", ["-s", "--parallel", "--parallel-max", "200", "--config", tree.url.path + "/curl.config"]),
            run.status == 0
        else { return nil }
        return cpuSeconds(ofChildren: true) - before
    }

    /// CPU milliseconds per second that `order-tracking 1234 --watch` spends beyond a one-shot screen, over a
    /// window in which its cards refresh themselves every 3 to 5 s (so most of the window is waiting).
    static func watchCPUPerSecond(orderTracking: URL, window: Duration) throws -> Double {
        let environment = ["COLUMNS": "60", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let before = cpuSeconds(ofChildren: true)
        _ = try ProcessRunner.runBlocking(orderTracking.path, ["1234", "--format", "json"], environment: environment)
        let oneShot = cpuSeconds(ofChildren: true) - before
        let start = cpuSeconds(ofChildren: true)
        let process = try ChildProcess.startForTest(
            [orderTracking.path, "1234", "--watch", "--format", "json"], environment: environment)
        Thread.sleep(forTimeInterval: window.seconds)
        process.send(SIGTERM)
        _ = process.wait()
        let watched = cpuSeconds(ofChildren: true) - start
        return max(0, watched - oneShot) / window.seconds * 1000
    }

}
