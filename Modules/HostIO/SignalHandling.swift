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

    /// Ctrl-C (130), SIGTERM (143), a hang-up (129) and Ctrl-\\ (SIGQUIT, 131): what every long-running command
    /// answers. SIGQUIT is handled here too, so the Swift runtime's crash reporter never draws over a screen this
    /// program owns (and never holds the terminal waiting for a key).
    public static let standard = [
        SignalExit(signal: SIGINT, word: "interrupted", status: 130),
        SignalExit(signal: SIGTERM, word: "terminated", status: 143),
        SignalExit(signal: SIGHUP, word: "hung up", status: 129),
        SignalExit(signal: SIGQUIT, word: "quit", status: 131),
    ]
}

/// Runs `body` until it finishes or one of `exits` ends it: the terminal is restored (the live screen's last frame
/// printed on the main screen), the work cancelled and the process exits with that signal's status. Returns
/// `body`'s status (or rethrows its error), or the signal's status when one arrived while the work was unwinding.
/// A second signal while the first is still handing the terminal back ends the process within a moment, with the
/// first one's status, and so does the first one after five seconds (a terminal that stopped reading holds every
/// write). Ctrl-Z and `fg` give the terminal back while stopped and repaint on return. `enabled: false` runs
/// `body` alone (in-process tests: the handlers are the test runner's).
public func withSignalHandling(
    _ terminal: Terminal, exits: [SignalExit] = SignalExit.standard, enabled: Bool = true,
    _ body: @escaping @Sendable () async throws -> Int32
) async throws -> Int32 {
    guard enabled else { return try await body() }
    let caught = Locked(Int32?.none)
    // The handlers are in place before the work starts: a signal in its first milliseconds (the first line of a
    // fast screen is already out) must not find the default action and leave the terminal as it was.
    let work = CancelTrigger()
    let leaving = Locked(Int32?.none)
    let sources = exits.map { exit in
        signal(exit.signal, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: exit.signal, queue: .global())
        source.setEventHandler {
            let first = leaving.withLock { leaving -> Int32? in
                defer { leaving = leaving ?? exit.status }
                return leaving
            }
            if let status = first {
                // Ctrl-C pressed twice at once: the hand-back under way is let finish unless it is stuck.
                DispatchQueue.global().asyncAfter(deadline: .now() + secondSignalLimit) { endNow(status) }
                return
            }
            // Mark first, so a run that is unwinding at the same moment reports the signal, not its own status.
            caught.withLock { $0 = $0 ?? exit.status }
            // The hand-back writes to a terminal that may hold the writes: on a thread of its own, so this handler
            // returns and a second signal (the same one too) is heard.
            let leave = Thread {
                terminal.handBack(farewell: exit.word)
                work.fire()
                Foundation.exit(exit.status)
            }
            leave.name = "courier-leaving"
            leave.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + handBackLimit) { endNow(exit.status) }
        }
        source.resume()
        return source
    }
    let jobControl = [
        (SIGTSTP, terminal.suspend), (SIGCONT, terminal.resume), (SIGTTOU, terminal.movedToBackground),
    ].map { number, action in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { action() }
        source.resume()
        return source
    }
    // The body is a child of this task, cancelled by the trigger when a signal comes.
    let outcome = await cancelling(when: work) { () async -> Result<Int32, any Error> in
        do { return .success(try await body()) } catch { return .failure(error) }
    }
    for source in sources + jobControl { source.cancel() }
    if let status = caught.withLock({ $0 }) { return status }
    return try outcome.get()
}

/// How long the terminal is given to take the last frame and the goodbye after an ending signal: a terminal that
/// stopped reading (Ctrl-S, a stalled connection) holds writes for ever, and a signal must still end the process.
let handBackLimit = DispatchTimeInterval.seconds(5)

/// How long a hand-back is still given once a second ending signal came: a moment for a person who wants out,
/// and ample for one that is only writing (a frame takes microseconds), so a burst of Ctrl-C still gets the
/// terminal and the last frame back.
let secondSignalLimit = DispatchTimeInterval.milliseconds(750)

/// Ends the process at once with `status`, the terminal's settings put back (line editing, echo) without a write,
/// which could wait behind the one that is stuck.
private func endNow(_ status: Int32) -> Never {
    RawMode.restore()
    _exit(status)
}
