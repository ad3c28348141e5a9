import ComponentWorkers
import Core
import CoreTesting
import Feed
import Foundation
import Location
import Login
import Order
import Profile
import ScreenRuntime
import Storage
import Tabs
import Testing

@testable import OrderTrackingKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The host and real workers (`order-tracking __worker`): what crosses the pipes, and what a worker's death costs.
@Suite struct WorkerProcessTests {
    /// A backend that answers from the squads' demo trees, tells how many fetches reached it, and can hold one.
    private final class HostBackend: Backend {
        private let fetched = Locked([String]())
        let holding: String?

        init(holding: String? = nil) { self.holding = holding }

        var paths: [String] { fetched.withLock { $0 } }

        func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
            fetched.withLock { $0.append(endpoint.path) }
            if endpoint.path == holding {
                try? await Task.sleep(for: .seconds(600))
                throw .timeout(path: endpoint.path)
            }
            let folders = ["Order", "Location", "Login", "Profile", "Feed"].map {
                ScreenComposition.root.appendingPathComponent("Modules/\($0)/Fixtures")
            }
            for folder in folders {
                if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(endpoint.path).path) {
                    return data
                }
            }
            throw .notFound(path: endpoint.path)
        }
    }

    /// The pool's trace lines.
    final class Lines: Sendable {
        private let lines = Locked([String]())
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    private static func pool(_ lines: Lines, memory: Int = WorkerCommand.memory) -> WorkerPool {
        let pool = WorkerPool(
            command: [CLI.binary, WorkerCommand.subcommand, "--memory", String(memory)],
            isolated: [OrderComponent.id, ETAComponent.id],
            clock: SystemClock(), environment: CLI.environment)
        pool.trace { lines.add($0) }
        return pool
    }

    @Test func aWorkersCardIsLoadedThroughTheHostsBackendAndDrawnInTheWorker() async throws {
        let lines = Lines()
        let pool = Self.pool(lines)
        defer { pool.close() }
        let backend = HostBackend()
        let context = ComponentContext(ids: ["order": "1234"], backend: backend, clock: SystemClock())
        let kernel = pool.kernel(OrderModule.registration, context: context)
        let info = try await kernel.load(within: .seconds(600), on: SystemClock()).get()
        // The real worker greets with the build the pool expects (its executable's): served, not refused.
        #expect(!lines.all.contains { $0.contains("refused") }, "\(lines.all)")
        #expect(backend.paths == ["orders/1234/details.json"])
        let answer = try await kernel.answer(for: info, consuming: [], json: true).get()
        let rows = answer.block?.rows.map(\.text) ?? []
        #expect(rows.contains("Al Baik"), "\(rows)")
        #expect(String(decoding: answer.json ?? Data(), as: UTF8.self).contains("\"restaurant\":\"Al Baik\""))
        // The same answer as the code gives in this process: the worker changes where it runs, not what it says.
        let local = OrderModule.registration.kernel(context: context)
        let here = try await local.answer(
            for: try await local.load(within: .seconds(600), on: SystemClock()).get(), consuming: [], json: true
        ).get()
        #expect(here.block == answer.block && here.json == answer.json)
        #expect(lines.all.filter { $0.hasPrefix("worker Order: started") }.count == 1)
    }

    @Test func aWorkerKilledMidLoadFailsThatLoadWithItsSignalAndTheOtherModulesGoOn() async throws {
        let lines = Lines()
        let pool = Self.pool(lines)
        defer { pool.close() }
        let backend = HostBackend(holding: "orders/1234/details.json")
        let context = ComponentContext(ids: ["order": "1234"], backend: backend, clock: SystemClock())
        let order = pool.kernel(OrderModule.registration, context: context)
        let load = Task { await order.load(within: .seconds(600), on: SystemClock()) }
        // Once its fetch is held here, the worker is waiting for it: end it by SIGKILL (a sanitized build turns a
        // SIGSEGV into its own report and exit status; nothing turns SIGKILL into anything else).
        for _ in 0..<12000 where !backend.paths.contains("orders/1234/details.json") {
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = try #require(lines.all.first { $0.hasPrefix("worker Order: started") })
        let pid = try #require(Int32(started.split(separator: " ").last?.dropLast() ?? ""))
        #expect(kill(pid, SIGKILL) == 0)
        let failure = await load.value
        // Nothing in the run sent it: the card says it was killed from outside, blaming no squad's code.
        #expect(failure == .failure(Failure("Order's worker was killed from outside the run (signal 9)")))
        let eta = pool.kernel(LocationModule.eta, context: context)
        let info = try await eta.load(within: .seconds(600), on: SystemClock()).get()
        let drawn = try await eta.answer(for: info, consuming: [], json: false).get()
        #expect(drawn.block?.title == "Arrival")
        #expect(
            lines.all.contains { $0.hasPrefix("worker Order: crashed: Order's worker was killed from outside") })
    }

    @Test func aLoginHookWhoseWorkerDiesIsAFailedHookAndTheOthersStillRun() async throws {
        let lines = Lines()
        let pool = Self.pool(lines)
        defer { pool.close() }
        let backend = HostBackend(holding: "users/1234/profile.json")
        let clock = SystemClock()
        let container = LoginContainer()
        for (id, plugin) in [
            ("Profile", ProfilePlugin(backend: backend) as any PostLoginSuccessPlugin),
            ("Feed", FeedPlugin(backend: backend)),
        ] {
            try container.register(
                success: RemoteLoginHook(plugin) {
                    try await pool.errand(id, of: id, $0, backend: backend, now: clock.now())
                }, id: id)
        }
        let said = Lines()
        let warned = Lines()
        let authenticator = Authenticator(
            backend: backend, container: container, clock: clock, hookDeadline: .seconds(600), say: { said.add($0) },
            note: { said.add($0) }, warn: { warned.add($0) })
        let login = Task { await authenticator.logIn(userID: "1234", password: nil) }
        // Profile's hook waits for its profile, held here: end its worker as a trap would.
        for _ in 0..<12000 where !backend.paths.contains("users/1234/profile.json") {
            try await Task.sleep(for: .milliseconds(10))
        }
        let started = try #require(lines.all.first { $0.hasPrefix("worker Profile: started") })
        let pid = try #require(Int32(started.split(separator: " ").last?.dropLast() ?? ""))
        #expect(kill(pid, SIGILL) == 0)
        let outcome = await login.value
        #expect(outcome.session == LoginSession(userID: "1234", name: "Sara Al-Harbi"))
        #expect(
            outcome.hookProblems == [
                "Hook 'Profile' failed: Profile's code stopped: signal 4, illegal instruction (a trap)"
            ])
        #expect(said.all.contains("Feed: 3 items"), "\(said.all)")
        #expect(warned.all == outcome.hookProblems)
    }

    /// Issue 67: the Feed's hook runs in Feed's worker, whose params are not the host's; the badge it sets comes
    /// back with its line and reaches the host's Feed tab (it was lost: the worker's hook had no params at all).
    @Test func theFeedHooksBadgeFromItsWorkerReachesTheHostsTab() async throws {
        let lines = Lines()
        let pool = Self.pool(lines)
        defer { pool.close() }
        let folder = try TemporaryDirectory()
        let backend = HostBackend()
        let (login, tabs, _) = try HostEnvironment.compose(
            backend: backend, store: UserStore(path: folder.url.path), workers: pool, clock: SystemClock())
        let authenticator = Authenticator(
            backend: backend, container: login, clock: SystemClock(), hookDeadline: .seconds(600), say: { _ in })
        let outcome = await authenticator.logIn(userID: "1234", password: nil)
        #expect(outcome.error == nil && outcome.hookProblems.isEmpty, "\(outcome.hookProblems)")
        #expect(lines.all.contains { $0.hasPrefix("worker Feed: started") }, "the hook ran in Feed's worker")
        let feed = TabBar(container: tabs).items(for: TabSession(userID: "1234")).first { $0.id == "feed" }
        #expect(feed?.badge == "3", "\(String(describing: feed))")
    }

    /// The smallest limit `COURIER_WORKER_MEMORY_MB` accepts still runs an ordinary card: it is what the squad's
    /// code may allocate, on top of the worker's own threads' stacks (which Linux counts as data). At 16 every
    /// worker once aborted or hung without an answer, and every squad's card was hidden.
    @Test func theSmallestMemoryLimitStillLoadsAndDrawsAnOrdinaryCard() async throws {
        let lines = Lines()
        let pool = Self.pool(lines, memory: 16)
        defer { pool.close() }
        let context = ComponentContext(ids: ["order": "1234"], backend: HostBackend(), clock: SystemClock())
        let kernel = pool.kernel(OrderModule.registration, context: context)
        let info = try await kernel.load(within: .seconds(600), on: SystemClock()).get()
        let answer = try await kernel.answer(for: info, consuming: [], json: false).get()
        #expect(answer.block?.rows.map(\.text).contains("Al Baik") == true)
        #expect(!lines.all.contains { $0.contains("crashed") }, "\(lines.all)")
    }

    /// Crashes in a row are counted until the module's card works again (its info loaded and drawn), not until
    /// any call answers: a worker whose load hangs or spins still draws the failed card on another thread, and that
    /// answer started the count over, so such a module was started again every round for ever (a spinning load
    /// kept a core busy half the time under `--watch`), its back-off never past 1 s, never "not started again".
    @Test func callsAnsweredWhileTheModulesLoadsKeepCrashingDoNotStartTheCountOver() async throws {
        let (lines, clock) = (Lines(), VirtualClock())
        let pool = WorkerPool(
            command: [CLI.binary, WorkerCommand.subcommand, "--memory", String(WorkerCommand.memory)],
            isolated: [OrderComponent.id], clock: clock, environment: CLI.environment)
        pool.trace { lines.add($0) }
        defer { pool.close() }
        let backend = HostBackend(holding: "orders/1234/details.json")
        let context = ComponentContext(ids: ["order": "1234"], backend: backend, clock: SystemClock())
        let order = pool.kernel(OrderModule.registration, context: context)
        let stopped = Failure("Order's worker was killed from outside the run (signal 9)")
        // The load waits for its held fetch in the newest worker, which is then ended as a trap would end it.
        func crash(_ count: Int) async throws {
            let load = Task { await order.load(within: .seconds(600), on: SystemClock()) }
            for _ in 0..<12000 where backend.paths.count < count { try await Task.sleep(for: .milliseconds(10)) }
            let started = try #require(lines.all.last { $0.hasPrefix("worker Order: started") })
            let pid = try #require(Int32(started.split(separator: " ").last?.dropLast() ?? ""))
            #expect(kill(pid, SIGKILL) == 0)
            #expect(await load.value == .failure(stopped))
        }
        try await crash(1)
        clock.advance(by: WorkerPool.backOff(after: 1))
        // Its next worker draws the failed card: that call answers, but the module's loads still crash.
        #expect(try await order.card(for: .failed(stopped)).get() == nil)
        try await crash(2)
        clock.advance(by: WorkerPool.backOff(after: 1))
        // Two crashes in a row: its back-off is now 2 s, so 1 s later it is not started again yet.
        #expect(await order.load(within: .seconds(600), on: SystemClock()) == .failure(stopped))
        #expect(lines.all.filter { $0.hasPrefix("worker Order: started") }.count == 2, "\(lines.all)")
    }
}
