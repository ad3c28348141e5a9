import ArgumentParsing
import Core
import Faces
import HostIO
import SafeText
import ScreenRuntime

/// The screen commands: `order-tracking [ORDER-ID]` (the tracking screen), `screen NAME` (any screen the backend
/// defines) and `checkout CART-ID`; each value checked with a message that says what to type.
extension OrderTrackingApp {
    static func runTracking(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        let words = parsed.positionals
        guard words.count <= 1 else {
            throw UsageError(message: "expected one ORDER-ID, got \(words.count): \(words.joined(separator: " "))")
        }
        var options = try screenOptions(parsed)
        if let id = words.first { options.inputs = [("order", try validateID(id, kind: "order"))] }
        return try await runScreen(options, parsed, context)
    }

    static func runNamedScreen(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count == 1, ScreenDefinition.isName(parsed.positionals[0]) else {
            throw UsageError(message: "screen needs one NAME of lower-case letters, digits and '-', e.g. checkout")
        }
        var options = try screenOptions(parsed)
        options.name = parsed.positionals[0]
        options.inputs = try inputs(parsed)
        options.perform = parsed.value(actionOption)
        return try await runScreen(options, parsed, context)
    }

    static func runCheckout(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        guard parsed.positionals.count == 1 else { throw UsageError(message: "checkout needs exactly one CART-ID") }
        var options = try screenOptions(parsed)
        (options.name, options.inputs) = ("checkout", [("cart", try validateID(parsed.positionals[0], kind: "cart"))])
        if let method = parsed.value(methodOption) {
            guard PromoDiscount.isCode(method) else {
                throw UsageError(message: "--method '\(SafeText.visible(method))' is not a method id like visa4242")
            }
            options.said = [EventName.paymentMethodChosen(method)]
        }
        if parsed.isSet(payOption) { options.perform = UserAction.pay.name }
        return try await runScreen(options, parsed, context)
    }

    /// `--input KEY=VALUE`, each a name like `cart` and an id.
    static func inputs(_ parsed: ParsedArguments) throws(UsageError) -> [(String, String)] {
        try parsed.pairs(inputOption, example: "cart=C100").map { pair throws(UsageError) in
            guard ScreenDefinition.isName(pair.name) else {
                throw UsageError(message: "--input '\(SafeText.visible(pair.name))' is not an input name like cart")
            }
            return (pair.name, try validateID(pair.value, kind: pair.name))
        }
    }

    /// The options every screen takes.
    private static func screenOptions(_ parsed: ParsedArguments) throws(UsageError) -> ScreenOptions {
        var options = ScreenOptions()
        options.json = try format(parsed)
        options.plain = parsed.isSet(plain)
        options.trace = parsed.isSet(trace)
        options.watch = parsed.isSet(watch)
        for option in [every, staleLimit] where parsed.isSet(option) && !options.watch {
            throw UsageError(message: "\(option.name) only applies with --watch; add --watch")
        }
        for option in [payOption, actionOption] where parsed.isSet(option) && options.watch {
            throw UsageError(message: "\(option.name) acts once; drop --watch (on the live screen press its key)")
        }
        options.every = try parsed.seconds(every, in: 0.1...3600, default: options.every)
        options.staleLimit = try parsed.seconds(staleLimit, in: 0...86_400, default: options.staleLimit)
        options.promo = parsed.value(promo)
        if let code = options.promo, !PromoDiscount.isCode(code) {
            throw UsageError(
                message: "--promo '\(SafeText.visible(code))' is not a code: use 1 to 16 letters and digits")
        }
        return options
    }

    private static func runScreen(_ options: ScreenOptions, _ parsed: ParsedArguments, _ context: CommandContext)
        async throws(UsageError) -> ExitCode
    {
        try JSONLinesFile.refuseShared([record, replay, analyticsOption].map { ($0.name, parsed.value($0)) })
        let host = try context.host(parsed)
        let analytics = try host.analytics(parsed.value(analyticsOption), order: options.inputs.first?.1 ?? "")
        return await ScreenRun(options: options, host: host, analytics: analytics).run()
    }
}
