import Core
import CoreTesting
import Foundation
import Testing

@Suite struct ScheduledTimerTests {
    /// Timers fire in the order of their deadlines, not in the order they were set, and a cancelled one or one
    /// not yet due never fires: an order of events, which a busy machine delays but does not reorder (the gaps are
    /// 0.4 s and an hour). A timer that ignored its delay, or dropped the fraction of a second, would fire first.
    @Test func theSystemClockFiresInDeadlineOrderAndACancelledTimerNever() async {
        let clock = SystemClock()
        let fired = Locked<[String]>([])
        let hour = clock.schedule(after: .seconds(3600)) { fired.withLock { $0.append("an hour") } }
        defer { hour.cancel() }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.schedule(after: .milliseconds(500)) {
                fired.withLock { $0.append("half a second") }
                done.resume()
            }
            _ = clock.schedule(after: .milliseconds(100)) { fired.withLock { $0.append("a tenth") } }
            let cancelled = clock.schedule(after: .milliseconds(10)) { fired.withLock { $0.append("cancelled") } }
            cancelled.cancel()
        }
        #expect(fired.withLock { $0 } == ["a tenth", "half a second"])
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
