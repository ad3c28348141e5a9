/// The documented exit statuses of `order-tracking`; scripts rely on them.
public enum ExitCode: Int32, Sendable {
    /// Every card shown (or the command succeeded).
    case ok = 0
    /// Fatal: unknown order, backend unreachable for the layout, or a login that failed.
    case fatal = 1
    /// Degraded: one or more cards hidden by a failure.
    case degraded = 2
    /// `cancel`: at least one component vetoed.
    case vetoed = 3
    /// Usage error: bad flag, value or command.
    case usage = 64
    /// Interrupted by Ctrl-C.
    case interrupted = 130
}
