import ArgumentParsing
import Core
import Foundation
import HostIO
import ScreenSinks

/// The `order-tracking` command: parses arguments, builds the host environment, runs one command.
public enum OrderTrackingApp {
    // Every option once, with its help line: the parser and `--help` read these same lists.
    static let api = OptionSpec(
        "--api", .required("URL"), help: "HTTP backend laid out like the fixtures (default: the embedded demo)")
    static let cacert = OptionSpec("--cacert", .required("FILE"), help: "certificates to trust for an https --api")
    static let noColor = OptionSpec("--no-color", help: "no colours (also NO_COLOR=1 or TERM=dumb)")
    static let timeoutOption = OptionSpec(
        "--timeout", .required("SECONDS"), help: "per-component deadline (default 5)")
    static let helpOption = OptionSpec("--help", help: "this text")
    static let dataDir = OptionSpec(
        "--data-dir", .required("DIR"), help: "where the signed-in user is kept (default ~/.local/share/courier)")
    static let formatOption = OptionSpec("--format", .required("text|json"), help: "output format (default text)")
    static let analyticsOption = OptionSpec(
        "--analytics", .required("FILE"), help: "append each squad's analytics events to FILE (JSON lines)")
    static let plain = OptionSpec("--plain", help: "no in-place redraw (the default when stdout is not a terminal)")
    static let watch = OptionSpec("--watch", help: "follow the order until it is finished, or Ctrl-C")
    static let every = OptionSpec(
        "--every", .required("SECONDS"), help: "under --watch, poll every SECONDS (default 10)")
    static let staleLimit = OptionSpec(
        "--stale-limit", .required("SECONDS"),
        help: "under --watch, keep an unreachable card, marked stale (default 60)")
    static let record = OptionSpec(
        "--record", .required("FILE"), help: "write every backend answer to FILE (JSON lines)")
    static let replay = OptionSpec("--replay", .required("FILE"), help: "play a --record file back as the backend")
    static let promo = OptionSpec(
        "--promo", .required("CODE"), help: "apply a promo code through the Promo card (demo: SAVE10)")
    static let trace = OptionSpec("--trace", help: "state transitions and event hops, timestamped, to stderr")
    static let versionOption = OptionSpec("--version", help: "the version")
    static let order = OptionSpec("--order", .required("ID"), help: "the order whose ids it reads (default 1234)")
    static let payload = OptionSpec("--payload", .required("FILE"), help: "a JSON file instead of its endpoint")
    static let fail = OptionSpec("--fail", .required("notfound|http500|timeout|malformed"), help: "a backend fault")
    static let state = OptionSpec("--state", .required("loading|info|failed"), help: "the state to show")
    static let event = OptionSpec(
        "--event", .required("NAME=VALUE"), help: "another squad's event, after the load (repeatable)")
    static let password = OptionSpec("--password", .required("P"), help: "the password (demo user 1234 needs none)")
    static let verbose = OptionSpec("--verbose", help: "also print what each login hook found")
    static let select = OptionSpec("--select", .required("ID"), help: "the tab to open (default tracking)")
    static let watchTabs = OptionSpec("--watch", help: "follow the bar: badges and sign-in/out, until Ctrl-C")
    static let inputOption = OptionSpec(
        "--input", .required("KEY=VALUE"), help: "an id the screen's cards read, e.g. cart=C100 (repeatable)")
    static let actionOption = OptionSpec("--action", .required("ID"), help: "carry out the screen's action ID once")
    static let methodOption = OptionSpec("--method", .required("ID"), help: "pay with saved method ID (e.g. cash)")
    static let payOption = OptionSpec("--pay", help: "pay once the cards have loaded (exit 3 if a card vetoes)")
    static let common = [api, cacert, noColor, timeoutOption, helpOption]
    static let screens =
        [formatOption, plain, watch, every, staleLimit, record, replay, promo, trace] + common
        + [dataDir, analyticsOption]
    static let track = screens + [versionOption]
    static let preview = common + [order, inputOption, payload, fail, state, event]

    /// Gives closed standard descriptors to /dev/null before anything else opens a file (HostIO); call it first.
    public static func reserveStandardDescriptors() -> Set<Int32> { StandardStreams.reserveDescriptors() }

    /// Runs the command line and returns the exit status. `closed` is what ``reserveStandardDescriptors()`` found.
    public static func main(_ arguments: [String], environment: [String: String], closed: Set<Int32> = []) async
        -> Int32
    {
        await CommandLineTool(name: "order-tracking").main(closed: closed) { streams throws(UsageError) in
            try await run(arguments, environment: environment, streams: streams).rawValue
        }
    }

    /// The command line on `streams`. In-process tests pass a `VirtualClock` and no `signals`: the process's own
    /// handlers are the test runner's.
    static func run(
        _ arguments: [String], environment: [String: String], streams: StandardStreams,
        clock: (any CourierClock)? = nil, signals: Bool = true
    ) async throws(UsageError) -> ExitCode {
        // Tracking is the default: its first word is an order id, not a command name.
        switch try Invocation.of(arguments, commands: commands, usage: Help.main, fallback: "track") {
        case .help(let text):
            streams.out(text + "\n")
            return .ok
        case .run(let command, let parsed):
            let terminal = Terminal(environment: environment, noColorFlag: parsed.isSet(noColor), streams: streams)
            let context = CommandContext(environment: environment, terminal: terminal, clock: clock)
            let status = try await CommandLineTool.running(terminal, streams: streams, signals: signals) {
                try await command.run(parsed, context).rawValue
            }
            return ExitCode(rawValue: status) ?? .fatal
        }
    }
}

/// What every command is started with: the environment and the process's streams.
struct CommandContext {
    let environment: [String: String]
    /// Decided once per run (stdout, `TERM`, `NO_COLOR`, `--no-color`).
    let terminal: Terminal
    /// The clock every command runs on; nil: the system's (pinned by `COURIER_NOW`).
    var clock: (any CourierClock)?

    /// The host for a parsed command line (`--api`, `--cacert`, `--timeout`, `--data-dir`, `--record`,
    /// `--replay`): each option read here, once.
    func host(_ parsed: ParsedArguments) throws(UsageError) -> HostEnvironment {
        typealias App = OrderTrackingApp
        let recording = RecordingFiles(record: parsed.value(App.record), replay: parsed.value(App.replay))
        let options = HostOptions(
            api: parsed.value(App.api), caFile: parsed.value(App.cacert), timeout: try App.timeout(parsed),
            dataDir: parsed.value(App.dataDir), recording: recording)
        return try HostEnvironment.make(options, environment: environment, terminal: terminal, clock: clock)
    }

    /// Prints a help text.
    func say(_ text: String) -> ExitCode {
        terminal.out(text + "\n")
        return .ok
    }
}
