import Core
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

extension StandardStreams {
    /// Runs `body` in a child task that is cancelled as soon as stdout fails: a write that fails (a full disk, a
    /// closed pipe), or, when stdout is a pipe or socket, its reader going away while nothing is being written (a
    /// `--watch` of an order that does not change, piped to `head -1`). The body stays in the caller's task tree,
    /// so cancelling the caller cancels it too; either way it unwinds and its answer is returned. The caller reads
    /// ``failure`` for the status.
    public func endingWhenOutputFails<Value: Sendable>(
        _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let failed = CancelTrigger()
        onOutputFailure { failed.fire() }
        let watcher = isPipe(STDOUT_FILENO) ? PipeWatcher(streams: self) : nil
        defer { watcher?.stop() }
        let outcome = await cancelling(when: failed) { () async -> Result<Value, any Error> in
            do { return .success(try await body()) } catch { return .failure(error) }
        }
        return try outcome.get()
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
