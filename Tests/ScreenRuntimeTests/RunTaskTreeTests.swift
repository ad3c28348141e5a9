import Core
import CoreTesting
import Foundation
import Testing

@testable import ScreenRuntime

/// A screen run is one task tree: its loads and its send are children of the run's loop, so cancelling the task
/// that runs the screen cancels them and waits for them, and the run returns its last frame with nothing left
/// running. Run on a virtual clock's executor: "returned" is checked once every task of the test is idle, never
/// against the wall clock.
@Suite struct RunTaskTreeTests {
    /// A backend that never answers on its own: every fetch and send waits until its task is cancelled, and says
    /// how many started and how many saw the cancellation.
    final class Hanging: Backend {
        let fetchesStarted = Locked(0)
        let fetchesCancelled = Locked(0)
        let sendsStarted = Locked(0)
        let sendsCancelled = Locked(0)
        /// Paths answered at once instead (the price a send needs first).
        let answers: [String: String]

        init(answers: [String: String] = [:]) { self.answers = answers }

        func fetch(_ endpoint: Endpoint) async throws(BackendError) -> Data {
            if let answer = answers[endpoint.path] { return Data(answer.utf8) }
            fetchesStarted.withLock { $0 += 1 }
            await Self.untilCancelled()
            fetchesCancelled.withLock { $0 += 1 }
            throw .transport("cancelled", path: endpoint.path)
        }

        func send(_ endpoint: Endpoint, body: Data, headers: [String: String]) async throws(BackendError) -> Data {
            sendsStarted.withLock { $0 += 1 }
            await Self.untilCancelled()
            sendsCancelled.withLock { $0 += 1 }
            throw .unanswered("cancelled", path: endpoint.path)
        }

        /// Suspends until the calling task is cancelled, on nothing a clock could wake.
        static func untilCancelled() async {
            let waiter = Locked((cancelled: false, continuation: CheckedContinuation<Void, Never>?.none))
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let cancelled = waiter.withLock { state in
                        if !state.cancelled { state.continuation = continuation }
                        return state.cancelled
                    }
                    if cancelled { continuation.resume() }
                }
            } onCancel: {
                let continuation = waiter.withLock { state in
                    state.cancelled = true
                    defer { state.continuation = nil }
                    return state.continuation
                }
                continuation?.resume()
            }
        }
    }

    /// A card that prices a cart and confirms paying its price.
    struct PriceCard: Component, Validatable {
        static let id: ComponentID = "price"
        func load(_ context: ComponentContext) async throws -> String {
            String(decoding: try await context.backend.fetch(try Endpoint("carts", "C1", "price")), as: UTF8.self)
        }
        func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
            state.info.map { Block(title: "Price", rows: [Row($0)]) }
        }
        func validate(_ action: UserAction, info: String) -> Verdict { .confirm(info, facts: ["amount": .text(info)]) }
    }

    static func runtime(_ backend: Hanging, clock: VirtualClock, watch: Bool, pay: Bool) throws -> ScreenRuntime {
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "carts/C1/price") { PriceCard() })
        var settings = ScreenSettings(ids: ["cart": "C1"])
        settings.watch = watch
        settings.timeout = .seconds(7200)
        if pay {
            var action = ActionSpec(id: "pay")
            (action.send, action.done) = ("carts/{cart}/pay", "Paid {amount}")
            (settings.actions, settings.perform, settings.attempts) = ([action], action, MemoryAttempts { "key" })
        }
        return ScreenRuntime(
            entries: [ScreenEntry(id: PriceCard.id)], registry: registry, backend: backend, clock: clock,
            settings: settings, report: RuntimeReport(diagnostic: { _ in }))
    }

    /// Starts the run, lets it settle, cancels its task and says what it returned once everything is idle (nil:
    /// it had not returned, something of it still waits).
    static func cancelled(_ runtime: ScreenRuntime, on clock: VirtualClock) async -> ScreenFrame? {
        let last = Locked(ScreenFrame?.none)
        let run = clock.start {
            let frame = await runtime.run { _, _ in }
            last.withLock { $0 = frame }
        }
        await clock.settle()
        run.cancel()
        await clock.settle()
        return last.withLock { $0 }
    }

    @Test(arguments: [false, true])
    func cancellingARunWhoseFetchNeverAnswersEndsTheFetchAndReturnsTheLastFrame(watch: Bool) async throws {
        let clock = VirtualClock()
        let backend = Hanging()
        let runtime = try Self.runtime(backend, clock: clock, watch: watch, pay: false)
        let final = await Self.cancelled(runtime, on: clock)
        #expect(final?.cards.map(\.phase) == [.loading], "the run returned, with the screen as it was")
        #expect(backend.fetchesStarted.withLock { $0 } == 1)
        #expect(backend.fetchesCancelled.withLock { $0 } == 1, "the fetch saw the cancellation")
        #expect(clock.sleeperCount == 0, "nothing of the load (its deadline) is left waiting")
    }

    @Test func cancellingARunWhoseSendNeverAnswersEndsTheSendAndReturnsTheLastFrame() async throws {
        let clock = VirtualClock()
        let backend = Hanging(answers: ["carts/C1/price": "SAR 1.00"])
        let runtime = try Self.runtime(backend, clock: clock, watch: false, pay: true)
        let final = await Self.cancelled(runtime, on: clock)
        #expect(final?.cards.map(\.phase) == [.info], "the run returned, with the screen as it was")
        #expect(backend.sendsStarted.withLock { $0 } == 1)
        #expect(backend.sendsCancelled.withLock { $0 } == 1, "the send saw the cancellation")
        #expect(clock.sleeperCount == 0)
    }

    /// A screen a host keeps open (a harness, `preview --event`) is stopped, not cancelled: the stop ends its
    /// loads (each cancelled alone, as the reducer asks) and its send (with the rest of the loop's children)
    /// too, and returns.
    @Test(arguments: [false, true])
    func stoppingAnOpenScreenEndsALoadOrSendThatNeverAnswers(pay: Bool) async throws {
        let clock = VirtualClock()
        let backend = Hanging(answers: pay ? ["carts/C1/price": "SAR 1.00"] : [:])
        let runtime = try Self.runtime(backend, clock: clock, watch: false, pay: pay)
        clock.start { await runtime.open(loading: [0]) }
        await clock.settle()
        let started = pay ? backend.sendsStarted.withLock { $0 } : backend.fetchesStarted.withLock { $0 }
        #expect(started == 1)
        let last = Locked(ScreenFrame?.none)
        clock.start {
            let frame = await runtime.stop()
            last.withLock { $0 = frame }
        }
        await clock.settle()
        #expect(last.withLock { $0 }?.cards.map(\.phase) == [pay ? .info : .loading], "the stop returned")
        let cancelled = pay ? backend.sendsCancelled.withLock { $0 } : backend.fetchesCancelled.withLock { $0 }
        #expect(cancelled == 1, "the fetch or send saw the cancellation")
        #expect(clock.sleeperCount == 0)
    }

    /// A screen opened for the length of a call (`preview --event`, `cancel`'s verdicts) is part of its caller's
    /// task tree: cancelling the caller while a fetch never answers stops the screen, ends the fetch and returns
    /// the last frame, with nothing of it left waiting.
    @Test func cancellingTheCallerOfAnOpenedScreenEndsItsFetchAndReturns() async throws {
        let clock = VirtualClock()
        let backend = Hanging()
        let runtime = try Self.runtime(backend, clock: clock, watch: false, pay: false)
        let last = Locked(ScreenFrame?.none)
        let caller = clock.start {
            let (_, frame) = await runtime.opened(loading: [0]) {}
            last.withLock { $0 = frame }
        }
        await clock.settle()
        #expect(backend.fetchesStarted.withLock { $0 } == 1)
        caller.cancel()
        await clock.settle()
        #expect(last.withLock { $0 }?.cards.map(\.phase) == [.loading], "the call returned")
        #expect(backend.fetchesCancelled.withLock { $0 } == 1, "the fetch saw the cancellation")
        #expect(clock.sleeperCount == 0)
    }

    /// A load that ignores its cancellation: a reload supersedes it, the new load's answer is shown, and the old
    /// load's answer, when it comes at last, changes nothing.
    @Test func aSupersededLoadThatIgnoresItsCancellationIsDroppedAndItsLateAnswerChangesNothing() async throws {
        let clock = VirtualClock()
        let gate = Gate()
        var registry = ComponentRegistry()
        try registry.register(ComponentRegistration(module: "Test", endpoint: "(none)") { Stubborn(gate: gate) })
        var settings = ScreenSettings(ids: [:])
        settings.timeout = .seconds(7200)
        let traces = Locked<[String]>([])
        let runtime = ScreenRuntime(
            entries: [ScreenEntry(id: Stubborn.id)], registry: registry, backend: Hanging(), clock: clock,
            settings: settings,
            report: RuntimeReport(diagnostic: { _ in }, trace: { line in traces.withLock { $0.append(line) } }))
        let opening = clock.start { await runtime.open(loading: [0]) }
        await clock.settle()
        await clock.start { await runtime.reload(card: 0) }.value
        await opening.value
        #expect(runtime.currentFrame().cards.map(\.phase) == [.info])
        #expect(traces.withLock { $0 }.contains { $0.hasSuffix("stubborn: dropped a stale answer (load #1)") })
        gate.open()
        await clock.settle()
        #expect(gate.answered.withLock { $0 }, "the first load did answer, late")
        let info = try #require(runtime.currentFrame().cards[0].info)
        #expect(try JSONDecoder().decode(Stubborn.Info.self, from: info).load == 2, "the second load's info")
        _ = await clock.drive { await runtime.stop() }
    }

    /// Holds the first load until the test opens it; cancellation does not let it go.
    final class Gate: Sendable {
        let started = Locked(0)
        let answered = Locked(false)
        private let waiter = Locked((open: false, continuation: CheckedContinuation<Void, Never>?.none))

        func wait() async {
            await withCheckedContinuation { continuation in
                let open = waiter.withLock { state in
                    if !state.open { state.continuation = continuation }
                    return state.open
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            let continuation = waiter.withLock { state in
                state.open = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }

    /// Its first load waits for the gate whatever happens; every later one answers at once.
    struct Stubborn: Component {
        struct Info: Sendable, Equatable, Codable { let load: Int }
        static let id: ComponentID = "stubborn"
        let gate: Gate

        func load(_ context: ComponentContext) async throws -> Info {
            let number = gate.started.withLock { started in
                started += 1
                return started
            }
            if number == 1 {
                await gate.wait()
                gate.answered.withLock { $0 = true }
            }
            return Info(load: number)
        }

        func card(for state: ComponentState<Info>, context: ComponentContext) -> Block? { nil }
    }
}
