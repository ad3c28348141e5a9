import Core
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// Reads keys from stdin on a thread of its own (a blocking read must not hold a task's thread) and hands them
/// out as a stream, one batch per read: a paste of 10,000 keys arrives as a few batches, which the live screen
/// can take as bursts (reloads merged, `q` seen at once). It looks every 50 ms whether it was stopped, and turns
/// an Esc followed by nothing for that long into the Esc key. End of input ends the stream.
public final class KeyReader: Sendable {
    /// The keys, in the order pressed, a batch per read of the terminal.
    public let keys: AsyncStream<[Key]>
    private let continuation: AsyncStream<[Key]>.Continuation
    private let stopped = StopFlag()

    private final class StopFlag: Sendable {
        let raised = Locked(false)
    }

    /// Reads stdin for as long as `body` runs, and stops reading when it returns: the reader cannot outlive the
    /// screen that reads it.
    /// The terminal's reports among the bytes (answers to a question it was asked, never keys) go to `reports`.
    public static func reading<Value>(
        reports: @escaping @Sendable ([[UInt8]]) -> Void = { _ in }, _ body: (AsyncStream<[Key]>) async -> Value
    ) async -> Value {
        let reader = KeyReader(reports: reports)
        defer { reader.stop() }
        return await body(reader.keys)
    }

    /// Starts reading stdin now.
    private init(reports: @escaping @Sendable ([[UInt8]]) -> Void) {
        (keys, continuation) = AsyncStream<[Key]>.makeStream()
        let (continuation, stopped) = (continuation, stopped)
        let thread = Thread {
            var decoder = KeyDecoder()
            var buffer = [UInt8](repeating: 0, count: 16_384)
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            while !stopped.raised.withLock({ $0 }) {
                // In the background (`bg`) the keys are the shell's: reading would stop the job (SIGTTIN).
                if isatty(STDIN_FILENO) == 1, tcgetpgrp(STDIN_FILENO) != getpgrp() {
                    usleep(50_000)
                    continue
                }
                let ready = poll(&poller, 1, 50)
                if ready == 0 {
                    let flushed = decoder.flush()
                    if !flushed.isEmpty { continuation.yield(flushed) }
                    continue
                }
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                // EIO: the job was moved to the background between the look and the read.
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EIO || errno == EAGAIN) {
                    usleep(50_000)
                    continue
                }
                guard count > 0 else { break }
                let batch = decoder.feed(Array(buffer[0..<count]))
                let answers = decoder.takeReports()
                if !answers.isEmpty { reports(answers) }
                if !batch.isEmpty { continuation.yield(batch) }
            }
            continuation.finish()
        }
        thread.name = "courier-keys"
        thread.start()
    }

    /// Stops reading (within 50 ms) and ends the stream.
    private func stop() {
        stopped.raised.withLock { $0 = true }
    }
}
