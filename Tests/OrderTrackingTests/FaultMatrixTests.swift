import CoreTesting
import Foundation
import Testing

/// Every card endpoint × every HTTP fault, over a real server (Scripts/fault-server): the faulty card fails and
/// hides with a reason, every other card shows, and the exit status is 2. The run ends at the deadline, not at the
/// fault's end: an answer 1.5 s late is a failure under `--timeout 1`, and a 60 s one cannot hold the run past
/// `CLI.run`'s 30 s limit (which only ends a hang); nothing asserts how long the run took.
@Suite(.serialized) struct FaultMatrixTests {
    static let endpoints = [
        ("payment", "payment.json"), ("order", "details.json"), ("delivery", "delivery.json"), ("eta", "eta.json"),
    ]
    static let faults: [(String, String)] = [
        ("404", #"{"status": 404}"#), ("500", #"{"status": 500}"#), ("timeout", #"{"delay_ms": 60000}"#),
        ("slow past the deadline", #"{"delay_ms": 1500}"#), ("malformed JSON", #"{"body": "garbage"}"#),
        ("field renamed", #"{"rename": ["name", "nom"]}"#), ("empty body", #"{"body": "empty"}"#),
        ("50 MB body", #"{"body": "huge"}"#), ("invalid UTF-8", #"{"body": "invalid-utf8"}"#),
        ("connection refused", #"{"reset": true}"#),
    ]
    static let cases = endpoints.flatMap { endpoint in faults.map { (endpoint.0, endpoint.1, $0.0, $0.1) } }

    static func server(rules: String) throws -> TestServer {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/fault-server").path
        return try TestServer(
            arguments: [script, "--root", CLI.fixtures.path, "--rules", rules, "--lifetime", "\(TestServer.lifetime)"],
            portPattern: "port "
        )
    }

    @Test(arguments: cases.indices)
    func oneFaultyEndpointHidesOneCard(index: Int) async throws {
        let (card, file, faultName, fault) = Self.cases[index]
        // Renaming "name" breaks order (restaurant.name) and delivery (rider.name); for the others rename a field
        // only they have.
        let renamed = ["payment": #"["logo", "logo_s"]"#, "eta": #"["timezone", "tz"]"#][card]
        let rule = renamed.map { fault.replacingOccurrences(of: #"["name", "nom"]"#, with: $0) } ?? fault
        let server = try Self.server(rules: #"{"orders/1234/\#(file)": \#(rule)}"#)
        defer { server.stop() }
        let run = try await CLI.run([
            "1234", "--api", server.baseURL.absoluteString, "--format", "json", "--timeout", "1",
        ])
        #expect(run.status == 2, "\(card) × \(faultName): \(run.stderr)")
        let report = try CLI.json(run.stdout)
        let entries = report["components"] as? [[String: Any]] ?? []
        let failed = entries.filter { $0["state"] as? String == "failed" }
        #expect(failed.map { $0["id"] as? String } == [card], "\(card) × \(faultName)")
        #expect(failed.first?["hidden"] as? Bool == true)
        #expect((failed.first?["reason"] as? String)?.isEmpty == false)
        #expect(entries.filter { $0["state"] as? String == "info" }.count == entries.count - 1)
    }

    @Test func aFailingLayoutEndpointIsFatal() async throws {
        let server = try Self.server(rules: #"{"orders/1234/screen.json": {"status": 503}}"#)
        defer { server.stop() }
        let run = try await CLI.run(["1234", "--api", server.baseURL.absoluteString, "--format", "json"])
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(
            run.stderr
                == "cannot load the screen layout: orders/1234/screen.json: server answered HTTP 503; check --api or try again later\n"
        )
    }
}
