/// The documented exit statuses of `order-tracking`; scripts rely on them.
public enum ExitCode: Int32, Sendable {
    /// Every card shown (or the command succeeded).
    case ok = 0
    /// Fatal: unknown order, backend unreachable for the layout, a login that failed, or output that could not
    /// be written.
    case fatal = 1
    /// Degraded: one or more cards hidden by a failure.
    case degraded = 2
    /// `cancel`: at least one component vetoed.
    case vetoed = 3
    /// `cancel`: no card on the order's screen answers for cancelling, so nobody can say yes.
    case cannotTell = 4
    /// An action was sent and nothing says how it ended (no answer, a redirect, a 5xx): it may have gone through,
    /// so a script must check before trying again rather than treat it as a failure (1) and pay twice.
    case outcomeUnknown = 5
    /// Usage error: bad flag, value or command.
    case usage = 64
    /// Ended by SIGHUP (the terminal went away).
    case hungUp = 129
    /// Interrupted by Ctrl-C (SIGINT).
    case interrupted = 130
    /// Ended by SIGQUIT (Ctrl-\\).
    case quit = 131
    /// Ended by SIGTERM.
    case terminated = 143
}
