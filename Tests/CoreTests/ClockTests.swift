import Core
import CoreTesting
import Foundation
import Testing

@Suite struct ScheduledTimerTests {
    @Test func theSystemClockFiresAfterTheDelayAndACancelledTimerNever() async {
        let clock = SystemClock()
        let fired = Locked<[String]>([])
        let started = ContinuousClock.now
        let cancelled = clock.schedule(after: .milliseconds(10)) { fired.withLock { $0.append("cancelled") } }
        cancelled.cancel()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.schedule(after: .milliseconds(60)) {
                fired.withLock { $0.append("kept") }
                done.resume()
            }
        }
        #expect(ContinuousClock.now - started >= .milliseconds(60))
        #expect(fired.withLock { $0 } == ["kept"])
    }

    @Test func aVirtualClockSchedulesOnItsOwnTime() async {
        let clock = VirtualClock()
        let fired = Locked(false)
        clock.start { _ = clock.schedule(after: .seconds(30)) { fired.withLock { $0 = true } } }
        await clock.settle()
        #expect(clock.sleeperCount == 1)
        #expect(fired.withLock { $0 } == false)
        clock.advanceToNextDeadline()
        await clock.settle()
        #expect(fired.withLock { $0 } == true)
        #expect(clock.sleeperCount == 0)
    }
}
