import Core
import Foundation

/// The `order-tracking` command: parses arguments, builds the host environment, runs one command.
public enum OrderTrackingApp {
    static let common = [
        OptionSpec("--api", .required("URL")),
        OptionSpec("--no-color"),
        OptionSpec("--timeout", .required("SECONDS")),
        OptionSpec("--help"),
    ]
    static let track =
        common + [
            OptionSpec("--format", .required("text|json")),
            OptionSpec("--plain"),
            OptionSpec("--watch", .optionalNumber("SECONDS")),
            OptionSpec("--trace"),
            OptionSpec("--version"),
        ]
    static let preview =
        common + [
            OptionSpec("--order", .required("ID")),
            OptionSpec("--payload", .required("FILE")),
            OptionSpec("--fail", .required("notfound|http500|timeout|malformed")),
            OptionSpec("--state", .required("loading|info|failed")),
        ]

    /// Runs the command line and returns the exit status.
    public static func main(_ arguments: [String], environment: [String: String]) async -> Int32 {
        // A reader that went away (`| head -1`) is not an error: writes fail quietly instead of killing us.
        signal(SIGPIPE, SIG_IGN)
        let stderr = Terminal(environment: environment, noColorFlag: true)
        do {
            return try await run(arguments, environment: environment).rawValue
        } catch {
            stderr.err("order-tracking: \(error.message)\nRun 'order-tracking --help' for usage.")
            return ExitCode.usage.rawValue
        }
    }

    static func run(_ arguments: [String], environment: [String: String]) async throws(UsageError) -> ExitCode {
        let command = arguments.first.flatMap { Help.commands.contains($0) ? $0 : nil } ?? "track"
        let rest = command == "track" ? arguments : Array(arguments.dropFirst())
        switch command {
        case "help":
            guard let topic = rest.first else { return say(Help.main) }
            guard let text = Help.text(for: topic) else {
                throw UsageError(message: "no help for '\(topic)'" + suggestion(for: topic, among: Help.commands))
            }
            return say(text)
        case "components":
            let parsed = try ArgumentParser(options: [
                OptionSpec("--format", .required("text|json")), common[3],
            ]).parse(rest)
            if parsed.has("--help") { return say(Help.components) }
            guard parsed.positionals.isEmpty else { throw UsageError(message: "components takes no arguments") }
            let json = try format(parsed)
            return ComponentsCommand(json: json, host: try makeHost(parsed, environment)).run()
        case "cancel":
            let parsed = try ArgumentParser(options: common).parse(rest)
            if parsed.has("--help") { return say(Help.cancel) }
            guard parsed.positionals.count == 1 else { throw UsageError(message: "cancel needs exactly one ORDER-ID") }
            let order = try validateID(parsed.positionals[0], kind: "order")
            let host = try makeHost(parsed, environment)
            return await withInterruptHandling(host.terminal) {
                await CancelCommand(order: order, host: host, timeout: (try? timeout(parsed)) ?? .seconds(5)).run()
            }
        case "login":
            let parsed = try ArgumentParser(
                options: common + [
                    OptionSpec("--password", .required("P")), OptionSpec("--data-dir", .required("DIR")),
                ]
            ).parse(rest)
            if parsed.has("--help") { return say(Help.login) }
            guard parsed.positionals.count == 1 else { throw UsageError(message: "login needs exactly one USER-ID") }
            let user = try validateID(parsed.positionals[0], kind: "user")
            let host = try makeHost(parsed, environment)
            return await withInterruptHandling(host.terminal) {
                await LoginCommand(userID: user, password: parsed.options["--password"], host: host).run()
            }
        case "logout":
            let parsed = try ArgumentParser(options: [OptionSpec("--data-dir", .required("DIR")), common[3]]).parse(
                rest)
            if parsed.has("--help") { return say(Help.login) }
            guard parsed.positionals.isEmpty else { throw UsageError(message: "logout takes no arguments") }
            return LogoutCommand(host: try makeHost(parsed, environment)).run()
        case "tabs":
            let parsed = try ArgumentParser(
                options: common + [OptionSpec("--select", .required("ID")), OptionSpec("--data-dir", .required("DIR"))]
            ).parse(rest)
            if parsed.has("--help") { return say(Help.tabs) }
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "tabs takes no arguments; use --select ID")
            }
            let host = try makeHost(parsed, environment)
            let selected = parsed.options["--select"] ?? TrackingTab.tabID
            return await withInterruptHandling(host.terminal) {
                await TabsCommand(selected: selected, host: host).run()
            }
        case "preview":
            let parsed = try ArgumentParser(options: preview).parse(rest)
            if parsed.has("--help") { return say(Help.preview) }
            return try await runPreview(parsed, environment)
        default:
            let parsed = try ArgumentParser(options: track).parse(rest)
            if parsed.has("--help") { return say(Help.main) }
            if parsed.has("--version") { return say(Help.version) }
            return try await runTracking(parsed, environment)
        }
    }

    static func runTracking(_ parsed: ParsedArguments, _ environment: [String: String]) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count <= 1 else {
            throw UsageError(
                message:
                    "expected one ORDER-ID, got \(parsed.positionals.count): \(parsed.positionals.joined(separator: " "))"
            )
        }
        var options = TrackingOptions()
        if let id = parsed.positionals.first {
            let hint = suggestion(for: id, among: Help.commands)
            if !hint.isEmpty && !id.allSatisfy(\.isNumber) {
                throw UsageError(message: "unknown command '\(id)'" + hint)
            }
            options.order = try validateID(id, kind: "order")
        }
        options.json = try format(parsed)
        options.plain = parsed.has("--plain")
        options.trace = parsed.has("--trace")
        options.timeout = try timeout(parsed)
        if let watch = parsed.options["--watch"] {
            guard let seconds = watch.isEmpty ? 10 : Double(watch), seconds >= 0.1, seconds <= 3600 else {
                throw UsageError(message: "--watch '\(watch)' must be a number of seconds from 0.1 to 3600")
            }
            options.watch = .milliseconds(Int(seconds * 1000))
        }
        let host = try makeHost(parsed, environment)
        let screen = TrackingScreen(options: options, host: host)
        return await withInterruptHandling(host.terminal) { await screen.run() }
    }

    static func runPreview(_ parsed: ParsedArguments, _ environment: [String: String]) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count == 1 else { throw UsageError(message: "preview needs exactly one COMPONENT id") }
        let host = try makeHost(parsed, environment)
        var payload: Data?
        if let file = parsed.options["--payload"] {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw UsageError(message: "--payload '\(file)' cannot be read; give a path to a JSON file")
            }
            payload = data
        }
        let fault = try parsed.options["--fail"].map { (name: String) throws(UsageError) -> InjectedFault in
            guard let fault = InjectedFault(rawValue: name) else {
                throw UsageError(
                    message: "--fail '\(name)' is not one of notfound, http500, timeout, malformed"
                        + suggestion(for: name, among: InjectedFault.allCases.map(\.rawValue)))
            }
            return fault
        }
        let state = try parsed.options["--state"].map { (name: String) throws(UsageError) -> Phase in
            guard let phase = Phase(rawValue: name) else {
                throw UsageError(message: "--state '\(name)' is not one of loading, info, failed")
            }
            return phase
        }
        let command = PreviewCommand(
            id: ComponentID(parsed.positionals[0]),
            order: try validateID(parsed.options["--order"] ?? "1234", kind: "order"),
            payload: payload, fault: state == .failed && fault == nil ? .malformed : fault, state: state, host: host,
            timeout: try timeout(parsed))
        return await withInterruptHandling(host.terminal) { await command.run() }
    }

    static func makeHost(_ parsed: ParsedArguments, _ environment: [String: String]) throws(UsageError)
        -> HostEnvironment
    {
        try HostEnvironment.make(
            api: parsed.options["--api"], timeout: try timeout(parsed), noColor: parsed.has("--no-color"),
            environment: environment, dataDir: parsed.options["--data-dir"])
    }

    static func timeout(_ parsed: ParsedArguments) throws(UsageError) -> Duration {
        guard let text = parsed.options["--timeout"] else { return .seconds(5) }
        guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
            throw UsageError(
                message: "--timeout '\(text)' must be a number of seconds from 0 to 600, e.g. --timeout 2.5")
        }
        return .milliseconds(Int(seconds * 1000))
    }

    static func format(_ parsed: ParsedArguments) throws(UsageError) -> Bool {
        switch parsed.options["--format"] {
        case nil, "text": return false
        case "json": return true
        case let other?:
            throw UsageError(
                message: "--format '\(other)' must be text or json" + suggestion(for: other, among: ["text", "json"]))
        }
    }

    static func say(_ text: String) -> ExitCode {
        print(text)
        return .ok
    }
}
