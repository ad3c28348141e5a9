import Core
import Foundation
import SafeText

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The process's stdout and stderr as one object, created once by `main` and handed to every command: writes
/// are serialized (a signal's farewell never lands inside a frame) and a failed write is remembered, so the
/// run can end with a message and exit 1 instead of pretending the frame was shown.
public final class StandardStreams: Sendable {
    /// Why stdout could not be written, if it could not.
    public enum WriteFailure: Equatable, Sendable {
        /// The reader went away (`| head -1`): quiet, as other Unix tools are.
        case closedPipe
        /// Stdout is a terminal that hung up (the window closed, the connection dropped: writes fail with EIO):
        /// the run ends as a SIGHUP ends it, 129, and quietly, since nobody is there to read why.
        case hungUp
        /// Anything else (a full disk, an I/O error), with the system's words.
        case failed(String)
    }

    private let state = Locked((closed: false, failure: WriteFailure?.none, outcome: String?.none))
    /// Called once, outside the lock, when stdout first fails: the run that writes there ends (a watched screen
    /// would otherwise go on drawing for nobody).
    private let failureActions = Locked((fired: false, actions: [@Sendable () -> Void]()))

    private let write: @Sendable (Int32, String) -> WriteFailure?
    /// Whether stdout is a terminal (captured streams never are).
    public let isTerminal: Bool

    /// Created once per process by `main`; SIGPIPE is ignored so a closed pipe is an error code, not death.
    public init() {
        signal(SIGPIPE, SIG_IGN)
        let terminal = isatty(STDOUT_FILENO) == 1
        write = { descriptor, text in StandardStreams.write(descriptor, text, terminal: terminal) }
        isTerminal = terminal
    }

    /// Streams that hand every write to `capture` (descriptor 1 or 2, the text) instead of the process's own:
    /// what an in-process test of a screen's output reads.
    public init(capturing capture: @escaping @Sendable (_ descriptor: Int32, _ text: String) -> Void) {
        isTerminal = false
        write = { descriptor, text in
            capture(descriptor, text)
            return nil
        }
    }

    /// Writes to stdout unless the streams were handed back; remembers the first failure.
    public func out(_ text: String) {
        let failed = state.withLock { state -> Bool in
            guard !state.closed, state.failure == nil else { return false }
            state.failure = write(STDOUT_FILENO, text)
            return state.failure != nil
        }
        if failed { fireFailureActions() }
    }

    /// Records that stdout's reader has gone away without a write saying so (a watcher saw the pipe's error).
    public func readerWentAway() {
        let first = state.withLock { state -> Bool in
            guard state.failure == nil else { return false }
            state.failure = .closedPipe
            return true
        }
        if first { fireFailureActions() }
    }

    /// Runs `action` once stdout has failed (at once if it already has).
    public func onOutputFailure(_ action: @escaping @Sendable () -> Void) {
        let now = failureActions.withLock { registry -> Bool in
            if !registry.fired { registry.actions.append(action) }
            return registry.fired
        }
        if now { action() }
    }

    private func fireFailureActions() {
        let actions = failureActions.withLock { registry -> [@Sendable () -> Void] in
            guard !registry.fired else { return [] }
            registry.fired = true
            defer { registry.actions = [] }
            return registry.actions
        }
        for action in actions { action() }
    }

    /// Writes a line to stderr unless the streams were handed back. Diagnostics quote backend strings (ids,
    /// time zone names, reasons), so control characters are shown visibly: one diagnostic stays one line.
    public func err(_ line: String) {
        let line = SafeText.visible(line)
        state.withLock { state in
            guard !state.closed else { return }
            _ = write(STDERR_FILENO, line + "\n")
        }
    }

    /// Runs `body` with exclusive use of the streams, then refuses every later write (a signal's goodbye,
    /// ``Terminal/handBack(farewell:)``).
    public func close(_ body: (_ out: (String) -> Void, _ err: (String) -> Void) -> Void) {
        state.withLock { state in
            guard !state.closed else { return }
            body({ _ = write(STDOUT_FILENO, $0) }, { _ = write(STDERR_FILENO, $0) })
            state.closed = true
        }
    }

    /// Gives each closed standard descriptor (0, 1, 2) to /dev/null before anything else opens a file, and
    /// returns which were closed. Call it first thing in `main`: otherwise the runtime's own files (an epoll or
    /// event descriptor) take number 1 and the screen would be written into them.
    public static func reserveDescriptors() -> Set<Int32> {
        var closed: Set<Int32> = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            closed.insert(descriptor)
            _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
        }
        return closed
    }

    /// The status `tool` should exit with: `status`, unless stdout could not be written; then 1, quietly for a
    /// reader that went away (`| head -1`), with the system's words on stderr otherwise (a full disk); 129, as a
    /// SIGHUP, for a terminal that hung up. Streams handed back (a signal said its goodbye) keep `status`, the
    /// signal's: the run ended because of it, whatever its writes met on the way.
    /// A run whose ``keep(outcome:)`` was said keeps `status` whatever its writes met, and says the outcome on
    /// stderr when its report could not be written: a payment made is never reported as a failure to retry.
    public func exitStatus(_ status: Int32, tool: String) -> Int32 {
        let (closed, outcome) = state.withLock { ($0.closed, $0.outcome) }
        if closed { return status }
        switch failure {
        case nil: return status
        case .closedPipe, .hungUp:
            guard let outcome else { return failure == .hungUp ? 129 : 1 }
            err("\(tool): \(outcome) (the report could not be written: its reader went away)")
            return status
        case .failed(let reason):
            err("\(tool): cannot write to standard output: \(reason); free some space or write elsewhere")
            guard let outcome else { return 1 }
            err("\(tool): \(outcome)")
            return status
        }
    }

    /// What became of something a person cannot take back (a payment made, or one that may have gone through),
    /// as one line: should the report fail to be written, the exit status stays the run's and this line is said
    /// on stderr instead (``exitStatus(_:tool:)``).
    public func keep(outcome line: String) { state.withLock { $0.outcome = line } }

    /// The first failed write to stdout, if any.
    public var failure: WriteFailure? { state.withLock { $0.failure } }

    /// Writes all of `text` from the string's own bytes (`squad owners -` prints megabytes; a copy first would
    /// double them).
    static func write(_ descriptor: Int32, _ text: String, terminal: Bool) -> WriteFailure? {
        var text = text
        return text.withUTF8 { bytes -> WriteFailure? in
            guard let base = bytes.baseAddress else { return nil }
            var offset = 0
            while offset < bytes.count {
                #if canImport(Darwin)
                    let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
                #else
                    let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                #endif
                if written < 0 && errno == EINTR { continue }
                if written <= 0 {
                    if errno == EPIPE { return .closedPipe }
                    if errno == EIO && terminal { return .hungUp }
                    return .failed(String(cString: strerror(errno)))
                }
                offset += written
            }
            return nil
        }
    }
}
