import Core
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// A signal that ends a command, the word said on stderr and the status the process exits with: shells and
/// scripts tell an interrupted run from a failed one by these numbers (128 + the signal).
public struct SignalExit: Sendable, Equatable {
    /// The signal's number (SIGINT, …).
    public let signal: Int32
    /// What stderr says as the process goes ("interrupted").
    public let word: String
    /// The exit status.
    public let status: Int32

    /// Ctrl-C (130), SIGTERM (143) and a hang-up (129): what every long-running command answers.
    public static let standard = [
        SignalExit(signal: SIGINT, word: "interrupted", status: 130),
        SignalExit(signal: SIGTERM, word: "terminated", status: 143),
        SignalExit(signal: SIGHUP, word: "hung up", status: 129),
    ]
}

/// Runs `body` until it finishes or one of `exits` ends it: the terminal is restored, the work cancelled and the
/// process exits with that signal's status. Returns `body`'s status, or the signal's when one arrived while the
/// work was unwinding. Ctrl-Z and `fg` give the terminal back while stopped and repaint on return.
public func withSignalHandling(
    _ terminal: Terminal, exits: [SignalExit] = SignalExit.standard, _ body: @escaping @Sendable () async -> Int32
) async -> Int32 {
    let caught = Locked(Int32?.none)
    // The handlers are in place before the work starts: a signal in its first milliseconds (the first line of a
    // fast screen is already out) must not find the default action and leave the terminal as it was.
    let work = Locked(Task<Int32, Never>?.none)
    let sources = exits.map { exit in
        signal(exit.signal, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: exit.signal, queue: .global())
        source.setEventHandler {
            // Mark first, so a run that is unwinding at the same moment reports the signal, not its own status.
            caught.withLock { $0 = $0 ?? exit.status }
            terminal.handBack(farewell: exit.word)
            work.withLock { $0 }?.cancel()
            Foundation.exit(exit.status)
        }
        source.resume()
        return source
    }
    let jobControl = [(SIGTSTP, terminal.suspend), (SIGCONT, terminal.resume)].map { number, action in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { action() }
        source.resume()
        return source
    }
    let task = Task { await body() }
    work.withLock { $0 = task }
    let status = await task.value
    for source in sources + jobControl { source.cancel() }
    return caught.withLock { $0 } ?? status
}
