import ArgumentParsing
import Core
import Faces
import Foundation
import HostIO
import SafeText
import ScreenSinks

/// Turning parsed arguments into commands: validation of every value, with messages that say what to type.
extension OrderTrackingApp {
    static func runTracking(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count <= 1 else {
            throw UsageError(
                message:
                    "expected one ORDER-ID, got \(parsed.positionals.count): \(parsed.positionals.joined(separator: " "))"
            )
        }
        var options = TrackingOptions()
        if let id = parsed.positionals.first { options.order = try validateID(id, kind: "order") }
        options.json = try format(parsed)
        options.plain = parsed.isSet(plain)
        options.trace = parsed.isSet(trace)
        options.timeout = try timeout(parsed)
        options.watch = parsed.isSet(watch)
        for option in [every, staleLimit] where parsed.isSet(option) && !options.watch {
            throw UsageError(message: "\(option.name) only applies with --watch; add --watch")
        }
        options.every = try parsed.seconds(every, in: 0.1...3600, default: options.every)
        options.staleLimit = try parsed.seconds(staleLimit, in: 0...86_400, default: options.staleLimit)
        options.promo = parsed.value(promo)
        if let code = options.promo, !PromoDiscount.isCode(code) {
            throw UsageError(
                message: "--promo '\(SafeText.visible(code))' is not a code: use 1 to 16 letters and digits")
        }
        if parsed.isSet(replay) && parsed.isSet(api) {
            throw UsageError(message: "--replay is the backend; drop --api")
        }
        try JSONLinesFile.refuseShared([record, replay, analyticsOption].map { ($0.name, parsed.value($0)) })
        let host = try context.host(parsed)
        let backend = try RecordingFiles(record: parsed.value(record), replay: parsed.value(replay))
            .backend(wrapping: host.backend, clock: host.clock, terminal: host.terminal)
        let analytics = try host.analytics(parsed.value(analyticsOption), order: options.order)
        let screen = TrackingScreen(options: options, host: host.with(backend: backend), analytics: analytics)
        return await screen.run()
    }

    static func runPreview(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count == 1 else { throw UsageError(message: "preview needs exactly one COMPONENT id") }
        let host = try context.host(parsed)
        var data: Data?
        if let file = parsed.value(payload) {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw UsageError(message: "--payload '\(file)' cannot be read; give a path to a JSON file")
            }
            data = contents
        }
        let faults = InjectedFault.allCases.map(\.rawValue)
        let states = [Phase.loading, .info, .failed].map(\.rawValue)
        let injected =
            try parsed.isSet(fail) ? InjectedFault(rawValue: parsed.choice(fail, among: faults, default: "")) : nil
        let forced = try parsed.isSet(state) ? Phase(rawValue: parsed.choice(state, among: states, default: "")) : nil
        // `--event order.status=delivered`: another squad's event, delivered after the load.
        let events = try parsed.pairs(event, example: "order.status=delivered").map { DomainEvent($0.name, $0.value) }
        let command = PreviewCommand(
            id: ComponentID(parsed.positionals[0]), events: events,
            order: try validateID(parsed.value(order) ?? "1234", kind: "order"),
            payload: data, fault: forced == .failed && injected == nil ? .malformed : injected, state: forced,
            host: host,
            timeout: try timeout(parsed))
        return await command.run()
    }

    /// `--timeout` (default 5 s); a millisecond is the finest deadline the transport keeps.
    static func timeout(_ parsed: ParsedArguments) throws(UsageError) -> Duration {
        try parsed.seconds(timeoutOption, in: 0.001...600, default: .seconds(5), example: "2.5")
    }

    /// `--format text|json`: whether JSON was asked for.
    static func format(_ parsed: ParsedArguments) throws(UsageError) -> Bool {
        try parsed.choice(formatOption, among: ["text", "json"], default: "text") == "json"
    }
}
