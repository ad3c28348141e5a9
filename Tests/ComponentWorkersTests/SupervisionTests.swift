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

    /// Until `clock` has `count` sleepers (timers scheduled on it); false after two minutes.
    private static func sleepers(_ count: Int, on clock: VirtualClock) async -> Bool {
        for _ in 0..<12000 {
            if clock.sleeperCount >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test func aWorkerThatKeepsCrashingWaitsOutItsBackOffAndIsGivenUpAfterFiveCrashesWithinAMinute() async {
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
        // Five crashes within 1 + 2 + 4 + 8 s, well within the period: given up for the rest of the run.
        clock.advance(by: .seconds(3600))
        let refused = await kernel.load(within: .seconds(5), on: clock)
        #expect(refused == .failure(Failure("\(ended.reason) (stopped 5 times within 60 s; not started again)")))
        #expect(lines.count("started") == WorkerPool.crashLimit)
        #expect(WorkerPool.backOff(after: 1) == .seconds(1) && WorkerPool.backOff(after: 4) == .seconds(8))
    }

    /// A module whose every errand (a login hook) answers and whose worker then crashes: the answers do not start
    /// the count over (before, any errand's reply did, and such a module was restarted for ever).
    @Test func aModuleThatCrashesAfterEveryAnswerIsGivenUpAfterFiveCrashesWithinAMinute() async throws {
        let (clock, lines) = (VirtualClock(), Lines())
        let script =
            ShellWorker.greeting() + ShellWorker.awaitCall + ShellWorker.write(.reply(id: 1, .said("done")))
            + "exit 3"
        let pool = WorkerPool(command: ["/bin/sh", "-c", script], isolated: [], clock: clock, environment: [:])
        pool.trace { lines.add($0) }
        defer { pool.close() }
        let backend = CannedBackend([:], clock: clock)
        for crash in 1...WorkerPool.crashLimit {
            #expect(try await pool.errand("Echo", of: "Echo", Data(), backend: backend, now: clock.now()) == "done")
            #expect(await lines.wait(for: "crashed", count: crash))
            #expect(pool.crashes(of: "Echo") == crash)
            clock.advance(by: WorkerPool.backOff(after: crash))
        }
        await #expect(
            throws: Failure("Echo's worker exited with status 3 (stopped 5 times within 60 s; not started again)")
        ) {
            try await pool.errand("Echo", of: "Echo", Data(), backend: backend, now: clock.now())
        }
        #expect(lines.count("started") == WorkerPool.crashLimit)
    }

    /// Crashes further apart than a fifth of the period never make five within it: the module is started again
    /// every time, for as long as the run lasts.
    @Test func crashesSpreadWiderThanThePeriodAreRestartedForEver() async {
        let (clock, lines) = (VirtualClock(), Lines())
        let (pool, kernel) = Self.pool("exit 3", clock: clock, lines: lines)
        defer { pool.close() }
        let ended = Failure("Echo's worker exited with status 3")
        #expect(await lines.wait(for: "crashed", count: 1))
        let apart = WorkerPool.crashPeriod / (WorkerPool.crashLimit - 1) + .seconds(1)
        for restart in 1...(3 * WorkerPool.crashLimit) {
            clock.advance(by: apart)
            #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(ended))
            #expect(lines.count("started") == restart + 1)
            #expect(await lines.wait(for: "crashed", count: restart + 1))
            #expect(pool.crashes(of: "Echo") < WorkerPool.crashLimit)
        }
        #expect(lines.count("not started again") == 0)
    }

    /// A card's info drawn is what starts the count over: the next start waits no back-off.
    @Test func aCardDrawnStartsTheCrashCountOver() async {
        let (clock, lines) = (VirtualClock(), Lines())
        let (pool, kernel) = Self.pool("exit 3", clock: clock, lines: lines)
        defer { pool.close() }
        #expect(await lines.wait(for: "crashed", count: 1))
        clock.advance(by: WorkerPool.backOff(after: 1))
        _ = await kernel.load(within: .seconds(5), on: clock)
        #expect(await lines.wait(for: "crashed", count: 2))
        #expect(pool.crashes(of: "Echo") == 2)
        pool.drawn("Echo")
        #expect(pool.crashes(of: "Echo") == 0)
        _ = await kernel.load(within: .seconds(5), on: clock)
        #expect(lines.count("started") == 3, "started again at once, the clock unmoved")
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
        // SIGTERM ends it: the clock need not move.
        pool.close()
        _ = await load.value
        #expect(await lines.wait(for: "worker Echo: ended"))
        #expect(pool.crashes(of: "Echo") == 0)
        #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(Failure("the run is over")))
    }

    /// Closing a worker closes its pipe first: one that ignores SIGTERM but ends when it reads the end of its input
    /// (as a real worker does) ends without the clock moving, so without a SIGKILL.
    @Test func closingAWorkerClosesItsPipeFirst() async {
        let (clock, lines) = (VirtualClock(), Lines())
        let (pool, _) = Self.pool("trap '' TERM; cat <&3 > /dev/null", clock: clock, lines: lines)
        #expect(await lines.wait(for: "started"))
        await OwnThread.run { pool.close() }
        #expect(lines.count("worker Echo: ended") == 1 && lines.count("crashed") == 0)
    }

    /// Workers that ignore both the end of their pipe and SIGTERM are ended by SIGKILL a grace after they were asked:
    /// all of them one grace after the close, not one grace each in turn.
    @Test func closingManyWorkersTakesOneGraceNotOneEach() async {
        let (clock, lines) = (VirtualClock(), Lines())
        let modules = (1...5).map { "Stubborn\($0)" }
        let pool = WorkerPool(
            command: ["/bin/sh", "-c", "trap '' TERM; exec sleep 600"], isolated: [], clock: clock, environment: [:])
        pool.trace { lines.add($0) }
        for module in modules { #expect((try? pool.link(for: module).get()) != nil) }
        #expect(await lines.wait(for: "started", count: modules.count))
        let returned = Locked(false)
        async let closed: Void = OwnThread.run {
            pool.close()
            returned.withLock { $0 = true }
        }
        // Every worker has been asked (its SIGKILL scheduled) before the clock moves: none has ended, none returned.
        #expect(await Self.sleepers(modules.count, on: clock))
        #expect(!returned.withLock { $0 } && lines.count("ended") == 0)
        clock.advance(by: WorkerLink.grace)
        await closed
        #expect(lines.count("ended") == modules.count && lines.count("crashed") == 0)
    }

    /// A worker of another build (the executable rebuilt while the host ran) is refused in one line, shown as its
    /// card's reason, and is no crash: no count, no back-off, and no worker is started from the new build again.
    @Test func aWorkerOfAnotherBuildIsRefusedInOneLineAndIsNoCrash() async {
        let (clock, lines) = (VirtualClock(), Lines())
        let (pool, kernel) = Self.pool(
            ShellWorker.greeting(as: "another build") + "sleep 600", clock: clock, lines: lines)
        defer { pool.close() }
        let refusal = Failure("sh was rebuilt while it ran: start it again")
        #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(refusal))
        #expect(await lines.wait(for: "worker Echo: refused: sh was rebuilt while it ran: start it again"))
        #expect(lines.count("crashed") == 0 && pool.crashes(of: "Echo") == 0)
        #expect(await kernel.load(within: .seconds(5), on: clock) == .failure(refusal))
        #expect(lines.count("started") == 1)
    }

    /// A worker that greets with the host's build is served as ever.
    @Test func aWorkerOfTheHostsBuildIsServed() async throws {
        let (clock, lines) = (VirtualClock(), Lines())
        let script = ShellWorker.greeting() + ShellWorker.awaitCall + ShellWorker.write(.reply(id: 1, .said("done")))
        let pool = WorkerPool(
            command: ["/bin/sh", "-c", script + "sleep 600"], isolated: [], clock: clock, environment: [:])
        pool.trace { lines.add($0) }
        defer { pool.close() }
        let backend = CannedBackend([:], clock: clock)
        #expect(try await pool.errand("Echo", of: "Echo", Data(), backend: backend, now: clock.now()) == "done")
        #expect(lines.count("refused") == 0)
    }
}
