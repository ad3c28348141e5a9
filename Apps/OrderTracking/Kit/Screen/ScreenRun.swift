import ArgumentParsing
import InputRules
import LiveScreen
import SafeText
import ScreenRuntime
import ScreenSinks

/// Any screen the backend defines: fetch its definition (`screens/NAME.json`), hand its cards to the screen
/// runtime and its frames to the output (painted in place, frames, JSON, or the live screen a person drives),
/// then say what an action came to. On the live screen a finished action may lead to another screen (pay → the
/// new order's tracking), which this same run then shows. The host never decodes a card's data or decides a
/// card's business.
struct ScreenRun: Sendable {
    var options: ScreenOptions
    let host: HostEnvironment
    /// `--analytics FILE`, when given: where the squads' analytics events go.
    var analytics: AnalyticsLog?

    func run() async -> ExitCode {
        var options = options
        var done: ScreenFrame?
        while true {
            guard let definition = await host.definition(options.name) else { return afterwards(done, options.name) }
            // The screen a done action leads to takes its ids from the answer, never a prompt's value.
            if done != nil { options.inputs = options.inputs.filter { definition.inputs.contains($0.0) } }
            let missing = definition.inputs.filter { name in !options.inputs.contains { $0.0 == name } }
            if let done, let name = missing.first {
                // The action is done, but its answer does not say where to go next: the run ends there, done.
                let line = ActionReport(done.action)?.lines.first ?? "done"
                host.terminal.err(
                    "order-tracking: \(line) (the answer named no \(name): no \(definition.name) screen to follow)")
                return .ok
            }
            if done == nil, let refusal = refusal(of: options, by: definition, missing: missing) {
                host.terminal.err(refusal.line(tool: "order-tracking"))
                return .usage
            }
            guard let (final, interactive) = await show(definition, options) else {
                return afterwards(done, definition.name)
            }
            // A run cancelled by a signal or a vanished reader ends with the screen it was on.
            guard interactive, let next = final.next, !Task.isCancelled else {
                return exitCode(final, interactive: interactive)
            }
            done = final
            options = ScreenOptions(name: next.screen, inputs: next.inputs.sorted { $0.key < $1.key }.map { ($0, $1) })
            options.watch = true
        }
    }

    /// A screen that could not be loaded (its reason is on stderr already): fatal, unless it is the one a done
    /// action leads to. The action is done (a payment made: "Paid … order 9999"), and a next screen that cannot
    /// be shown (the order not found, an id no path may hold) must not turn that into a failure a script retries.
    private func afterwards(_ done: ScreenFrame?, _ name: String) -> ExitCode {
        guard let done else { return .fatal }
        let line = ActionReport(done.action)?.lines.first ?? "done"
        host.terminal.err("order-tracking: \(line) (the \(name) screen that follows could not be shown)")
        return .ok
    }

    /// Why `options` do not fit `definition`: an input it needs is missing, an input it does not take was given (by
    /// its ids' and prompts' names), a prompt's value is not what the prompt takes, or the action asked for is not
    /// one of its own (each with the words to type instead).
    private func refusal(of options: ScreenOptions, by definition: ScreenDefinition, missing: [String]) -> UsageError? {
        let command = options.command
        if let (name, _) = options.inputs.first(where: { !definition.inputNames.contains($0.0) }) {
            let list = { (names: [String]) in names.isEmpty ? "none" : names.joined(separator: ", ") }
            return UsageError(
                message:
                    "screen '\(definition.name)' takes no input '\(name)' (its inputs: \(list(definition.inputs)); "
                    + "its prompts: \(list(definition.prompts.map(\.name))))"
                    + suggestion(for: name, among: definition.inputNames), command: command)
        }
        for (name, value) in options.inputs where definition.inputs.contains(name) && !InputID.accepts(value) {
            return UsageError(
                message: "invalid \(name) id \(InputEcho.quoted(value)): \(InputID.advice)", command: command)
        }
        for prompt in definition.prompts {
            guard let (_, value) = options.inputs.first(where: { $0.0 == prompt.name }),
                let refusal = Self.refusal(of: value, by: prompt, command: command)
            else { continue }
            return refusal
        }
        if let name = missing.first {
            return UsageError(message: "screen '\(definition.name)' needs --input \(name)=VALUE", command: command)
        }
        if let id = options.perform, !definition.actions.contains(where: { $0.id == id }) {
            let ids = definition.actions.map(\.id)
            let known = ids.isEmpty ? "it has none" : "it has \(ids.joined(separator: ", "))"
            return UsageError(
                message: "screen '\(definition.name)' has no action '\(id)' (\(known))"
                    + suggestion(for: id, among: ids), command: command)
        }
        return nil
    }

    /// Why `prompt` does not take `value` given on the command line (`--input NAME=VALUE`), or nil when it does.
    static func refusal(of value: String, by prompt: ScreenPrompt, command: String?) -> UsageError? {
        guard !prompt.takes(value) else { return nil }
        return UsageError(
            message: "--input \(prompt.name) \(InputEcho.quoted(value)) is not what the "
                + "\(SafeText.visible(prompt.prompt.label)) prompt takes: \(InputCode.advice)", command: command)
    }

    private func show(_ definition: ScreenDefinition, _ options: ScreenOptions) async -> (ScreenFrame, Bool)? {
        let inputs = options.inputs.filter { definition.inputs.contains($0.0) }
        // The prompts given a value: each value said at the start, as a person would type it, in the screen's order.
        let given = definition.prompts.compactMap { prompt in
            options.inputs.first { $0.0 == prompt.name }.map { (prompt, prompt.event($0.1)) }
        }
        let subject = ScreenSubject(screen: definition.name, title: definition.title, inputs: inputs)
        // The inputs by name, built once (by the subject): the analytics' subject and the ids every card reads.
        let ids = subject.ids
        let analytics = analytics?.about(ids)
        let presenter = ScreenPresenter(
            subject: subject,
            json: options.json, plain: options.plain, watch: options.watch, terminal: host.terminal)
        let interactive = presenter.interactive
        var settings = ScreenSettings(ids: ids)
        (settings.timeout, settings.watch, settings.every) = (host.timeout, options.watch, options.every)
        (settings.staleLimit, settings.includeInfo) = (options.staleLimit, options.json)
        (settings.actions, settings.said) = (definition.actions, given.map(\.1))
        // The action itself: ``refusal(of:by:missing:)`` told a person when the screen has no such action.
        settings.perform = definition.actions.first { $0.id == options.perform }
        settings.attempts = host.attempts
        settings.prompts = interactive ? definition.prompts.map(\.prompt) : []
        // The cards a prompt feeds join the screen when a person may type into it, or was given its value.
        let adding = (interactive ? definition.prompts : given.map(\.0)).compactMap(\.card)
        guard
            let runtime = await host.runtime(
                definition, settings: settings, trace: options.trace, analytics: analytics, adding: adding)
        else { return nil }
        let bar = runtime.registrations.contains { $0.id == HostEnvironment.barCard }
        let tabs = SessionTabs(container: host.tabs, store: host.store)
        let final = await presenter.show(
            runtime, tabs: bar ? tabs.console : .none, skipping: [HostEnvironment.barCard])
        tabs.stop()
        return (final, interactive)
    }

    /// A failed screen is fatal; an action's ending decides the rest (not on the live screen, where a person saw
    /// it); otherwise complete or degraded.
    private func exitCode(_ final: ScreenFrame, interactive: Bool) -> ExitCode {
        if final.failure != nil { return .fatal }
        if !interactive, let action = ActionReport(final.action) {
            switch action.ending {
            case .done: return .ok
            case .vetoed: return .vetoed
            case .incomplete: return .incomplete
            case .pending: return .pending
            case .cannotTell: return .cannotTell
            case .failed: return .fatal
            case .unknown: return .outcomeUnknown
            }
        }
        return final.degraded ? .degraded : .ok
    }
}
