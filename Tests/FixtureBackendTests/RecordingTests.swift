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
