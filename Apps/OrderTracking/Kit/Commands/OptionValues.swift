import ArgumentParsing

/// Values more than one command reads, parsed the same way everywhere.
extension OrderTrackingApp {
    /// `--timeout` (default 5 s); a millisecond is the finest deadline the transport keeps.
    static func timeout(_ parsed: ParsedArguments) throws(UsageError) -> Duration {
        try parsed.seconds(timeoutOption, in: 0.001...600, default: .seconds(5), example: "2.5")
    }

    /// `--format text|json`: whether JSON was asked for.
    static func format(_ parsed: ParsedArguments) throws(UsageError) -> Bool {
        try parsed.choice(formatOption, among: ["text", "json"], default: "text") == "json"
    }
}
