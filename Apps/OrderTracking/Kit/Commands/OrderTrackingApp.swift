import ArgumentParsing
import ComponentWorkers
import Confinement
import Core
import FixtureBackend
import Foundation
import HostComposition
import HostIO
import InputRules
import SafeText
import ScreenRuntime
import ScreenSinks

/// The exit statuses `order-tracking` documents (HostComposition's, which its screen runs end with).
typealias ExitCode = HostComposition.ExitCode

/// The `order-tracking` command: parses arguments, builds the host environment, runs one command.
public enum OrderTrackingApp {
    // Every option once, typed, with its help line: the parser, `--help` and the commands read these.
    static let api = Option.text(
        "--api", "URL", help: "HTTP backend laid out like the fixtures (default: the embedded demo)")
    static let cacert = Option.text(
        "--cacert", "FILE", help: "certificates to trust for an https --api (default: the system's)")
    static let noColor = Option.flag("--no-color", help: "no colours (also NO_COLOR=1 or TERM=dumb)")
    static let timeout = Option.seconds(
        "--timeout", in: 0.001...600, example: "2.5", help: "per-component deadline (default 5)")
    static let dataDir = Option.text(
        "--data-dir", "DIR", help: "where the signed-in user is kept (default ~/.local/share/courier)")
    static let format = Option<OutputFormat>.choice("--format", help: "output format (default text)")
    static let analytics = Option.text(
        "--analytics", "FILE", help: "append each squad's analytics events to FILE, one JSON object a line")
    static let plain = Option.flag(
        "--plain", help: "no in-place redraw (the default when stdout is not a terminal, or TERM=dumb)")
    static let watch = Option.flag("--watch", help: "follow the order until it is finished (or a signal)")
    static let every = Option.seconds(
        "--every", in: 0.1...3600,
        help: "under --watch, reload every card this often (default 10); cards also ask\n"
            + "for their own refresh (the ETA every 5 s, the rider every 3 s)")
    static let staleLimit = Option.seconds(
        "--stale-limit", in: 0...86_400,
        help: "under --watch, how long a card that showed info keeps it, marked \"as of\n"
            + "HH:MM:SS · stale\", while its refresh cannot reach the backend (refused,\n"
            + "reset, timeout, HTTP 5xx); then it is hidden (default 60, 0–86400)")
    static let record = Option.text("--record", "FILE", help: "write every backend answer to FILE (JSON lines)")
    static let replay = Option.text("--replay", "FILE", help: "play a --record file back as the backend")
    static let promo = Option.code(
        "--promo", "CODE", help: "alias of --input promo=CODE: a code for the Promo card (demo: SAVE10)")
    static let trace = Option.flag(
        "--trace", help: "state transitions, event hops and refresh requests, timestamped, to stderr")
    static let version = Option.flag("--version", help: "the version")
    static let order = Option("--order", "ID", help: "the order it reads (as --input order=ID)") {
        (id: String) throws(UsageError) -> String in try validateID(id, kind: "order")
    }
    static let payload = Option.text("--payload", "FILE", help: "a JSON file instead of its endpoint")
    static let fail = Option<InjectedFault>.choice("--fail", help: "a backend fault")
    static let state = Option.choice("--state", among: [Phase.loading, .info, .failed], help: "the state to show")
    static let event = Option.pairs(
        "--event", example: "order.status=delivered", help: "another squad's event, after the load (repeatable)")
    static let password = Option.text("--password", "P", help: "the password (demo user 1234 needs none)")
    static let verbose = Option.flag("--verbose", help: "also print what each login hook found")
    static let select = Option.text("--select", "ID", help: "the tab to open (default tracking)")
    static let watchTabs = Option.flag("--watch", help: "follow the bar: badges and sign-in/out, until Ctrl-C")
    static let input = Option.pairs(
        "--input", "NAME=VALUE", example: "cart=C100",
        help: "an input by name: an id the cards read (cart=C100) or, on a screen, a\n"
            + "prompt's value (promo=SAVE10, method=cash); repeatable, each name once"
    ) { (pair: NamedValue) throws(UsageError) -> NamedValue in
        // Only the name here: the value is an id or a prompt's code, which the screen that names it knows
        // (ScreenRun.refusal, preview), so it is held to one rule with one piece of advice.
        guard ScreenDefinition.isName(pair.name) else {
            throw UsageError(message: "--input \(InputEcho.quoted(pair.name)) is not an input name like cart")
        }
        return pair
    }
    static let action = Option.text("--action", "ID", help: "carry out the screen's action ID once")
    static let method = Option.code(
        "--method", "ID", help: "alias of --input method=ID: pay with saved method ID (e.g. cash)")
    static let pay = Option.flag("--pay", help: "pay once the cards have loaded (exit 3 if a card vetoes)")
    static let newAttempt = Option.flag(
        "--new-attempt",
        help: "a new key though an earlier attempt (exit 5 or 7) is unknown (once you\n"
            + "checked it did not go through) or paid (to pay again on purpose)")
    static let retention = Option.seconds(
        "--attempt-retention", in: 0...604_800,
        help: "how long a paid attempt is kept and an unknown one resent (default 86400: 24 h)")
    static let common = [api.spec, cacert.spec, noColor.spec, timeout.spec]
    static let screens =
        [format.spec, plain.spec, watch.spec, every.spec, staleLimit.spec, record.spec, replay.spec, promo.spec]
        + [trace.spec] + common + [dataDir.spec, analytics.spec]
    static let track = screens + [version.spec]
    static let preview =
        common + [order.spec, input.spec, payload.spec, fail.spec, state.spec, event.spec]

    /// The fewest open files a run needs: its standard ones, Dispatch's, a signal source per signal it handles
    /// and a few reads at once (workers take theirs only from what is left beyond).
    static let descriptors = 24

    /// Gives closed standard descriptors to /dev/null before anything else opens a file (HostIO); call it first.
    public static func reserveStandardDescriptors() -> Set<Int32> { StandardStreams.reserveDescriptors() }

    /// Runs the command line and returns the exit status. `closed` is what ``reserveStandardDescriptors()`` found.
    /// The squads' cards run in worker processes of this same executable (`WorkerCommand`): each module's code
    /// in its own, so a squad's crash or hang costs only its cards, and each in a sandbox of its own (`unconfined`
    /// is what `WorkerCommand.confine` could not apply, first thing in `main.swift`).
    public static func main(
        _ arguments: [String], environment: [String: String], closed: Set<Int32> = [],
        unconfined: [WorkerProtection] = []
    ) async -> Int32 {
        if arguments.first == WorkerCommand.subcommand {
            return await WorkerCommand.serve(
                arguments, registrations: HostRegistry.lines, errands: HostRegistry.errands, unconfined: unconfined)
        }
        return await CommandLineTool(name: "order-tracking", descriptors: descriptors).main(closed: closed) {
            streams throws(UsageError) in
            // One clock for the run: its screen's and its workers' supervisor's (crashes counted within a period).
            let clock = HostEnvironment.runClock(environment)
            let workers = try WorkerCommand.pool(
                isolating: HostRegistry.lines, calling: HostRegistry.otherEndpoints, environment: environment,
                clock: clock, sandbox: SystemSandbox.current, said: streams.err)
            defer { workers?.close() }
            return try await run(
                arguments, environment: environment, streams: streams, clock: clock, workers: workers
            ).rawValue
        }
    }

    /// The command line on `streams`. In-process tests pass a `VirtualClock` and no `signals`: the process's own
    /// handlers are the test runner's. A `conflict` in the host's own tables (``HostRegistry/conflict``: two cards,
    /// hooks or tabs under one id) runs no command: one line on stderr, exit 1.
    static func run(
        _ arguments: [String], environment: [String: String], streams: StandardStreams,
        clock: (any CourierClock)? = nil, signals: Bool = true, workers: WorkerPool? = nil,
        conflict: HostConflict? = HostRegistry.conflict
    ) async throws(UsageError) -> ExitCode {
        if let conflict {
            streams.err("order-tracking: the host's composition is inconsistent: \(conflict)")
            return .fatal
        }
        // Tracking is the default: its first word is an order id, not a command name.
        switch try Invocation.of(
            arguments, tool: "order-tracking", commands: commands, usage: Help.main, fallback: "track")
        {
        case .help(let text):
            streams.out(text + "\n")
            return .ok
        case .run(let command, let parsed):
            let terminal = Terminal(environment: environment, noColorFlag: parsed.isSet(noColor), streams: streams)
            // Workers have sessions of their own: Ctrl-Z and `fg` reach them through the host.
            if let workers { terminal.alongside(stop: workers.stopAll, resume: workers.continueAll) }
            let context = CommandContext(
                environment: environment, terminal: terminal, clock: clock, workers: workers)
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
    /// The squads' workers (the executable); nil: their code runs in this process (in-process tests).
    var workers: WorkerPool?

    /// The host for a parsed command line (`--api`, `--cacert`, `--timeout`, `--data-dir`, `--record`,
    /// `--replay`): each option read here, once.
    func host(_ parsed: ParsedArguments) throws(UsageError) -> HostEnvironment {
        typealias App = OrderTrackingApp
        let recording = RecordingFiles(record: parsed[App.record], replay: parsed[App.replay])
        let options = HostOptions(
            api: parsed[App.api], caFile: parsed[App.cacert], timeout: parsed[App.timeout, default: .seconds(5)],
            dataDir: parsed[App.dataDir], recording: recording, newAttempt: parsed.isSet(App.newAttempt),
            retention: parsed[App.retention, default: AttemptFiles.defaultRetention])
        return try HostEnvironment.make(
            options, environment: environment, terminal: terminal, clock: clock, workers: workers)
    }
}
