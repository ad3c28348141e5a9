import ArgumentParsing
import Core
import Foundation
import SafeText

/// Turning parsed arguments into commands: validation of every value, with messages that say what to type.
extension OrderTrackingApp {
    static func runTracking(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        // A mistyped command with its arguments (`logn 1234`) is a command, not two order ids.
        if let first = parsed.positionals.first, !first.allSatisfy(\.isNumber) {
            let hint = suggestion(for: first, among: Help.commands)
            if !hint.isEmpty { throw UsageError(message: "unknown command '\(SafeText.visible(first))'" + hint) }
        }
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
        options.watch = parsed.has("--watch")
        if let every = parsed.options["--every"] {
            guard options.watch else { throw UsageError(message: "--every only applies with --watch; add --watch") }
            guard let seconds = Double(every), seconds >= 0.1, seconds <= 3600 else {
                throw UsageError(
                    message: "--every '\(SafeText.visible(every))' must be a number of seconds from 0.1 to 3600")
            }
            options.every = .milliseconds(Int(seconds * 1000))
        }
        if let limit = parsed.options["--stale-limit"] {
            guard options.watch else {
                throw UsageError(message: "--stale-limit only applies with --watch; add --watch")
            }
            guard let seconds = Double(limit), seconds >= 0, seconds <= 86_400 else {
                throw UsageError(
                    message: "--stale-limit '\(SafeText.visible(limit))' must be a number of seconds from 0 to 86400")
            }
            options.staleLimit = .milliseconds(Int(seconds * 1000))
        }
        if parsed.has("--record") && parsed.has("--replay") {
            throw UsageError(message: "--record and --replay cannot be used together; record first, then replay")
        }
        if parsed.has("--replay") && parsed.has("--api") {
            throw UsageError(message: "--replay is the backend; drop --api")
        }
        let host = try context.host(parsed)
        let backend = try RecordingOptions(record: parsed.options["--record"], replay: parsed.options["--replay"])
            .backend(wrapping: host.backend, clock: host.clock, terminal: host.terminal)
        let analytics = try AnalyticsLog.open(parsed.options["--analytics"], order: options.order, host: host)
        let screen = TrackingScreen(options: options, host: host.with(backend: backend), analytics: analytics)
        return await withInterruptHandling(host.terminal) { await screen.run() }
    }

    static func runPreview(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count == 1 else { throw UsageError(message: "preview needs exactly one COMPONENT id") }
        let host = try context.host(parsed)
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
        // `--event order.status=delivered`: another squad's event, delivered after the load.
        let events = try (parsed.repeated["--event"] ?? []).map { (text: String) throws(UsageError) -> DomainEvent in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(
                    message:
                        "--event '\(SafeText.visible(text))' must be NAME=VALUE, e.g. --event order.status=delivered")
            }
            return DomainEvent(parts[0], parts[1])
        }
        let command = PreviewCommand(
            id: ComponentID(parsed.positionals[0]), events: events,
            order: try validateID(parsed.options["--order"] ?? "1234", kind: "order"),
            payload: payload, fault: state == .failed && fault == nil ? .malformed : fault, state: state, host: host,
            timeout: try timeout(parsed))
        return await withInterruptHandling(host.terminal) { await command.run() }
    }

    static func timeout(_ parsed: ParsedArguments) throws(UsageError) -> Duration {
        guard let text = parsed.options["--timeout"] else { return .seconds(5) }
        // A millisecond is the finest deadline the transport keeps; less would be reported as "within 0s".
        guard let seconds = Double(text), seconds >= 0.001, seconds <= 600 else {
            throw UsageError(
                message:
                    "--timeout '\(SafeText.visible(text))' must be a number of seconds from 0.001 to 600, e.g. --timeout 2.5"
            )
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
}
