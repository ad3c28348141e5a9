import Core
import Foundation

/// Runs `work`, which blocks and cannot notice cancellation (`squad` waits on git, files and stdin), on a thread of
/// its own, and returns its status; or `cancelled` as soon as the calling task is cancelled (a signal, a reader
/// gone), so the command unwinds and ends at once instead of at the signal handler's last resort, five seconds
/// later. The abandoned thread ends with the process.
public func blockingWork(ifCancelled cancelled: Int32, _ work: @escaping @Sendable () -> Int32) async -> Int32 {
    let state = Locked(BlockingWorkState.running)
    let finish: @Sendable (Int32) -> Void = { status in
        let waiting = state.withLock { state -> CheckedContinuation<Int32, Never>? in
            switch state {
            case .running:
                state = .ended(status)
                return nil
            case .waiting(let continuation):
                state = .answered
                return continuation
            case .ended, .answered: return nil
            }
        }
        waiting?.resume(returning: status)
    }
    Thread { finish(work()) }.start()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Int32? in
                guard case .ended(let status) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .answered
                return status
            }
            if let ended { continuation.resume(returning: ended) }
        }
    } onCancel: {
        finish(cancelled)
    }
}

/// Where a ``blockingWork(ifCancelled:_:)`` stands: the first status (the work's, or the cancellation's) is the
/// one answer, given once.
private enum BlockingWorkState: Sendable {
    case running
    case waiting(CheckedContinuation<Int32, Never>)
    case ended(Int32)
    case answered
}
