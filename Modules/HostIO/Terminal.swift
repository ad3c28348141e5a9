import Core
import Foundation
import TerminalUI

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What a run's output may do: whether stdout is a terminal that can redraw in place, its width, and colour.
public final class Terminal: Sendable {
    /// Whether stdout is a terminal at all (a pipe or a file gets no cursor codes and no final newline).
    public let isTTY: Bool
    /// In-place redraw is possible: a terminal that is not `TERM=dumb`.
    public let canRedraw: Bool
    /// Columns: the terminal's, else `COLUMNS`, else 60.
    public let width: Int
    /// Colours, decided once from `NO_COLOR`, `TERM`, `--no-color` and whether stdout is a terminal.
    public let styler: TextStyler
    /// Where everything is written.
    public let streams: StandardStreams
    /// A person can drive a screen here: stdin and stdout are both terminals and it may redraw (not
    /// `TERM=dumb`); never with captured streams.
    public let canReadKeys: Bool
    /// Whether the live screen owns the terminal (raw keys, the alternate screen).
    private let interactive = Locked(false)
    /// Whether the cursor is hidden.
    private let cursorHidden = Locked(false)
    /// What repaints the whole live screen after `fg` (the shell wrote below it while the process was stopped).
    private let resumeHandler = Locked<(@Sendable () -> Void)?>(nil)
    /// What else stops and continues with this process (its workers, which have sessions of their own and so hear
    /// no Ctrl-Z from the terminal).
    private let companions = Locked<[(stop: @Sendable () -> Void, resume: @Sendable () -> Void)]>([])
    /// The job runs in the background (`bg`, or SIGTTOU said so): nothing is drawn until `fg` brings it back.
    private let background = Locked(false)
    /// Whether a thread is already looking for the job to be the foreground job again.
    private let looking = Locked(false)
    /// The question about widths asked of this terminal, and its answers (``askWidths(readingKeys:changed:)``).
    private let widthQuestion = WidthQuestion()
    /// Looks at stdout and the environment once; every later decision reads these answers.
    public init(environment: [String: String], noColorFlag: Bool, streams: StandardStreams) {
        isTTY = streams.isTerminal
        canRedraw = isTTY && environment["TERM"] != "dumb"
        var size = winsize()
        if isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            width = Int(size.ws_col)
        } else {
            width = environment["COLUMNS"].flatMap(Int.init) ?? 60
        }
        styler = TextStyler(environment: environment, isTerminal: isTTY, noColorFlag: noColorFlag)
        self.streams = streams
        canReadKeys = canRedraw && isatty(STDIN_FILENO) == 1
    }

    /// Asks the terminal how wide it draws the clusters terminals disagree on, and turns grapheme clustering on
    /// where it can be (``TerminalUI/WidthProbe``): once per run, only where the answers can be read (stdin and
    /// stdout the same terminal, in the foreground, not `TERM=dumb`; never a pipe, `--plain` or JSON, whose
    /// callers do not ask). Nothing waits here: the first frame is drawn at once with Unicode's widths and
    /// `changed` is called (on another thread) if the answers change a width, to draw again. With `readingKeys`
    /// the live screen's ``KeyReader`` hands the answers over (``heard(_:)``); otherwise a thread reads them
    /// from stdin, without echo, until they are complete or a second has passed.
    public func askWidths(readingKeys: Bool, changed: @escaping @Sendable () -> Void) {
        guard canReadKeys, Self.sameTerminal(), ownsTerminal(), tcgetpgrp(STDIN_FILENO) == getpgrp() else { return }
        widthQuestion.ask(
            write: { [streams] in if !$0.isEmpty { streams.out($0) } }, ownReader: !readingKeys, changed: changed)
    }

    /// Whether stdin and stdout are the same terminal: the answers to what is written come back on stdin.
    private static func sameTerminal() -> Bool {
        var input = stat()
        var output = stat()
        guard fstat(STDIN_FILENO, &input) == 0, fstat(STDOUT_FILENO, &output) == 0 else { return false }
        return input.st_rdev == output.st_rdev
    }

    /// The terminal's reports read with the keys (the answers to ``askWidths(readingKeys:changed:)``).
    public func heard(_ reports: [[UInt8]]) { widthQuestion.heard(reports) }

    /// The widths this terminal draws with: its answers once complete, else Unicode's.
    public var widths: ClusterWidths { widthQuestion.widths }

    /// Runs `body` measuring every string as this terminal draws it (``widths``).
    public func measuring<Value>(_ body: () throws -> Value) rethrows -> Value {
        try ClusterWidths.$current.withValue(widths, operation: body)
    }

    /// Waits for the answers to be complete, at most until a second after they were asked (not at all when
    /// nothing was asked or the task is cancelled): what a one-shot run does before its last frame, so the frame
    /// it leaves is measured as the terminal draws and no answer comes after the run has given stdin back.
    public func widthsSettled() async { await widthQuestion.settle() }

    /// The terminal's width now (it may have been resized), else the width found at the start.
    public func currentWidth() -> Int {
        var size = winsize()
        guard isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return width }
        return Int(size.ws_col)
    }

    /// The terminal's height now in rows, or nil when it cannot be asked (not a terminal).
    public func currentHeight() -> Int? {
        var size = winsize()
        guard isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// The live screen takes the terminal: keys one at a time, the alternate screen, the cursor hidden. Undone
    /// by ``leaveInteractive()``, Ctrl-Z and every signal exit.
    public func enterInteractive() {
        interactive.withLock { $0 = true }
        cursorHidden.withLock { $0 = true }
        // Started in the background (`… &`): the terminal is the shell's; `fg` takes it (``resume()``).
        guard ownsTerminal() else { return heldInBackground() }
        RawMode.enable()
        streams.out(Self.enterSequence)
    }

    /// Whether this process's group is the terminal's foreground job (true when stdout is no terminal at all).
    public func ownsTerminal() -> Bool {
        guard isTTY else { return true }
        let owner = tcgetpgrp(STDOUT_FILENO)
        return owner < 0 || owner == getpgrp()
    }

    /// Whether drawing is held because the job is in the background.
    public var isInBackground: Bool { background.withLock { $0 } }

    /// SIGTTOU: the terminal says a background job tried to draw or change its settings. Drawing stops until
    /// ``resume()`` finds the job in the foreground again.
    public func movedToBackground() {
        guard !ownsTerminal() else { return }
        heldInBackground()
    }

    /// Stops drawing and, once, starts looking (ten times a second) for the job to be the foreground job again:
    /// `fg` does not always send SIGCONT to a job that is already running, so the terminal's owner is asked.
    private func heldInBackground() {
        background.withLock { $0 = true }
        let first = looking.withLock { looking in
            defer { looking = true }
            return !looking
        }
        guard first else { return }
        let thread = Thread { [self] in
            while !ownsTerminal() {
                usleep(100_000)
                guard background.withLock({ $0 }) else { return looking.withLock { $0 = false } }
            }
            looking.withLock { $0 = false }
            resume()
        }
        thread.name = "courier-foreground"
        thread.start()
    }

    /// Gives the terminal back: the main screen as it was, the cursor, line editing and echo.
    public func leaveInteractive() {
        guard
            interactive.withLock({ active in
                defer { active = false }; return active
            })
        else { return }
        cursorHidden.withLock { $0 = false }
        streams.out(Self.leaveSequence)
        RawMode.restore()
    }

    private static let enterSequence = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[?25l\u{1B}[H"
    private static let leaveSequence = "\u{1B}[?2004l\u{1B}[?1049l\u{1B}[?25h"

    /// Card width: the terminal's, capped so cards stay readable on wide screens.
    public var cardWidth: Int { CardRenderer.width(forColumns: width) }

    /// Writes to stdout; nothing while the job is in the background (it would paint over the shell).
    public func out(_ text: String) {
        guard !background.withLock({ $0 }) else { return }
        streams.out(text)
    }

    /// Writes one line to stderr, control characters shown.
    public func err(_ text: String) { streams.err(text) }

    /// Hides the cursor for live drawing; ``restore()`` shows it again.
    public func hideCursorIf(_ live: Bool) {
        guard live else { return }
        cursorHidden.withLock { $0 = true }
        streams.out("\u{1B}[?25l")
    }

    /// Shows the cursor if it was hidden, and turns grapheme clustering off if the width question turned it on.
    public func restore() {
        let clustering = widthQuestion.clusteringRestored()
        if !clustering.isEmpty { streams.out(clustering) }
        guard
            cursorHidden.withLock({ hidden in
                defer { hidden = false }; return hidden
            })
        else { return }
        streams.out("\u{1B}[?25h")
    }

    /// Registers what repaints the live screen whole when the process continues after Ctrl-Z.
    public func onResume(_ repaint: @escaping @Sendable () -> Void) { resumeHandler.withLock { $0 = repaint } }

    /// Stops `stop` with this process on Ctrl-Z and continues `resume` with it (`fg`, `bg`): the processes it
    /// started in sessions of their own, which the terminal's job control does not reach.
    public func alongside(stop: @escaping @Sendable () -> Void, resume: @escaping @Sendable () -> Void) {
        companions.withLock { $0.append((stop, resume)) }
    }

    /// Ctrl-Z: gives the terminal back as it was (cursor shown, on a fresh line), stops its companions, then stops
    /// the process.
    public func suspend() {
        let clustering = widthQuestion.clusteringRestored()
        if !clustering.isEmpty { streams.out(clustering) }
        if interactive.withLock({ $0 }) {
            streams.out(Self.leaveSequence)
            RawMode.restore()
        } else if cursorHidden.withLock({ $0 }) {
            streams.out("\u{1B}[?25h\n")
        }
        // Held from here: after `bg` the other threads run on before SIGCONT's handler can ask who owns the
        // terminal, and a frame drawn then would land on the shell's screen.
        background.withLock { $0 = true }
        for companion in companions.withLock({ $0 }) { companion.stop() }
        kill(getpid(), SIGSTOP)
    }

    /// After `fg`: hides the cursor again and repaints the whole screen below whatever the shell printed.
    public func resume() {
        // Its companions run again whenever it does, in the foreground or not.
        for companion in companions.withLock({ $0 }) { companion.resume() }
        // `bg` continues the job without the terminal: keep quiet until `fg` (which continues it again).
        guard ownsTerminal() else { return heldInBackground() }
        background.withLock { $0 = false }
        let clustering = widthQuestion.clusteringResumed()
        if !clustering.isEmpty { streams.out(clustering) }
        if interactive.withLock({ $0 }) {
            RawMode.enable()
            streams.out(Self.enterSequence)
        } else {
            guard cursorHidden.withLock({ $0 }) else { return }
            streams.out("\u{1B}[?25l")
        }
        resumeHandler.withLock { $0 }?()
    }

    /// The goodbye after an ending signal, once the run has unwound (its last frame printed by its own ending
    /// path): the terminal restored if the run left it taken (the alternate screen left, raw keys and bracketed
    /// paste off, the cursor shown), `farewell` on stderr, and every later write refused, so a paint still in
    /// flight cannot land after the process said goodbye. A terminal that is gone (a hang-up: each write fails
    /// with EIO) gets what can be written; nothing here waits for it.
    public func handBack(farewell: String) {
        let hidden = cursorHidden.withLock { hidden in
            defer { hidden = false }; return hidden
        }
        let wasInteractive = interactive.withLock { active in
            defer { active = false }; return active
        }
        let clustering = widthQuestion.clusteringRestored()
        // The answers' own reader may still hold stdin without echo: it is put back here, before the goodbye.
        widthQuestion.giveUp()
        let answersReading = widthQuestion.isReading
        streams.close { out, err in
            if !clustering.isEmpty { out(clustering) }
            if answersReading { RawMode.restore() }
            if wasInteractive {
                out(Self.leaveSequence)
                RawMode.restore()
            } else if hidden {
                out("\u{1B}[?25h")
            }
            err(farewell + "\n")
        }
    }
}
