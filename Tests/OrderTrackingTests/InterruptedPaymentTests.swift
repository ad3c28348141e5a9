import CoreTesting
import Foundation
import HostIO
import Testing

/// A one-shot payment (`checkout C100 --pay`, as a script runs it) ended by a signal after the POST went out and
/// before any answer: what is known of it is left, as the run's own end would leave it ("may have gone through"
/// in text, `"outcome": "unknown"` with what was sent in JSON), never only "terminated".
@Suite struct InterruptedPaymentTests {
    /// Runs `arguments` against a pay endpoint that holds its answer, sends `signal` once the server has the
    /// POST, and returns what the run printed and how it ended.
    func interrupted(_ arguments: [String], signal: Int32) async throws -> (out: String, err: String, status: Int32) {
        let folder = try TemporaryDirectory()
        let log = folder.url.appendingPathComponent("posts.jsonl")
        let server = try TestServer.faults(
            root: CLI.fixtures, rules: #"{"carts/C100/pay": {"delay_ms": 600000}}"#, log: log)
        defer { server.stop() }
        let (output, errors) = (Pipe(), Pipe())
        let process = try ChildProcess.startForTest(
            // A deadline far away: on a loaded machine the signal may come late, and it must find the POST unanswered.
            [CLI.binary, "checkout", "C100", "--pay", "--timeout", "600", "--api", server.baseURL.absoluteString]
                + arguments,
            environment: CLI.environment, output: output.fileHandleForWriting, error: errors.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let deadline = ContinuousClock.now + .seconds(30)
        while ((try? String(contentsOf: log, encoding: .utf8)) ?? "").isEmpty && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        process.send(signal)
        let status = process.wait()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(try String(contentsOf: log, encoding: .utf8).split(separator: "\n").count == 1, "POSTed once")
        return (out, err, status)
    }

    @Test(arguments: [(SIGTERM, Int32(143), "terminated"), (SIGHUP, 129, "hung up"), (SIGINT, 130, "interrupted")])
    func textSaysThePaymentMayHaveGoneThrough(signal: Int32, status: Int32, word: String) async throws {
        let run = try await interrupted(["--plain"], signal: signal)
        #expect(run.status == status)
        #expect(run.out.contains("To pay"), "the frame:\n\(run.out)")
        let line = "pay: no answer before the run ended: it may have gone through: check before trying again\n"
        #expect(run.out.hasSuffix(line), "\(run.out)")
        #expect(run.err.hasSuffix("\(word)\n"), "\(run.err)")
    }

    @Test func jsonReportsAnUnknownOutcomeAndWhatWasSent() async throws {
        let run = try await interrupted(["--format", "json"], signal: SIGTERM)
        #expect(run.status == 143)
        let action = try CLI.json(run.out)["action"] as? [String: Any] ?? [:]
        #expect(action["outcome"] as? String == "unknown", "\(run.out)")
        #expect((action["sent"] as? [String: String])?["amount_minor"] == "5050")
    }
}
