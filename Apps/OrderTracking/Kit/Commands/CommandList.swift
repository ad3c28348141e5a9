import ArgumentParsing
import HostComposition

/// One `order-tracking` command (ArgumentParsing's declaration): what runs it gets the parsed arguments and the
/// process's environment and streams.
typealias Command = CommandDeclaration<@Sendable (ParsedArguments, CommandContext) async throws -> ExitCode>

extension OrderTrackingApp {
    /// Every command; the first, tracking, is what runs when the first word is not a command's name.
    static let commands: [Command] = [
        Command(
            name: "track", positionals: .optional("ORDER-ID"), options: track,
            summary: "track an order (default 1234, the demo order)", about: Help.main
        ) { parsed, context throws(UsageError) in
            guard !parsed.isSet(version) else {
                context.terminal.out(Help.version + "\n")
                return .ok
            }
            return try await runTracking(parsed, context)
        },
        Command(
            name: "screen", positionals: .one("NAME"),
            options: screens + [input.spec, action.spec, newAttempt.spec, retention.spec],
            summary: "any screen the backend defines (screens/NAME.json)", about: Help.screen
        ) { parsed, context throws(UsageError) in try await runNamedScreen(parsed, context) },
        Command(
            name: "checkout", positionals: .one("CART-ID"),
            options: screens + [input.spec, method.spec, pay.spec, newAttempt.spec, retention.spec],
            summary: "a cart's checkout; --pay pays once the cards have loaded", about: Help.checkout
        ) { parsed, context throws(UsageError) in try await runCheckout(parsed, context) },
        Command(
            name: "preview", positionals: .one("COMPONENT"), options: preview,
            summary: "one component alone: any payload, fault, state or event", about: Help.preview
        ) { parsed, context throws(UsageError) in try await runPreview(parsed, context) },
        Command(
            name: "components", options: [format.spec],
            summary: "every component: id, module, owner, endpoint", about: Help.components
        ) { parsed, context throws(UsageError) in
            let host = try context.host(parsed)
            // Where their code runs, said once: what this system cannot hold the squads' workers to.
            if let line = context.workers?.unapplied { host.terminal.err(line) }
            return ComponentListing.show(host.registry, json: parsed[format] == .json, terminal: host.terminal)
        },
        Command(
            name: "cancel", positionals: .one("ORDER-ID"), options: common + [format.spec, analytics.spec],
            summary: "may it be cancelled? each veto with its reason, or the refund", about: Help.cancel
        ) { parsed, context throws(UsageError) in
            let order = try validateID(parsed.positionals[0], kind: "order")
            let host = try context.host(parsed)
            let analytics = try host.analytics(parsed[analytics], subject: ["order": order])
            return await CancelCommand(order: order, host: host, json: parsed[format] == .json, analytics: analytics)
                .run()
        },
        Command(
            name: "login", positionals: .one("USER-ID"), options: common + [password.spec, dataDir.spec, verbose.spec],
            summary: "sign in and run every module's login hooks (demo: 1234)", about: Help.login
        ) { parsed, context throws(UsageError) in
            let user = try validateID(parsed.positionals[0], kind: "user")
            let host = try context.host(parsed)
            return await LoginCommand(
                userID: user, password: parsed[password], verbose: parsed.isSet(verbose), host: host
            )
            .run()
        },
        Command(name: "logout", options: [dataDir.spec], summary: "clear the stored user", about: Help.logout) {
            parsed, context throws(UsageError) in LogoutCommand(host: try context.host(parsed)).run()
        },
        Command(
            name: "tabs", options: common + [select.spec, dataDir.spec, watchTabs.spec],
            summary: "the tab bar and what the selected tab does", about: Help.tabs
        ) { parsed, context throws(UsageError) in
            let host = try context.host(parsed)
            let tabs = TabsCommand(
                selected: parsed[select, default: TrackingTab.tabID], watch: parsed.isSet(watchTabs), host: host)
            return await tabs.run()
        },
    ]
}
