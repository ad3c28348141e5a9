import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// The executor's lifetime rules, run on a virtual clock's executor so the order of events is the test's.
@Suite struct ScreenLifetimeTests {
    static func runtime(_ clock: VirtualClock, watch: Bool) throws -> ScreenRuntime {
        var registry = ComponentRegistry()
        try registry.register(SyntheticCard.registration)
        var settings = ScreenSettings(ids: ["card": "7"])
        settings.watch = watch
        return ScreenRuntime(
            entries: [ScreenEntry(id: SyntheticCard.id)], registry: registry,
            backend: CannedBackend(["synthetic/7": .delayed(.seconds(1), "7")], clock: clock), clock: clock,
            settings: settings, report: RuntimeReport(diagnostic: { _ in }))
    }

    /// A run cancelled before it starts (Ctrl-C during start-up, a closed stdout) still returns: its stop reaches
    /// the loop before its own wait does, and that wait is answered when the loop ends. It once hung a process
    /// in 3 % of such runs on a loaded machine.
    @Test(arguments: [false, true])
    func aRunCancelledBeforeItStartsStillReturns(watch: Bool) async throws {
        let clock = VirtualClock()
        let runtime = try Self.runtime(clock, watch: watch)
        let final = await clock.drive(within: .seconds(10)) {
            withUnsafeCurrentTask { $0?.cancel() }
            return await runtime.run { _, _ in }
        }
        #expect(final?.cards.map(\.phase) == [.loading])
        #expect(clock.sleeperCount == 0, "nothing the run started is left waiting")
    }

    /// Cancelling the task that runs a watched screen ends its loads and its timer with it.
    @Test func cancellingTheRunEndsItsLoadsAndTimer() async throws {
        let clock = VirtualClock()
        let runtime = try Self.runtime(clock, watch: true)
        let run = clock.start { await runtime.run { _, _ in } }
        await clock.settle()
        #expect(clock.sleeperCount == 2, "the load's latency and its deadline")
        clock.advance(by: .seconds(1))
        await clock.settle()
        #expect(clock.sleeperCount == 1, "the next round's wake-up")
        run.cancel()
        let final = await run.value
        await clock.settle()
        #expect(final.cards.map(\.phase) == [.info])
        #expect(clock.sleeperCount == 0)
    }
}
