import CoreTesting
import Foundation
import HostIO
import Testing

/// A signal cancels the run, which unwinds and ends by its own ending path before the goodbye: what only that path
/// writes (a one-shot JSON report, the reasons a watch gives for its hidden cards) is there after SIGTERM, then the
/// one word and the signal's status. A handler that printed the goodbye and left at once wrote neither.
@Suite struct SignalUnwindTests {
    /// Starts `arguments`, waits until `ready` says so, sends SIGTERM and returns what the run wrote and its status.
    /// The limit only ends a hang.
    func terminated(_ arguments: [String], when ready: @escaping @Sendable (_ out: String) -> Bool) async throws -> (
        out: String, err: String, status: Int32
    ) {
        let (output, errors) = (Pipe(), Pipe())
        let process = try ChildProcess.startForTest(
            [CLI.binary] + arguments, environment: CLI.environment, output: output.fileHandleForWriting,
            error: errors.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let reading = output.fileHandleForReading
        let limit = Task {
            try await Task.sleep(for: .seconds(120))
            process.send(SIGKILL)
        }
        defer { limit.cancel() }
        let out = await OwnThread.run {
            var text = ""
            while !ready(text) {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            process.send(SIGTERM)
            return text + String(decoding: reading.readDataToEndOfFile(), as: UTF8.self)
        }
        let (status, err) = await process.finish(reading: errors.fileHandleForReading)
        return (out, err, status)
    }

    /// A one-shot JSON run whose card is still loading when SIGTERM comes prints its report, the held card
    /// loading, as a run that ends prints it: one JSON object a script can read.
    @Test func aOneShotJSONRunEndedBySIGTERMPrintsItsReport() async throws {
        let held = try HeldAnswer(root: CLI.fixtures, path: "orders/1234/eta.json")
        defer { held.release() }
        // The signal goes once the server holds the answer: the run is then surely waiting for it.
        let asked = held.asked.path
        let run = try await terminated(
            ["1234", "--format", "json", "--timeout", "600", "--api", held.server.baseURL.absoluteString]
        ) { _ in
            let deadline = ContinuousClock.now + .seconds(60)
            while !FileManager.default.fileExists(atPath: asked), ContinuousClock.now < deadline { usleep(20_000) }
            return true
        }
        #expect(run.status == 143)
        #expect(run.err.hasSuffix("terminated\n"), "\(run.err)")
        let report = try CLI.json(run.out)
        let states = (report["components"] as? [[String: Any]] ?? []).map {
            ($0["id"] as? String ?? "", $0["state"] as? String ?? "")
        }
        #expect(states.contains { $0 == ("eta", "loading") }, "\(run.out)")
        #expect(states.map(\.0).contains("order") && report["status"] != nil, "the whole report:\n\(run.out)")
    }

    /// Work a signal cut short says nothing of its own about it: no "cannot load screen …: cancelled", no verdict
    /// report in which a card the signal kept from loading counts as a veto, no login failure or failed hooks
    /// (nor a failure hook that clears the stored user), no "no change" for a preview's event the signal kept from
    /// its card. What was already said stays, then the goodbye.
    @Test(arguments: [
        ("screens/tracking.json", ["1234"], ""), ("orders/1234/screen.json", ["1234"], ""),
        ("orders/1234/payment.json", ["cancel", "1234"], ""),
        // The card's skeleton comes from its worker: a signal may end the preview before it does (then the card
        // is said as not drawn, "(hidden: …)"), so only the line before it is pinned.
        (
            "orders/1234/payment.json",
            ["preview", "payment", "--input", "order=1234", "--event", "order.status=delivered"],
            "payment · Payments · state: loading\n"
        ),
        ("users/1234/account.json", ["login", "1234", "--data-dir"], "Logging in...\n"),
        ("users/1234/profile.json", ["login", "1234", "--data-dir"], "Logging in...\nLogged in successfully...\n"),
    ])
    func workCutShortBySIGTERMSaysNothingOfItsOwn(held path: String, arguments: [String], out: String) async throws {
        let held = try HeldAnswer(root: CLI.fixtures, path: path)
        defer { held.release() }
        let data = try TemporaryDirectory()
        let asked = held.asked.path
        // A login gets a folder of its own (`--data-dir` last): it must not sign in the suite's shared one.
        let folder = arguments.last == "--data-dir" ? [data.url.path] : []
        let run = try await terminated(
            arguments + folder + ["--timeout", "600", "--api", held.server.baseURL.absoluteString]
        ) { _ in
            let deadline = ContinuousClock.now + .seconds(60)
            while !FileManager.default.fileExists(atPath: asked), ContinuousClock.now < deadline { usleep(20_000) }
            return true
        }
        #expect(run.status == 143)
        #expect(run.err == "terminated\n", "\(run.err)")
        #expect(run.out.hasPrefix(out), "\(run.out)")
        #expect(!run.out.contains("Storing") && !run.out.contains("veto"), "\(run.out)")
        #expect(!run.out.contains("no change"), "a preview's event cut short has no reaction to tell: \(run.out)")
    }

    /// A plain watch ended by SIGTERM says why its hidden card is hidden (order 5678's payment), as its own end
    /// says it, before the goodbye.
    @Test func aWatchEndedBySIGTERMSaysWhyItsHiddenCardIsHidden() async throws {
        let run = try await terminated(["5678", "--watch", "--plain", "--every", "3600"]) {
            $0.contains("── 08:00")
        }
        #expect(run.status == 143)
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.last == "terminated", "\(run.err)")
        #expect(lines.dropLast().contains { $0.hasPrefix("payment hidden: ") }, "\(run.err)")
    }
}
