import Core
import Foundation
import TerminalUI

/// What the painting task and the run loop share about one screen: the painter, when each card settled, which
/// cards asked to be looked at again and when, and whether the order is finished.
final class ScreenState: Sendable {
    private struct Shared {
        var painter: FramePainter
        var settledAt: [Int: Int] = [:]
        var due: [Int: ContinuousClock.Instant] = [:]
        var finished = false
    }
    private let shared: Locked<Shared>
    /// Rung when a card asks for a refresh sooner than the run loop planned to wake.
    let alarm = Alarm()

    init(painter: FramePainter) { shared = Locked(Shared(painter: painter)) }

    func paint(_ change: (inout FramePainter) -> Void) { shared.withLock { change(&$0.painter) } }

    func painter<T>(_ read: (FramePainter) -> T) -> T { shared.withLock { read($0.painter) } }

    func settled(_ index: Int, at milliseconds: Int) { shared.withLock { $0.settledAt[index] = milliseconds } }

    func settledAt(_ index: Int) -> Int? { shared.withLock { $0.settledAt[index] } }

    /// A card asked to be reloaded after `delay`; the earliest request wins.
    func requestRefresh(_ index: Int, after delay: Duration) {
        let due = ContinuousClock.now + delay
        shared.withLock { $0.due[index] = min($0.due[index] ?? due, due) }
        alarm.ring()
    }

    /// The cards due by `now`, removed from the schedule, and the next due time after them.
    func takeDue(now: ContinuousClock.Instant) -> (due: [Int], next: ContinuousClock.Instant?) {
        shared.withLock { shared in
            let due = shared.due.filter { $0.value <= now }.map(\.key).sorted()
            for index in due { shared.due[index] = nil }
            return (due, shared.due.values.min())
        }
    }

    func markFinished() { shared.withLock { $0.finished = true } }

    var isFinished: Bool { shared.withLock { $0.finished } }
}

/// A wake-up for a sleeping task: ``wait(until:)`` returns at the deadline, on ``ring()`` or on cancellation,
/// whichever comes first. It sleeps in the kernel meanwhile (no polling).
final class Alarm: Sendable {
    private let state = Locked((waiter: CheckedContinuation<Void, Never>?.none, rung: false))

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            if state.waiter == nil { state.rung = true }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait(until deadline: ContinuousClock.Instant) async {
        let delay = deadline - ContinuousClock.now
        guard delay > .zero else { return }
        let timer = SystemClock().schedule(after: delay) { [self] in ring() }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            ring()
        }
        state.withLock { $0.rung = false }
    }
}
