import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A load is a task the runtime owns: a person's reload while it is under way cancels the load itself (its
/// fetch sees the cancellation at once) and the answer it leaves is dropped by its generation.
@Suite struct CardLoadTests {
    final class Loads: Sendable {
        let started = Locked(0)
        let cancelled = Locked(false)
    }

    /// The first load would wait an hour on the clock; every later one answers at once.
    struct Waiting: Component {
        struct Info: Sendable, Equatable, Encodable { let load: Int }
        static let id: ComponentID = "waiting"
        let loads: Loads

        func load(_ context: ComponentContext) async throws -> Info {
            let number = loads.started.withLock { started in
                started += 1
                return started
            }
            if number == 1 {
                do { try await context.clock.sleep(for: .seconds(3600)) } catch {
                    loads.cancelled.withLock { $0 = true }
                    throw error
                }
            }
            return Info(load: number)
        }

        func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? { nil }
    }

    @Test func aReloadDuringALoadCancelsThatLoadItselfAndDropsItsAnswer() async throws {
        let clock = VirtualClock()
        let loads = Loads()
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "(none)") { Waiting(loads: loads) })
        var settings = ScreenSettings(ids: [:])
        settings.timeout = .seconds(7200)
        let traces = Locked<[String]>([])
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: Waiting.id)], registry: registry, backend: CannedBackend([:], clock: clock),
            clock: clock, settings: settings,
            report: RuntimeReport(diagnostic: { _ in }, trace: { line in traces.withLock { $0.append(line) } }))
        let opening = clock.start { await runtime.open(loading: [0]) }
        await clock.settle()
        #expect(clock.sleeperCount == 2, "the load and its deadline wait on the clock")
        await clock.start { await runtime.reload(card: 0) }.value
        await opening.value
        await clock.settle()
        #expect(loads.cancelled.withLock { $0 }, "the first load saw the cancellation")
        #expect(loads.started.withLock { $0 } == 2)
        #expect(runtime.currentFrame().cards.map(\.phase) == [.info])
        #expect(traces.withLock { $0 }.contains { $0.hasSuffix("waiting: dropped a stale answer (load #1)") })
        #expect(clock.sleeperCount == 0, "nothing of the first load is left waiting")
        _ = await clock.drive { await runtime.stop() }
    }
}
