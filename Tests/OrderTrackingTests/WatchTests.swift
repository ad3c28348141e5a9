import CoreTesting
import Foundation
import HostIO
import Testing

/// `--watch` outside a terminal: NDJSON and timestamped frames, signals, and record → replay.
@Suite struct WatchTests {
    /// Starts order-tracking, waits until stdout holds `lines` lines (or the output ends), then sends `signal`;
    /// returns what it printed and how it ended. The blocking reads and the wait run on a thread of their own, so
    /// the test holds none of the test pool's threads (two on a two-core machine) while the watch runs. The limit
    /// only ends a hang: a watch that never prints that many lines, or outlives its signal, is killed.
    func runUntil(_ arguments: [String], lines: Int, signal: Int32) async throws -> (stdout: String, status: Int32) {
        let output = Pipe()
        let process = try ChildProcess.startForTest(
            [CLI.binary] + arguments, environment: CLI.environment, output: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        let reading = output.fileHandleForReading
        let limit = Task {
            try await Task.sleep(for: .seconds(120))
            process.send(SIGKILL)
        }
        defer { limit.cancel() }
        return await OwnThread.run {
            var text = ""
            while text.filter({ $0 == "\n" }).count < lines {
                let chunk = reading.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            process.send(signal)
            let status = process.wait()
            text += String(decoding: reading.readDataToEndOfFile(), as: UTF8.self)
            return (text, status)
        }
    }

    @Test func watchTakesNoValueSoTheNextWordIsTheOrder() async throws {
        let run = try await runUntil(
            ["--watch", "3333", "--every", "0.3", "--format", "json"], lines: 1, signal: SIGTERM)
        #expect(run.status == 143)
        let first = try CLI.json(String(run.stdout.split(separator: "\n").first ?? ""))
        #expect(first["order"] as? String == "3333")
        #expect(first["seq"] as? Int == 1)
        #expect((first["time"] as? String)?.hasPrefix("2027-01-15T08:00:0") == true)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGHUP, Int32(129))] as [(Int32, Int32)])
    func signalsEndAWatchWithTheirOwnStatus(signal: Int32, status: Int32) async throws {
        let run = try await runUntil(["9012", "--watch", "--plain"], lines: 3, signal: signal)
        #expect(run.status == status)
        #expect(run.stdout.hasPrefix("── 08:00:0"), "a plain watched frame is headed by its time")
    }

    @Test func everyWithoutWatchIsAUsageError() async throws {
        let run = try await CLI.run(["1234", "--every", "3"])
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "order-tracking: --every only applies with --watch; add --watch (see 'order-tracking --help')\n")
    }

    @Test(arguments: [
        (["--watch", "--stale-limit", "90000"], "--stale-limit '90000' must be a number of seconds from 0 to 86400"),
        (["--watch", "--stale-limit", "-1"], "--stale-limit '-1' must be a number of seconds from 0 to 86400"),
        (["--watch", "--stale-limit", "soon"], "--stale-limit 'soon' must be a number of seconds from 0 to 86400"),
        (["--stale-limit", "5"], "--stale-limit only applies with --watch; add --watch"),
    ])
    func aBadStaleLimitIsAUsageError(arguments: [String], message: String) async throws {
        let run = try await CLI.run(["1234"] + arguments)
        #expect(run.status == 64)
        #expect(run.stderr == "order-tracking: \(message) (see 'order-tracking --help')\n", "one line")
        #expect(run.stdout.isEmpty)
    }

    /// The live order over real HTTP, as NDJSON: every line a complete screen with a rising `seq`; the status moves
    /// on, the payment card fails and comes back, and the watch ends by itself when the order is delivered.
    @Test func theLiveOrderOverHTTPAsNDJSON() async throws {
        let server = try TestServer.faults(root: CLI.fixtures)
        defer { server.stop() }
        let run = try await CLI.run(
            ["4242", "--watch", "--every", "2", "--format", "json", "--api", server.baseURL.absoluteString],
            limit: .seconds(100))
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try CLI.json(String($0)) }
        #expect(lines.map { $0["seq"] as? Int } == Array(1...lines.count).map { $0 })
        func card(_ line: [String: Any], _ id: String) -> [String: Any] {
            (line["components"] as? [[String: Any]] ?? []).first { $0["id"] as? String == id } ?? [:]
        }
        var statuses: [String] = []
        // A line where a slow machine timed the order card out (no info) says nothing about its progress.
        for line in lines {
            guard let status = (card(line, "order")["info"] as? [String: Any])?["status"] as? String else { continue }
            if statuses.last != status { statuses.append(status) }
        }
        #expect(statuses == ["preparing", "on_the_way", "delivered"])
        // The payment endpoint answers 503 for a while: the card keeps its last info, marked stale (the
        // in-process ScreenRuntimeTests cover the whole timeline, --stale-limit and hiding).
        #expect(lines.allSatisfy { card($0, "payment")["hidden"] as? Bool == false }, "a blip hides nothing")
        let stale = lines.map { card($0, "payment")["stale_since"] is String }
        let firstStale = stale.firstIndex(of: true)
        #expect(firstStale != nil, "the payment outage marks the card stale")
        #expect(firstStale.map { stale[$0...].contains(false) } == true, "and the mark goes once it answers")
        #expect(lines.allSatisfy { card($0, "order").keys.contains("stale_since") }, "on every component")
        let lastPayment = card(lines.last ?? [:], "payment")["info"] as? [String: Any]
        #expect(lastPayment?["status"] as? String == "paid", "cash is collected at the door")
    }

    @Test func aRecordedRunReplaysToTheSameScreen() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("9012.jsonl").path
        let recorded = await InProcess.run(["9012", "--format", "json", "--record", file])
        let replayed = await InProcess.run(["9012", "--format", "json", "--replay", file])
        #expect(recorded.status == 0 && replayed.status == 0, "\(replayed.stderr)")
        func withoutTimes(_ text: String) throws -> String {
            var report = try CLI.json(text)
            report["elapsed_ms"] = nil
            report["components"] = (report["components"] as? [[String: Any]])?.map { card in
                card.filter { $0.key != "elapsed_ms" }
            }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: report, options: .sortedKeys), as: UTF8.self)
        }
        #expect(try withoutTimes(replayed.stdout) == withoutTimes(recorded.stdout))
        let rider = (try CLI.json(replayed.stdout)["components"] as? [[String: Any]])?.first {
            $0["id"] as? String == "delivery"
        }
        #expect((rider?["elapsed_ms"] as? Int ?? 0) >= 1400, "the slow answer keeps its recorded timing")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(
            lines.count == 6,
            "the screen's definition, its layout and the four cards that fetch (order, eta, delivery, payment)")
        let bad = await InProcess.run(["1234", "--replay", folder.url.appendingPathComponent("missing").path])
        #expect(bad.status == 64)
    }
}
