import ArgumentParsing

/// One `order-tracking` command (ArgumentParsing's declaration): what runs it gets the parsed arguments and the
/// process's environment and streams.
typealias Command = CommandDeclaration<@Sendable (ParsedArguments, CommandContext) async throws -> ExitCode>

extension OrderTrackingApp {
    /// Every command; the first, tracking, is what runs when the first word is not a command's name.
    static let commands: [Command] = [
        Command(name: "track", options: track, help: Help.main) { parsed, context throws(UsageError) in
            if parsed.isSet(versionOption) { return context.say(Help.version) }
            return try await runTracking(parsed, context)
        },
        Command(
            name: "screen", options: screens + [inputOption, actionOption], repeatable: [inputOption.name],
            about: Help.screen
        ) { parsed, context throws(UsageError) in try await runNamedScreen(parsed, context) },
        Command(name: "checkout", options: screens + [methodOption, payOption], about: Help.checkout) {
            parsed, context throws(UsageError) in try await runCheckout(parsed, context)
        },
        Command(name: "preview", options: preview, repeatable: [event.name, inputOption.name], about: Help.preview) {
            parsed, context throws(UsageError) in try await runPreview(parsed, context)
        },
        Command(name: "components", options: [formatOption, helpOption], about: Help.components) {
            parsed, context throws(UsageError) in
            guard parsed.positionals.isEmpty else { throw UsageError(message: "components takes no arguments") }
            let json = try format(parsed)
            return ComponentsCommand(json: json, host: try context.host(parsed)).run()
        },
        Command(name: "cancel", options: common + [formatOption, analyticsOption], about: Help.cancel) {
            parsed, context throws(UsageError) in
            guard parsed.positionals.count == 1 else { throw UsageError(message: "cancel needs exactly one ORDER-ID") }
            let order = try validateID(parsed.positionals[0], kind: "order")
            let host = try context.host(parsed)
            let json = try format(parsed)
            let analytics = try host.analytics(parsed.value(analyticsOption), order: order)
            return await CancelCommand(order: order, host: host, json: json, analytics: analytics).run()
        },
        Command(name: "login", options: common + [password, dataDir, verbose], about: Help.login) {
            parsed, context throws(UsageError) in
            guard parsed.positionals.count == 1 else { throw UsageError(message: "login needs exactly one USER-ID") }
            let user = try validateID(parsed.positionals[0], kind: "user")
            let host = try context.host(parsed)
            let login = LoginCommand(
                userID: user, password: parsed.value(password), verbose: parsed.isSet(verbose), host: host)
            return await login.run()
        },
        Command(name: "logout", options: [dataDir, helpOption], about: Help.logout) {
            parsed, context throws(UsageError) in
            guard parsed.positionals.isEmpty else { throw UsageError(message: "logout takes no arguments") }
            return LogoutCommand(host: try context.host(parsed)).run()
        },
        Command(name: "tabs", options: common + [select, dataDir, watchTabs], about: Help.tabs) {
            parsed, context throws(UsageError) in
            guard parsed.positionals.isEmpty else {
                throw UsageError(message: "tabs takes no arguments; use --select ID")
            }
            let host = try context.host(parsed)
            let tabs = TabsCommand(
                selected: parsed.value(select) ?? TrackingTab.tabID, watch: parsed.isSet(watchTabs), host: host)
            return await tabs.run()
        },
    ]

}
