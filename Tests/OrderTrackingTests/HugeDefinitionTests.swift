import CoreTesting
import Foundation
import Testing

/// A screen definition or layout that lists millions of cards is refused with one line while the deadline that
/// covers its parse still holds: laid out, 3.5 million one-letter ids (a 14 MB answer) took 1.1 GB and ran past
/// `--timeout`.
@Suite struct HugeDefinitionTests {
    /// `order-tracking ARGUMENTS` with the peak memory of the process (KB), as the kernel counted it: a figure a
    /// busy machine does not change, unlike wall time.
    static func measured(_ arguments: [String]) async throws -> (status: Int32, stderr: String, peakKB: Int) {
        let script = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            print("PEAK", peak // 1024 if sys.platform == "darwin" else peak, file=sys.stderr)
            sys.exit(run.returncode)
            """
        let run = try await ProcessRunner.run(
            "python3", ["-c", script, CLI.binary] + arguments, environment: CLI.environment, limit: .seconds(240))
        let lines = run.stderr.split(separator: "\n")
        let peak = lines.last.flatMap { $0.hasPrefix("PEAK ") ? Int($0.dropFirst(5)) : nil } ?? 0
        return (run.status, lines.dropLast().joined(separator: "\n"), peak)
    }

    /// The fixtures with `file` holding a `components` list of `count` one-letter ids, served over real HTTP.
    static func serve(_ file: String, count: Int) throws -> (server: TestServer, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLI.fixtures, to: root)
        var text = #"{"title": "Huge", "components": ["#
        text.reserveCapacity(count * 4 + 64)
        for index in 0..<count { text += index == 0 ? #""a""# : #","\#(Character(UnicodeScalar(97 + index % 26)!))""# }
        text += "]}"
        try Data(text.utf8).write(to: root.appendingPathComponent(file))
        return (try TestServer.staticFiles(root), root)
    }

    @Test func aDefinitionOfMillionsOfCardsIsRefusedInOneLineAndBoundedMemory() async throws {
        let (server, root) = try Self.serve("screens/huge.json", count: 3_500_000)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        // A deadline long enough for the parse to finish on a slow machine, so the refusal itself is seen.
        let run = try await Self.measured(
            ["screen", "huge", "--api", server.baseURL.absoluteString, "--timeout", "200"])
        #expect(run.status == 1, "\(run.stderr.prefix(300))")
        #expect(
            run.stderr == "cannot load screen 'huge': screens/huge.json: 'components' lists 3500000 cards; a screen "
                + "takes at most 200000", "\(run.stderr.prefix(300))")
        #expect(run.peakKB > 0 && run.peakKB < 512 * 1024, "peak \(run.peakKB / 1024) MB (laid out: 1.1 GB)")
    }

    @Test func aLayoutOverTheLimitIsRefusedTheSameWay() async throws {
        let (server, root) = try Self.serve("orders/1234/screen.json", count: 200_001)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
        let run = try await CLI.run(["1234", "--api", server.baseURL.absoluteString, "--timeout", "200"])
        #expect(run.status == 1, "\(run.stderr.prefix(300))")
        #expect(
            run.stderr == "cannot load the screen layout: screen.json: 'components' lists 200001 cards; a screen "
                + "takes at most 200000\n", "\(run.stderr.prefix(300))")
    }
}
