import Foundation

/// Runs blocking work (an in-process CLI that waits on its child processes) on a thread of its own, so the
/// awaiting test holds none of the test pool's threads, which are as few as the machine's cores.
public enum OwnThread {
    /// Runs `work` on a new thread and resumes with its value.
    public static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}
