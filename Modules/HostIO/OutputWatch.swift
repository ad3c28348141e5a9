import Core
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension StandardStreams {
    /// Runs `body` as a task that is cancelled as soon as stdout fails: a write that fails (a full disk, a closed
    /// pipe), or, when stdout is a pipe or socket, its reader going away while nothing is being written (a
    /// `--watch` of an order that does not change, piped to `head -1`). The caller reads ``failure`` for the status.
    public func endingWhenOutputFails<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let task = Task<Value, any Error>(executorPreference: TaskPlacement.executor) { try await body() }
        onOutputFailure { task.cancel() }
        let watcher = isPipe(STDOUT_FILENO) ? PipeWatcher(streams: self) : nil
        defer { watcher?.stop() }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func isPipe(_ descriptor: Int32) -> Bool {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }
}

/// A thread that waits in `poll` for stdout's pipe to report an error or hang-up (its reader closed it) and tells
/// the streams; it wakes four times a second only to see whether it should stop.
private final class PipeWatcher: Sendable {
    private let stopped = Locked(false)

    init(streams: StandardStreams) {
        let thread = Thread { [self] in
            var watched = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while !self.stopped.withLock({ $0 }) {
                watched.revents = 0
                let ready = poll(&watched, 1, 250)
                if ready > 0, watched.revents & Int16(POLLERR | POLLHUP) != 0 {
                    streams.readerWentAway()
                    return
                }
            }
        }
        thread.name = "courier-stdout-watch"
        thread.start()
    }

    func stop() { stopped.withLock { $0 = true } }
}
