import Core
import Foundation

/// Runs every job of a test's tasks on one queue, one at a time, and knows exactly when none is left: the only
/// moment a ``VirtualClock`` may move. No yields, sleeps or "quiet for a while" guesses: a starved machine only
/// makes the jobs slower, never lets time jump ahead of them.
final class SerialTestExecutor: TaskExecutor, Sendable {
    private struct State {
        var pending = 0
        var enqueued = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var busyWaiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "courier.test-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let busy = state.withLock { state in
            state.pending += 1
            state.enqueued += 1
            defer { state.busyWaiters = [] }
            return state.busyWaiters
        }
        for waiter in busy { waiter.resume() }
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
            let idle = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pending -= 1
                guard state.pending == 0 else { return [] }
                defer { state.idleWaiters = [] }
                return state.idleWaiters
            }
            for waiter in idle { waiter.resume() }
        }
    }

    /// Returns once no job is queued or running: every task placed here is suspended.
    func idle() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.pending > 0 { state.idleWaiters.append(continuation) }
                return state.pending == 0
            }
            if now { continuation.resume() }
        }
    }

    /// Returns once a job is queued: something outside (a real socket, a real timer) woke a task placed here.
    /// Gives up after `limit` of real time; says whether anything came.
    func busy(within limit: Duration) async -> Bool {
        let before = state.withLock { $0.enqueued }
        let timeout = Task {
            try? await Task.sleep(for: limit)
            let waiters = self.state.withLock { state in
                defer { state.busyWaiters = [] }
                return state.busyWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
        defer { timeout.cancel() }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.enqueued == before { state.busyWaiters.append(continuation) }
                return state.enqueued != before
            }
            if now { continuation.resume() }
        }
        return state.withLock { $0.enqueued } != before
    }
}
