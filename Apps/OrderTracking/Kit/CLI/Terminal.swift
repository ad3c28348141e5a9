import Core
import Foundation
import TerminalUI

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What a run's output may do: whether stdout is a terminal that can redraw in place, its width, and colour.
final class Terminal: Sendable {
    let isTTY: Bool
    /// In-place redraw is possible: a terminal that is not `TERM=dumb`.
    let canRedraw: Bool
    let width: Int
    let styler: TextStyler
    let streams: StandardStreams
    /// Whether the cursor is hidden.
    private let cursorHidden = Locked(false)
    /// What repaints the whole live screen after `fg` (the shell wrote below it while the process was stopped).
    private let resumeHandler = Locked<(@Sendable () -> Void)?>(nil)

    init(environment: [String: String], noColorFlag: Bool, streams: StandardStreams) {
        isTTY = isatty(STDOUT_FILENO) == 1
        canRedraw = isTTY && environment["TERM"] != "dumb"
        var size = winsize()
        if isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else {
            width = environment["COLUMNS"].flatMap(Int.init) ?? 60
        }
        styler = TextStyler(environment: environment, isTerminal: isTTY, noColorFlag: noColorFlag)
        self.streams = streams
    }

    /// Card width: the terminal's, capped so cards stay readable on wide screens.
    var cardWidth: Int { min(max(width, CardRenderer.minimumWidth), 64) }

    func out(_ text: String) { streams.out(text) }

    func err(_ text: String) { streams.err(text) }

    /// Hides the cursor for live drawing; ``restore()`` shows it again.
    func hideCursorIf(_ live: Bool) {
        guard live else { return }
        cursorHidden.withLock { $0 = true }
        streams.out("\u{1B}[?25l")
    }

    /// Shows the cursor if it was hidden.
    func restore() {
        guard
            cursorHidden.withLock({ hidden in
                defer { hidden = false }; return hidden
            })
        else { return }
        streams.out("\u{1B}[?25h")
    }

    /// Registers what repaints the live screen whole when the process continues after Ctrl-Z.
    func onResume(_ repaint: @escaping @Sendable () -> Void) { resumeHandler.withLock { $0 = repaint } }

    /// Ctrl-Z: gives the terminal back as it was (cursor shown, on a fresh line), then stops the process.
    func suspend() {
        let hidden = cursorHidden.withLock { $0 }
        if hidden { streams.out("\u{1B}[?25h\n") }
        kill(getpid(), SIGSTOP)
    }

    /// After `fg`: hides the cursor again and repaints the whole screen below whatever the shell printed.
    func resume() {
        guard cursorHidden.withLock({ $0 }) else { return }
        streams.out("\u{1B}[?25l")
        resumeHandler.withLock { $0 }?()
    }

    /// Restores the terminal (cursor shown, a final newline after a live frame), writes `farewell` to stderr and
    /// refuses every later write, so a paint still in flight cannot land after the process said goodbye.
    func handBack(farewell: String) {
        let hidden = cursorHidden.withLock { hidden in
            defer { hidden = false }; return hidden
        }
        streams.close { out, err in
            if hidden { out("\u{1B}[?25h") }
            if isTTY { out("\n") }
            err(farewell + "\n")
        }
    }
}

/// Runs `body` until it finishes or a signal ends it: SIGINT (Ctrl-C) exits 130, SIGTERM 143, SIGHUP 129, each
/// after restoring the terminal and cancelling every load.
func withInterruptHandling(_ terminal: Terminal, _ body: @escaping @Sendable () async -> ExitCode) async -> ExitCode {
    let signals: [(Int32, String, ExitCode)] = [
        (SIGINT, "interrupted", .interrupted), (SIGTERM, "terminated", .terminated), (SIGHUP, "hung up", .hungUp),
    ]
    let caught = Locked(ExitCode?.none)
    // The handlers are in place before the work starts: a signal in its first milliseconds (the first line of a
    // fast screen is already out) must not find the default action and leave the terminal as it was.
    let work = Locked(Task<ExitCode, Never>?.none)
    let sources = signals.map { number, word, code in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            // Mark first, so a run that is unwinding at the same moment reports the signal, not its own status.
            caught.withLock { $0 = $0 ?? code }
            terminal.handBack(farewell: word)
            work.withLock { $0 }?.cancel()
            exit(code.rawValue)
        }
        source.resume()
        return source
    }
    // Ctrl-Z and `fg`: the terminal is restored while stopped and the screen repainted whole on return.
    let jobControl = [(SIGTSTP, terminal.suspend), (SIGCONT, terminal.resume)].map { number, action in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { action() }
        source.resume()
        return source
    }
    let task = Task { await body() }
    work.withLock { $0 = task }
    let code = await task.value
    for source in sources + jobControl { source.cancel() }
    return caught.withLock { $0 } ?? code
}
