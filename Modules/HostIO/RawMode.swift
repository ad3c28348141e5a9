import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// The terminal settings from before raw mode, kept where a crash handler can reach them: a handler may not
/// take a lock or allocate, so this one process-wide value is written before raw mode starts and read only by
/// ``RawMode/restore()`` and the crash handler.
nonisolated(unsafe) private var savedSettings: termios?

/// Keys one at a time: stdin without line editing and without echo, so the live screen hears each key. Ctrl-C,
/// Ctrl-Z and Ctrl-\ still send their signals (ISIG stays on). Undone by ``restore()``, by every signal exit
/// (``Terminal/handBack(farewell:)``), and, as far as a process can, by a crash: the fatal signals restore the
/// settings and leave the alternate screen before the process dies.
public enum RawMode {
    /// Enters raw mode on stdin; false when stdin is not a terminal (then nothing changes).
    @discardableResult
    public static func enable() -> Bool {
        var settings = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &settings) == 0 else { return false }
        if savedSettings == nil { savedSettings = settings }
        installCrashHandlers()
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0
    }

    /// Puts stdin back as it was before ``enable()``; nothing when raw mode was never entered.
    public static func restore() {
        guard var settings = savedSettings else { return }
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
    }

    private static let fatalSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    private static func installCrashHandlers() {
        for number in fatalSignals {
            signal(number) { number in
                if var settings = savedSettings { _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
                let reset: StaticString = "\u{1B}[?2004l\u{1B}[?1049l\u{1B}[?25h\n"
                _ = reset.withUTF8Buffer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
