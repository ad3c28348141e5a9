import Core
import Foundation
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output and error for a run: whether stdout is a terminal, its width, colour, and serialized writes
/// so a Ctrl-C restore can never land in the middle of a frame.
final class Terminal: Sendable {
    let isTTY: Bool
    let width: Int
    let styler: TextStyler
    /// Whether the cursor is hidden, and whether the terminal was handed back (after Ctrl-C nothing more is drawn).
    private let lock = Locked((hidden: false, closed: false))

    init(environment: [String: String], noColorFlag: Bool) {
        isTTY = isatty(STDOUT_FILENO) == 1
        var size = winsize()
        if isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else {
            width = environment["COLUMNS"].flatMap(Int.init) ?? 60
        }
        styler = TextStyler(environment: environment, isTerminal: isTTY, noColorFlag: noColorFlag)
    }

    /// Card width: the terminal's, capped so cards stay readable on wide screens.
    var cardWidth: Int { min(max(width, CardRenderer.minimumWidth), 64) }

    func out(_ text: String) { lock.withLock { if !$0.closed { Terminal.write(STDOUT_FILENO, text) } } }

    func err(_ text: String) { lock.withLock { if !$0.closed { Terminal.write(STDERR_FILENO, text + "\n") } } }

    /// Hides the cursor for live drawing; ``restore()`` shows it again.
    func hideCursorIf(_ live: Bool) {
        guard live else { return }
        lock.withLock { state in
            guard !state.closed else { return }
            state.hidden = true
            Terminal.write(STDOUT_FILENO, "\u{1B}[?25l")
        }
    }

    /// Shows the cursor if it was hidden; safe to call from a signal handler's queue.
    func restore() {
        lock.withLock { state in
            if state.hidden { Terminal.write(STDOUT_FILENO, "\u{1B}[?25h") }
            state.hidden = false
        }
    }

    /// Restores the terminal, writes `farewell` to stderr and refuses every later write, so a paint still in
    /// flight on another thread cannot land after the process said goodbye.
    func handBack(farewell: String) {
        lock.withLock { state in
            if state.hidden { Terminal.write(STDOUT_FILENO, "\u{1B}[?25h") }
            if isTTY { Terminal.write(STDOUT_FILENO, "\n") }
            Terminal.write(STDERR_FILENO, farewell + "\n")
            state = (false, true)
        }
    }

    private static func write(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written <= 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
        bytes.removeAll()
    }
}

/// Runs `body` until it finishes or Ctrl-C arrives; on Ctrl-C the terminal is restored and the status is 130.
func withInterruptHandling(_ terminal: Terminal, _ body: @escaping @Sendable () async -> ExitCode) async -> ExitCode {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    let interrupted = Locked(false)
    let work = Task { await body() }
    source.setEventHandler {
        // Mark first, so a run that is unwinding at the same moment reports 130, not its own status.
        interrupted.withLock { $0 = true }
        terminal.handBack(farewell: "interrupted")
        work.cancel()
        exit(ExitCode.interrupted.rawValue)
    }
    source.resume()
    let code = await work.value
    source.cancel()
    return interrupted.withLock { $0 } ? .interrupted : code
}
