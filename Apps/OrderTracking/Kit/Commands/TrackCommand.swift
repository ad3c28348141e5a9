import ArgumentParsing
import Core
import HostComposition
import HostIO
import PaymentsInterface
import SafeText
import ScreenRuntime

/// The screen commands: `order-tracking [ORDER-ID]` (the tracking screen), `screen NAME` (any screen the backend
/// defines) and `checkout CART-ID`; each value checked with a message that says what to type.
extension OrderTrackingApp {
    static func runTracking(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        var options = try screenOptions(parsed)
        if let id = parsed.positionals.first { options.inputs[0] = ("order", try validateID(id, kind: "order")) }
        return try await runScreen(options, parsed, context)
    }

    static func runNamedScreen(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        try await runScreen(try namedScreenOptions(parsed), parsed, context)
    }

    /// What `screen NAME [--input NAME=VALUE]... [--action ID]` asks for.
    static func namedScreenOptions(_ parsed: ParsedArguments) throws(UsageError) -> ScreenOptions {
        guard ScreenDefinition.isName(parsed.positionals[0]) else {
            throw UsageError(message: "screen needs one NAME of lower-case letters, digits and '-', e.g. checkout")
        }
        var options = try screenOptions(parsed, command: "screen", subject: [])
        options.name = parsed.positionals[0]
        options.perform = parsed[action]
        return options
    }

    static func runCheckout(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        let cart = ("cart", try validateID(parsed.positionals[0], kind: "cart"))
        var options = try screenOptions(parsed, command: "checkout", subject: [cart])
        options.name = "checkout"
        if parsed.isSet(pay) { options.perform = UserAction.pay.name }
        return try await runScreen(options, parsed, context)
    }

    /// `--method ID` and `--promo CODE`, the scripts' and docs' spellings of `--input method=ID` and `--input
    /// promo=CODE`: plain aliases, each checked as before. The host names no other squad's input.
    static let inputAliases = [(option: method, input: "method"), (option: promo, input: "promo")]

    /// The options every screen takes; with `subject` (the positional ids), the command's inputs too: those, then
    /// each `--input` and alias, a name given twice refused.
    private static func screenOptions(
        _ parsed: ParsedArguments, command: String? = nil, subject: [(String, String)]? = nil
    ) throws(UsageError) -> ScreenOptions {
        var options = ScreenOptions()
        options.command = command
        if let subject {
            options.inputs = subject + parsed.all(input).map { ($0.name, $0.value) }
        }
        options.inputs += inputAliases.compactMap { alias in parsed[alias.option].map { (alias.input, $0) } }
        var given: [String: String] = [:]
        for (name, value) in options.inputs {
            if let earlier = given.updateValue(value, forKey: name) {
                throw UsageError(
                    message: "--input \(name) given twice ('\(earlier)' and '\(value)'); give each input once",
                    command: command)
            }
        }
        (options.json, options.plain) = (parsed[format] == .json, parsed.isSet(plain))
        (options.trace, options.watch) = (parsed.isSet(trace), parsed.isSet(watch))
        for option in [every, staleLimit] where parsed.isSet(option) && !options.watch {
            throw UsageError(message: "\(option.name) only applies with --watch; add --watch")
        }
        for (name, given) in [(pay.name, parsed.isSet(pay)), (action.name, parsed.isSet(action))]
        where given && options.watch {
            throw UsageError(message: "\(name) acts once; drop --watch (on the live screen press its key)")
        }
        options.every = parsed[every, default: options.every]
        options.staleLimit = parsed[staleLimit, default: options.staleLimit]
        return options
    }

    private static func runScreen(_ options: ScreenOptions, _ parsed: ParsedArguments, _ context: CommandContext)
        async throws(UsageError) -> ExitCode
    {
        try JSONLinesFile.refuseShared([record, replay, analytics].map { ($0.name, parsed[$0]) })
        let host = try context.host(parsed)
        // Each screen the run shows names its own subject (ScreenRun.show builds the inputs by name once).
        let analytics = try host.analytics(parsed[analytics], subject: [:])
        return await ScreenRun(options: options, host: host.screens, analytics: analytics).run()
    }
}
