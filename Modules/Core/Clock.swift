import Foundation

/// Time as components and containers see it, injected so deadlines and "minutes ago" are testable without sleeping.
public protocol CourierClock: Sendable {
    /// The current wall-clock time.
    func now() -> Date
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
    /// Runs `action` once `duration` has passed unless the returned timer is cancelled first. Deadlines use it:
    /// a timer is cheaper than a sleeping task, which must be woken up just to be told it is no longer needed.
    func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer
}

/// A pending ``CourierClock/schedule(after:_:)`` action.
public struct ScheduledTimer: Sendable {
    private let stop: @Sendable () -> Void

    /// A timer that `cancel()` stops with `stop`.
    public init(cancel stop: @escaping @Sendable () -> Void) { self.stop = stop }

    /// Drops the action if it has not run yet.
    public func cancel() { stop() }
}

extension CourierClock {
    /// Any clock can schedule with a task that sleeps on it (virtual clocks rely on this).
    public func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let task = Task {
            if (try? await sleep(for: duration)) != nil { action() }
        }
        return ScheduledTimer { task.cancel() }
    }
}

/// A dispatch timer source shared with the closure that cancels it. Dispatch documents `cancel()` as safe from
/// any thread; the corelibs overlay just does not mark the type `Sendable`.
private final class DispatchTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
    init(_ source: any DispatchSourceTimer) { self.source = source }
}

/// The real clock.
public struct SystemClock: CourierClock {
    /// Creates the real clock.
    public init() {}
    /// The current time.
    public func now() -> Date { Date() }
    /// Sleeps on the continuous clock.
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
    /// A dispatch timer: no task is created or woken unless it fires, and cancelling removes it (with everything
    /// its action holds) at once. A fired action runs as a task, on the same pool as the work it guards, so a
    /// pool kept busy elsewhere cannot turn into false timeouts.
    public func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let timer = DispatchTimer(DispatchSource.makeTimerSource(queue: .global()))
        timer.source.schedule(deadline: .now() + duration.seconds)
        // The handler holds the timer until it fires or is cancelled (dispatch then drops the handler), so a
        // caller may forget the returned value without the timer dying with it.
        timer.source.setEventHandler {
            timer.source.cancel()
            Task { action() }
        }
        timer.source.resume()
        return ScheduledTimer { timer.source.cancel() }
    }
}

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
}

extension Duration {
    /// The duration in seconds as a floating-point number, for `Date` arithmetic and display.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
