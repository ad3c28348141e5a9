import Foundation

/// Time as components and their host see it, injected so deadlines and "minutes ago" are testable without sleeping.
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
        let task = Task.placed {
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
    /// Where fired timers hand their action over: a serial queue gets a thread even when the global queue's
    /// one-per-core threads are all busy (one core, parsing a huge layout), so a deadline fires on time.
    private static let timers = DispatchQueue(label: "courier.timers")
    /// The current time.
    public func now() -> Date { Date() }
    /// Sleeps on the continuous clock.
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
    /// A dispatch timer: no task is created or woken unless it fires, and cancelling removes it (with everything
    /// its action holds) at once. A fired action runs as a placed task (`Task.placed`, never a bare `Task {}`),
    /// on the same pool as the work it guards, so a pool kept busy elsewhere cannot turn into false timeouts.
    public func schedule(after duration: Duration, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer {
        let timer = DispatchTimer(DispatchSource.makeTimerSource(queue: SystemClock.timers))
        timer.source.schedule(deadline: .now() + duration.seconds)
        // The handler holds the timer until it fires or is cancelled (dispatch then drops the handler), so a
        // caller may forget the returned value without the timer dying with it.
        timer.source.setEventHandler {
            timer.source.cancel()
            Task.placed { action() }
        }
        timer.source.resume()
        return ScheduledTimer { timer.source.cancel() }
    }
}

extension Duration {
    /// The duration in seconds as a floating-point number, for `Date` arithmetic and display.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
