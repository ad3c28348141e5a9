import Core
import CoreTesting
import FixtureBackend
import Foundation
import Testing

/// A recording played back answers the same, no earlier than the recorded run did, on the injected clock.
@Suite struct RecordingTests {
    final class Lines: Sendable {
        let written = Locked<[String]>([])
    }

    @Test func aRecordingReplaysTheSameAnswersAtTheirRecordedTimes() async throws {
        let clock = VirtualClock()
        let canned = CannedBackend(
            [
                "a.json": .json(#"{"x":1}"#), "slow.json": .delayed(.seconds(2), "late"),
                "gone.json": .fault(.httpStatus(503, path: "gone.json")),
            ],
            clock: clock)
        let lines = Lines()
        let recording = RecordingBackend(wrapping: canned, clock: clock) { line in
            lines.written.withLock { $0.append(line) }
        }
        #expect(try await recording.fetch(Endpoint("a.json")) == Data(#"{"x":1}"#.utf8))
        let slow = clock.start { try? await recording.fetch(Endpoint("slow.json")) }
        await clock.settle()
        #expect(canned.sleepingFetches == 1)
        clock.advance(by: .seconds(2))
        #expect(await slow.value == Data("late".utf8))
        await #expect(throws: BackendError.httpStatus(503, path: "gone.json")) {
            try await recording.fetch(Endpoint("gone.json"))
        }
        let written = lines.written.withLock { $0 }
        #expect(written.count == 3)
        #expect(written[1].contains(#""at_ms":2000"#), "\(written[1])")

        let replayClock = VirtualClock()
        let replay = try ReplayBackend(recording: Data(written.joined(separator: "\n").utf8), clock: replayClock)
        #expect(try await replay.fetch(Endpoint("a.json")) == Data(#"{"x":1}"#.utf8))
        let late = replayClock.start { try? await replay.fetch(Endpoint("slow.json")) }
        await replayClock.settle()
        replayClock.advance(by: .milliseconds(1999))
        await replayClock.settle()
        #expect(replayClock.sleeperCount == 1, "no earlier than it came")
        replayClock.advance(by: .milliseconds(1))
        #expect(await late.value == Data("late".utf8))
        await #expect(throws: BackendError.httpStatus(503, path: "gone.json")) {
            try await replay.fetch(Endpoint("gone.json"))
        }
        await #expect(throws: BackendError.transport("not in the recording", path: "other.json")) {
            try await replay.fetch(Endpoint("other.json"))
        }
    }

    /// `--record` keeps every backend answer, a payment's too: the send's answer or its fault, marked POST, so a
    /// replay answers the same send the same way (and sends nothing); a GET of the same path is another answer,
    /// and a send the recording does not hold is refused (nothing is sent).
    /// Two payments to one place, recorded: a replay answers each with its own line (the refused one's 402, the
    /// paid one's order), whatever order they are asked in; a recording made before requests were kept answers
    /// no send, and still replays its fetches.
    @Test func aReplayedSendGetsItsOwnRequestsAnswer() async throws {
        let lines = [
            #"{"at_ms":0,"endpoint":"carts/C1/pay","method":"POST","status":402,"sent_base64":"\#(Data("a".utf8).base64EncodedString())","idempotency_key":"k1"}"#,
            #"{"at_ms":0,"endpoint":"carts/C1/pay","method":"POST","status":200,"body_base64":"\#(Data("paid".utf8).base64EncodedString())","sent_base64":"\#(Data("b".utf8).base64EncodedString())","idempotency_key":"k2"}"#,
        ]
        let replay = try ReplayBackend(recording: Data(lines.joined(separator: "\n").utf8), clock: VirtualClock())
        let endpoint = try Endpoint("carts", "C1", "pay")
        #expect(replay.recordedKey("carts/C1/pay", body: Data("b".utf8)) == "k2")
        #expect(
            try await replay.send(endpoint, body: Data("b".utf8), headers: ["Idempotency-Key": "k2"])
                == Data("paid".utf8))
        await #expect(throws: BackendError.httpStatus(402, path: "carts/C1/pay")) {
            try await replay.send(endpoint, body: Data("a".utf8), headers: ["Idempotency-Key": "k1"])
        }
        let old = #"{"at_ms":0,"endpoint":"carts/C1/pay","method":"POST","status":200,"body_base64":"e30="}"#
        let older = try ReplayBackend(
            recording: Data((old + "\n" + #"{"at_ms":0,"endpoint":"a","status":200,"body_base64":"e30="}"#).utf8),
            clock: VirtualClock())
        #expect(try await older.fetch(Endpoint("a")) == Data("{}".utf8))
        await #expect(
            throws: BackendError.invalidRequest(
                "carts/C1/pay: the recording was made before requests were kept; record it again")
        ) {
            try await older.send(endpoint, body: Data("b".utf8), headers: [:])
        }
    }

    @Test func sendsAreRecordedAndReplayedAsPOSTs() async throws {
        let clock = VirtualClock()
        let canned = CannedBackend(
            [
                "carts/C1/pay": .json(#"{"get":true}"#), "POST carts/C1/pay": .json(#"{"order":"42"}"#),
                "POST carts/C2/pay": .fault(.unanswered("Empty reply from server", path: "carts/C2/pay")),
                "POST carts/C3/pay": .fault(.httpStatus(502, path: "carts/C3/pay")),
            ],
            clock: clock)
        let lines = Lines()
        let recording = RecordingBackend(wrapping: canned, clock: clock) { line in
            lines.written.withLock { $0.append(line) }
        }
        let body = Data(#"{"amount":"SAR 1.00"}"#.utf8)
        #expect(
            try await recording.send(Endpoint("carts", "C1", "pay"), body: body, headers: [:])
                == Data(#"{"order":"42"}"#.utf8))
        await #expect(throws: BackendError.unanswered("Empty reply from server", path: "carts/C2/pay")) {
            try await recording.send(Endpoint("carts", "C2", "pay"), body: body, headers: [:])
        }
        await #expect(throws: BackendError.httpStatus(502, path: "carts/C3/pay")) {
            try await recording.send(Endpoint("carts", "C3", "pay"), body: body, headers: [:])
        }
        #expect(try await recording.fetch(Endpoint("carts", "C1", "pay")) == Data(#"{"get":true}"#.utf8))
        let written = lines.written.withLock { $0 }
        #expect(canned.sent.count == 3, "each send passed through once")
        try #require(written.count == 4, "every answer is a line, the sends' too: \(written)")
        #expect(
            written[0]
                == #"{"at_ms":0,"body_base64":"eyJvcmRlciI6IjQyIn0=","endpoint":"carts/C1/pay","idempotency_key":null,"#
                + #""method":"POST","sent_base64":"\#(body.base64EncodedString())","status":200}"#
        )
        #expect(
            written[1].contains(#""error":"Empty reply from server""#) && written[1].contains(#""unanswered":true"#))
        #expect(written[2].contains(#""method":"POST""#) && written[2].contains(#""status":502"#))
        #expect(!written[3].contains("method"))

        let replay = try ReplayBackend(recording: Data(written.joined(separator: "\n").utf8), clock: VirtualClock())
        #expect(
            try await replay.send(Endpoint("carts", "C1", "pay"), body: body, headers: [:])
                == Data(#"{"order":"42"}"#.utf8))
        #expect(try await replay.fetch(Endpoint("carts", "C1", "pay")) == Data(#"{"get":true}"#.utf8))
        await #expect(throws: BackendError.unanswered("Empty reply from server", path: "carts/C2/pay")) {
            try await replay.send(Endpoint("carts", "C2", "pay"), body: body, headers: [:])
        }
        await #expect(throws: BackendError.httpStatus(502, path: "carts/C3/pay")) {
            try await replay.send(Endpoint("carts", "C3", "pay"), body: body, headers: [:])
        }
        await #expect(throws: BackendError.invalidRequest("carts/C4/pay: no POST to it in the recording")) {
            try await replay.send(Endpoint("carts", "C4", "pay"), body: body, headers: [:])
        }
        let put = #"{"at_ms":0,"endpoint":"a","method":"PUT","status":404}"#
        #expect {
            try ReplayBackend(recording: Data(put.utf8), clock: VirtualClock())
        } throws: { error in
            (error as? ReplayBackend.LineError)?.reason == #""method" must be "GET" or "POST""#
        }
    }

    @Test func aBadLineIsNamedWithItsNumber() {
        let text = #"{"at_ms":0,"endpoint":"a","status":200,"body_base64":"eA=="}"# + "\n\n" + #"{"at_ms":1e19}"#
        do {
            _ = try ReplayBackend(recording: Data(text.utf8), clock: VirtualClock())
            Issue.record("a bad third line was accepted")
        } catch {
            #expect(error.line == 3 && error.reason == "no \"endpoint\" string")
        }
    }
}
