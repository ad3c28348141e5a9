import ArgumentParsing
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
}
