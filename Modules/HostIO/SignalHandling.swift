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

/// Runs `body` until it finishes or one of `exits` ends it. A signal cancels `body` (its task and every task under
/// it), which unwinds as any cancelled run does: a screen stops, the live console gives the terminal back and the
/// run prints its last frame by its own ending path. Then the terminal is restored if the body left it taken, the
/// signal's one word goes to stderr, every later write is refused, and the signal's status is returned for `main`
/// to exit with. Returns `body`'s status (or rethrows its error) when no signal came.
/// Last resorts, for a terminal that stopped reading (every write waits) or work that does not unwind: a second
/// signal ends the process 0.75 s later and the first one five seconds later, with the first one's status and the
/// terminal's settings put back. Ctrl-Z and `fg` give the terminal back while stopped and repaint on return.
/// `enabled: false` runs `body` alone (in-process tests: the handlers are the test runner's).
public func withSignalHandling(
    _ terminal: Terminal, exits: [SignalExit] = SignalExit.standard, enabled: Bool = true,
    _ body: @escaping @Sendable () async throws -> Int32
) async throws -> Int32 {
    guard enabled else { return try await body() }
    // The handlers are in place before the work starts: a signal in its first milliseconds (the first line of a
    // fast screen is already out) must not find the default action and leave the terminal as it was.
    let work = CancelTrigger()
    let caught = Locked(SignalExit?.none)
    let registered = DispatchGroup()
    let sources = exits.map { exit in
        let source = DispatchSource.makeSignalSource(signal: exit.signal, queue: .global())
        source.setEventHandler {
            let first = caught.withLock { caught -> SignalExit? in
                defer { caught = caught ?? exit }
                return caught
            }
            if let first {
                // Ctrl-C pressed twice at once: the unwinding under way is let finish unless it is stuck.
                DispatchQueue.global().asyncAfter(deadline: .now() + secondSignalLimit) { endNow(first.status) }
                return
            }
            // The run unwinds in its own tasks; this handler only cancels it, so it returns at once and a second
            // signal (the same one too) is heard.
            work.fire()
            DispatchQueue.global().asyncAfter(deadline: .now() + handBackLimit) { leaveNow(terminal, exit) }
        }
        listen(source, signal: exit.signal, registered: registered)
        return source
    }
    let jobControl = [
        (SIGTSTP, terminal.suspend), (SIGCONT, terminal.resume), (SIGTTOU, terminal.movedToBackground),
    ].map { number, action in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { action() }
        listen(source, signal: number, registered: registered)
        return source
    }
    // Every source hears its signal before the work starts. Until then a signal finds its default action, which
    // ends the process with the same status (nothing is taken yet), never an ignored signal that is lost.
    await withCheckedContinuation { registered.notify(queue: .global(), execute: $0.resume) }
    // The body is a child of this task, cancelled by the trigger when a signal comes.
    let outcome = await cancelling(when: work) { () async -> Result<Int32, any Error> in
        do { return .success(try await body()) } catch { return .failure(error) }
    }
    // Marked before the body ended, so a run that was unwinding at the same moment reports the signal.
    if let exit = caught.withLock({ $0 }) {
        terminal.handBack(farewell: exit.word)
        for source in sources + jobControl { source.cancel() }
        return exit.status
    }
    for source in sources + jobControl { source.cancel() }
    return try outcome.get()
}

/// Resumes `source` and, once Dispatch has registered it (`registered` waits for that), leaves `number` to it alone.
/// A signal is ignored only after its source hears it, and only where the source needs that: Darwin's kqueue
/// records a signal even when it is ignored, and its default action must not run. Linux's Dispatch installs its own
/// handler when it registers the source and reads the signal from a `signalfd`; ignoring the signal before that
/// lost it (an ignored signal is dropped when it is sent: a SIGTERM in the host's first milliseconds, about one
/// run in seventy, left a `--watch` running for ever), and ignoring it after would undo that handler.
/// A source Dispatch could not register (no descriptor left for its `signalfd`) is cancelled instead: that too lets
/// the work start, once, rather than hold it for ever.
private func listen(_ source: any DispatchSourceSignal, signal number: Int32, registered: DispatchGroup) {
    registered.enter()
    let settled = Locked(false)
    let leave: @Sendable () -> Void = {
        let first = settled.withLock { settled in
            defer { settled = true }
            return !settled
        }
        if first { registered.leave() }
    }
    source.setRegistrationHandler {
        #if canImport(Darwin)
            signal(number, SIG_IGN)
        #endif
        leave()
    }
    source.setCancelHandler(handler: leave)
    source.resume()
}

/// How long a run is given to unwind after an ending signal (stop, give the terminal back, print its last frame):
/// a terminal that stopped reading (Ctrl-S, a stalled connection) holds writes for ever, work may not notice
/// its cancellation, and a signal must still end the process.
let handBackLimit = DispatchTimeInterval.seconds(5)

/// How long the unwinding is still given once a second ending signal came: a moment for a person who wants out,
/// and ample for one that is only writing (a frame takes microseconds), so a burst of Ctrl-C still gets the
/// terminal and the last frame back.
let secondSignalLimit = DispatchTimeInterval.milliseconds(750)

/// The last resort after ``handBackLimit``: the terminal restored and the goodbye written if the writes go through
/// (a run that did not unwind), and the process ended with the signal's status either way, ``secondSignalLimit``
/// later at the latest (a terminal that holds the writes).
private func leaveNow(_ terminal: Terminal, _ exit: SignalExit) {
    DispatchQueue.global().asyncAfter(deadline: .now() + secondSignalLimit) { endNow(exit.status) }
    terminal.handBack(farewell: exit.word)
    endNow(exit.status)
}

/// Ends the process at once with `status`, the terminal's settings put back (line editing, echo) without a write,
/// which could wait behind the one that is stuck.
private func endNow(_ status: Int32) -> Never {
    RawMode.restore()
    _exit(status)
}
