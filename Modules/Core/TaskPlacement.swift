/// Where the tasks Courier starts on its own run. Production leaves it nil (the global pool); a test places its
/// work on one serial executor (CoreTesting's `VirtualClock`), and every task started with `Task.placed(_:)`
/// follows, so the test knows exactly when nothing is left to run and virtual time may move.
public enum TaskPlacement {
    /// The executor new tasks prefer; inherited by every task started inside the scope that sets it.
    @TaskLocal public static var executor: (any TaskExecutor)?
}

extension Task where Failure == Never {
    /// An unstructured task on the executor its creator was placed on (the global pool in production): use it
    /// instead of `Task {}`, which would leave a test's executor and hide the task from its clock.
    @discardableResult
    public static func placed(_ operation: sending @escaping () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: TaskPlacement.executor, operation: operation)
    }
}
