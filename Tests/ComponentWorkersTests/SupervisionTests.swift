import Core
import CoreTesting
import Foundation
import ScreenRuntime
import Testing

@testable import ComponentWorkers

/// A card whose code the pool runs in a worker; the "worker" here is a shell command, so what is tested is the
/// host's side: how an end is said, counted and waited out.
private struct Echo: Component {
    typealias Info = String
    static let id: ComponentID = "echo"
    func load(_ context: ComponentContext) async throws -> String { "hello" }
    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? { nil }
}

/// The lines a pool traces, kept for a test to read.
private final class Lines: Sendable {
    private let lines = Locked([String]())
    var all: [String] { lines.withLock { $0 } }
    func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// How many lines contain `text`.
    func count(_ text: String) -> Int { all.filter { $0.contains(text) }.count }

    /// Until `count` lines containing `text` are traced (an end is heard on the link's own thread); false after two minutes.
    func wait(for text: String, count: Int = 1) async -> Bool {
        for _ in 0..<12000 {
            if self.count(text) >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

@Suite struct SupervisionTests {
    private static let registration = ComponentRegistration(module: "Echo", endpoint: "echo.json") { Echo() }

    private static func pool(_ script: String, clock: VirtualClock, lines: Lines) -> (WorkerPool, CardKernel) {
        let pool = WorkerPool(command: ["/bin/sh", "-c", script], isolated: [Echo.id], clock: clock, environment: [:])
        pool.trace { lines.add($0) }
        let context = ComponentContext(backend: CannedBackend([:], clock: clock), clock: clock)
        return (pool, pool.kernel(registration, context: context))
    }

    @Test func aWorkerThatKeepsCrashingWaitsOutItsBackOffAndIsNotStartedAfterFiveCrashes() async {
        let (clock, lines) = (VirtualClock(), Lines())
        // The worker starts with the card's kernel (while the screen is built): its first crash is there.
        let (pool, kernel) = Self.pool("exit 3", clock: clock, lines: lines)
        defer { pool.close() }
        let ended = Failure("Echo's worker exited with status 3")
        #expect(await lines.wait(for: "crashed", count: 1))
        for crash in 1..<WorkerPool.crashLimit {
            // Within its back-off the module is not started again: its card fails with the last crash's reason.
            #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(ended))
            #expect(lines.count("started") == crash)
            clock.advance(by: WorkerPool.backOff(after: crash))
            #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(ended))
            #expect(lines.count("started") == crash + 1)
            #expect(await lines.wait(for: "crashed", count: crash + 1))
        }
        clock.advance(by: .seconds(3600))
        let refused = await kernel.load(within: .seconds(5), on: clock)
        #expect(refused == .failure(Failure("\(ended.reason) (stopped 5 times; not started again)")))
        #expect(lines.count("started") == WorkerPool.crashLimit)
        #expect(WorkerPool.backOff(after: 1) == .seconds(1) && WorkerPool.backOff(after: 4) == .seconds(8))
    }

    @Test func aLoadPastItsDeadlineIsStoppedAndAWorkerThatDoesNotStopIsEnded() async {
        let (clock, lines) = (VirtualClock(), Lines())
        // Reads no frame and answers none: a load that spins.
        let (pool, kernel) = Self.pool("exec sleep 600", clock: clock, lines: lines)
        defer { pool.close() }
        let load = Task { await kernel.load(within: .seconds(2), on: clock) }
        while clock.sleeperCount == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: .seconds(2))
        #expect(await load.value == .failure(Failure("no answer within 2s", transient: true)))
        // Asked to stop, it does not answer: after the grace it is ended, which counts as its crash.
        while clock.sleeperCount == 0 { try? await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: WorkerLink.grace)
        #expect(await lines.wait(for: "crashed"))
        #expect(
            lines.all.last
                == "worker Echo: crashed: Echo's code did not stop within 1s of being asked; its worker was ended")
    }

    @Test func closingThePoolEndsItsWorkersWithoutCountingACrash() async {
        let (clock, lines) = (VirtualClock(), Lines())
        let (pool, kernel) = Self.pool("exec sleep 600", clock: clock, lines: lines)
        let load = Task { await kernel.load(within: .seconds(60), on: clock) }
        #expect(await lines.wait(for: "started"))
        pool.close()
        _ = await load.value
        #expect(await lines.wait(for: "worker Echo: ended"))
        #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(Failure("the run is over")))
    }
}
