import Core
import Foundation

/// A clock that only moves when a test calls ``advance(by:)``; sleepers wake in deadline order.
public final class VirtualClock: CourierClock {
    private struct Sleeper {
        let id: Int
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var elapsed: Duration = .zero
        var nextID = 0
        var sleepers: [Sleeper] = []
    }
    private let start: Date
    private let executor = SerialTestExecutor()
    private let state = Locked(State())

    /// Starts the clock at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { self.start = start }

    /// The start time plus everything advanced so far.
    public func now() -> Date {
        let elapsed = state.withLock { $0.elapsed }
        return start.addingTimeInterval(elapsed.seconds)
    }

    /// How many tasks are sleeping; tests wait for this before advancing.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock has been advanced past `duration` from now.
    public func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = Task.isCancelled
                state.withLock { state in
                    if !cancelled {
                        state.sleepers.append(
                            Sleeper(id: id, deadline: state.elapsed + duration, continuation: continuation))
                    }
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// When the earliest sleeper is due, if any sleeps.
    public var nextWake: Date? {
        let next = state.withLock { $0.sleepers.map(\.deadline).min() }
        return next.map { start.addingTimeInterval($0.seconds) }
    }

    /// Moves time to the earliest pending deadline and wakes the sleepers due then; does nothing when none sleep.
    public func advanceToNextDeadline() {
        let next = state.withLock { state in state.sleepers.map(\.deadline).min().map { $0 - state.elapsed } }
        if let next { advance(by: next) }
    }

    /// Moves time forward and wakes every sleeper whose deadline has passed.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.elapsed += duration
            let due = state.sleepers.filter { $0.deadline <= state.elapsed }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.elapsed }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Starts `work` on this clock's executor: it and every task it starts (`Task.placed(_:)`, child tasks)
    /// run there one job at a time, so ``settle()`` knows exactly when all of them are waiting.
    @discardableResult
    public func start<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Task<Value, Never> {
        let executor = executor
        return Task(executorPreference: executor) {
            await TaskPlacement.$executor.withValue(executor) { await work() }
        }
    }

    /// Returns once every task started with ``start(_:)`` is suspended (on this clock, or on something else):
    /// exactly, from the executor's own count of jobs, never by waiting to see whether anything moves.
    public func settle() async { await executor.idle() }

    /// Runs `work` to its end, moving the clock to the next deadline each time every task of the work is asleep
    /// on it, so code that sleeps on this clock (a slow endpoint, a deadline, a watch round) finishes in
    /// milliseconds of wall time. Past `limit` of virtual time, or when nothing runs or sleeps for two minutes
    /// of real time (work stuck on the outside world), the work is cancelled; its answer (if any) is returned.
    public func drive<Value: Sendable>(
        within limit: Duration = .seconds(3600), _ work: @escaping @Sendable () async -> Value
    ) async -> Value? {
        let answer = Locked(Value?.none)
        let task = start {
            let value = await work()
            answer.withLock { $0 = value }
        }
        let end = now().addingTimeInterval(limit.seconds)
        var cancelled = false
        while true {
            await settle()
            guard answer.withLock({ $0 == nil }) else { break }
            if let next = nextWake {
                if next > end && !cancelled {
                    task.cancel()
                    cancelled = true
                } else {
                    advanceToNextDeadline()
                }
            } else if await !executor.busy(within: .seconds(120)) {
                // Nothing runs and nothing sleeps on this clock: the work waits on the outside world, which has
                // said nothing for two minutes. It is cancelled and not waited for.
                task.cancel()
                return answer.withLock { $0 }
            }
        }
        await task.value
        return answer.withLock { $0 }
    }
}
