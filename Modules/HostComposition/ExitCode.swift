/// The documented exit statuses of a command-line host (`order-tracking`); scripts rely on them.
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
    /// An action asked for with an input its intent does not carry (`--pay --promo SAVE10` while the code
    /// failed, is unknown, or was not applied to the total): nothing was sent, since paying without it is not
    /// what the person asked for.
    case incomplete = 6
    /// An earlier attempt of the action to the same place (the same cart) has no known outcome and held another
    /// request: nothing was sent. Check it, then settle it (`--new-attempt`) before paying something else.
    case pending = 7
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
