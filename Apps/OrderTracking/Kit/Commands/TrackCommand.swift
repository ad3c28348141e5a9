import ArgumentParsing
import Core
import Faces
import Foundation
import HostIO
import SafeText
import ScreenSinks

/// `order-tracking [ORDER-ID]`: the tracking screen's options, each value checked with a message that says what
/// to type.
extension OrderTrackingApp {
    static func runTracking(_ parsed: ParsedArguments, _ context: CommandContext) async throws(UsageError)
        -> ExitCode
    {
        let words = parsed.positionals
        guard words.count <= 1 else {
            throw UsageError(message: "expected one ORDER-ID, got \(words.count): \(words.joined(separator: " "))")
        }
        var options = TrackingOptions()
        if let id = parsed.positionals.first { options.order = try validateID(id, kind: "order") }
        options.json = try format(parsed)
        options.plain = parsed.isSet(plain)
        options.trace = parsed.isSet(trace)
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
        try JSONLinesFile.refuseShared([record, replay, analyticsOption].map { ($0.name, parsed.value($0)) })
        let host = try context.host(parsed)
        let analytics = try host.analytics(parsed.value(analyticsOption), order: options.order)
        return await TrackingScreen(options: options, host: host, analytics: analytics).run()
    }
}
