import Dispatch

/// Where the tasks Courier starts on its own run. Production leaves it nil (the global pool); a test places its
/// work on one serial executor (CoreTesting's `VirtualClock`), and every task started with `Task.placed(_:)`
/// follows, so the test knows exactly when nothing is left to run and virtual time may move.
public enum TaskPlacement {
    /// The executor new tasks prefer; inherited by every task started inside the scope that sets it.
    @TaskLocal public static var executor: (any TaskExecutor)?

    /// Runs work that never suspends (parsing megabytes) on a dispatch thread in production, not on a thread of
    /// the cooperative pool: with one core the pool has one thread, and a parse holding it kept the timer that
    /// guards it from firing until the parse was done. Under a test's executor it runs in place, where the
    /// test's clock sees it.
    public static func blocking<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        guard executor == nil else { return work() }
        return await withCheckedContinuation { continuation in
            // A serial queue of its own gets a thread even when the global queue's one-per-core threads are all
            // taken (with one core, the deadline timer's handler would otherwise wait for this work).
            DispatchQueue(label: "courier.blocking").async { continuation.resume(returning: work()) }
        }
    }
}

extension Task where Failure == Never {
    /// An unstructured task on the executor its creator was placed on (the global pool in production): use it
    /// instead of `Task {}`, which would leave a test's executor and hide the task from its clock.
    @discardableResult
    public static func placed(_ operation: sending @escaping () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: TaskPlacement.executor, operation: operation)
    }
}
