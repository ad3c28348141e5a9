import ArgumentParsing
import Core
import Foundation

/// Turning parsed arguments into commands: validation of every value, with messages that say what to type.
extension OrderTrackingApp {
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
