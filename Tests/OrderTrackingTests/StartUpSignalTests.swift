import CoreTesting
import Foundation
import HostIO
import Testing

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A signal at any moment of a run's start-up ends it with the signal's status: before the handlers are in place
/// by the default action, after by the run's own ending path, never lost in between (a SIGTERM in the first
/// milliseconds once left a `--watch` running for ever, about one start in seventy).
@Suite struct StartUpSignalTests {
    /// The signals a run documents, with their statuses.
    private static let endings: [(signal: Int32, status: Int32)] = [(SIGTERM, 143), (SIGINT, 130), (SIGHUP, 129)]

    /// Starts a `--watch` run (which never ends by itself), sends `signal` after `delay` and waits for its end; past
    /// `limit` it is killed (137), so a lost signal is a failure, not a hang. The limit says nothing of speed.
    private static func ended(by signal: Int32, after delay: Duration, limit: Duration) throws -> Int32 {
        let process = try ChildProcess.startForTest(
            [CLI.binary, "1234", "--watch", "--plain"], environment: CLI.environment)
        if delay > .zero { usleep(UInt32(delay.seconds * 1_000_000)) }
        process.send(signal)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = process.endedStatus() { return status }
            usleep(2000)
        }
        process.send(SIGKILL)
        return process.wait()
    }

    /// The starts `lane` of `lanes` runs one after another: each ended by the signal and after the delay its number
    /// gives (every delay from 0 to 20 ms for every signal), with its status.
    private static func lane(_ lane: Int, of lanes: Int, starts: Int) -> [(start: Int, status: Int32?)] {
        stride(from: lane, to: starts, by: lanes).map { start in
            let ending = endings[start % endings.count]
            let delay = Duration.milliseconds((start / endings.count) % 21)
            return (start, try? ended(by: ending.signal, after: delay, limit: .seconds(30)))
        }
    }

    /// 105 starts, each ended by SIGTERM, SIGINT or SIGHUP after 0 to 20 ms, four at a time, each lane on a thread of
    /// its own (the test pool's threads stay free).
    @Test func aSignalAtAnyMomentOfStartUpEndsTheRunWithItsStatus() async {
        let (starts, lanes) = (105, 4)
        let outcomes = await withTaskGroup(of: [(start: Int, status: Int32?)].self) { group in
            for lane in 0..<lanes {
                group.addTask { await OwnThread.run { Self.lane(lane, of: lanes, starts: starts) } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outcomes.count == starts)
        for (start, status) in outcomes {
            let ending = Self.endings[start % Self.endings.count]
            let delay = (start / Self.endings.count) % 21
            #expect(
                status == ending.status,
                "signal \(ending.signal) after \(delay) ms ended the run with \(status.map(String.init) ?? "no start")")
        }
    }
}
