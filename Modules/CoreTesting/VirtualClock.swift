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

    /// Changes whenever a task starts or stops sleeping.
    private var signature: [Int] { state.withLock { [$0.sleepers.count, $0.nextID] } }

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

    /// Runs `work` to its end, moving the clock to the next deadline whenever everything is waiting on it, so
    /// code that sleeps on this clock (a slow endpoint, a deadline, a watch round) finishes in milliseconds of
    /// wall time. Past `limit` of virtual time (or two minutes of wall time with nothing asleep on the clock) the
    /// work is cancelled, and its answer (if any) returned.
    public func drive<Value: Sendable>(
        within limit: Duration = .seconds(3600), _ work: @escaping @Sendable () async -> Value
    ) async -> Value? {
        let answer = Locked(Value?.none)
        let task = Task {
            let value = await work()
            answer.withLock { $0 = value }
        }
        let end = now().addingTimeInterval(limit.seconds)
        let wallLimit = ContinuousClock.now + .seconds(120)
        while answer.withLock({ $0 == nil }) {
            // Quiet: nobody started or stopped sleeping for five looks in a row, each after the other tasks had a
            // turn, and for 10 ms of wall time (a busy machine can hold a task off the pool for a few looks).
            var (quiet, last, since) = (0, signature, ContinuousClock.now)
            while quiet < 5 || ContinuousClock.now - since < .milliseconds(10), answer.withLock({ $0 == nil }) {
                for _ in 0..<20 { await Task.yield() }
                try? await Task.sleep(for: .milliseconds(1))
                let now = signature
                if now == last { quiet += 1 } else { (quiet, last, since) = (0, now, ContinuousClock.now) }
            }
            guard answer.withLock({ $0 == nil }) else { break }
            // Nobody sleeping: the work is busy (or starved of threads), so give it time rather than jump.
            guard let next = nextWake else {
                if ContinuousClock.now > wallLimit { task.cancel() }
                continue
            }
            guard next <= end else {
                task.cancel()
                break
            }
            advanceToNextDeadline()
        }
        await task.value
        return answer.withLock { $0 }
    }
}
