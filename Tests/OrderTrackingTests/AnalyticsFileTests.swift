import CoreTesting
import Foundation
import Testing

/// `--analytics FILE`: the host appends what each squad's components chose to record, one JSON object a line,
/// adding only when, for which order, and which component and module sent it.
@Suite struct AnalyticsFileTests {
    @Test func aScreenAndACancelAppendTheSquadsEventsAsJSONLines() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("analytics.jsonl").path
        #expect(await InProcess.run(["5678", "--plain", "--analytics", file]).status == 2)
        #expect(await InProcess.run(["cancel", "4040", "--analytics", file]).status == 3)
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try CLI.json(String($0)) }
        for event in events {
            #expect(Set(event.keys) == ["time", "order", "component", "module", "event", "properties"])
            #expect(event["time"] as? String == "2027-01-15T08:00:00Z")
        }
        let screen = events.filter { $0["order"] as? String == "5678" }
        #expect(
            Set(screen.compactMap { $0["event"] as? String })
                == ["order_card_shown", "eta_shown", "rider_card_shown", "payment_card_hidden"])
        let hidden = screen.first { $0["event"] as? String == "payment_card_hidden" }
        #expect(hidden?["module"] as? String == "Payments" && hidden?["component"] as? String == "payment")
        #expect(
            (hidden?["properties"] as? [String: String])?["reason"] == "unexpected payload: missing key 'logo'")
        let cancel = events.filter { $0["order"] as? String == "4040" }.compactMap { $0["event"] as? String }
        #expect(cancel.contains("order_cancel_vetoed") && cancel.contains("payment_confirmed"))
    }

    @Test func aFileThatCannotBeWrittenIsAUsageErrorNamingIt() async throws {
        let run = try await CLI.run(["1234", "--analytics", "/nonexistent/folder/a.jsonl"])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(
            run.stderr.hasPrefix(
                "order-tracking: --analytics '/nonexistent/folder/a.jsonl' cannot be written: No such file or directory"
            ))
    }

    /// A full disk loses the analytics, not the screen: one line on stderr, the screen and its status as usual.
    @Test func aFullDiskIsSaidOnceAndTheScreenStillShows() async throws {
        let run = await InProcess.run(["1234", "--plain", "--analytics", "/dev/full"])
        #expect(run.status == 0 && run.stdout.contains("Order 1234"))
        #expect(
            run.stderr == "cannot write --analytics '/dev/full': No space left on device; later lines are dropped\n")
    }
}
