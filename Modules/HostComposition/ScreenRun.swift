import ArgumentParsing
import ComponentWorkers
import Core
import HostIO
import InputRules
import LiveScreen
import SafeText
import ScreenRuntime
import ScreenSinks

/// What a screen command (`order-tracking [ORDER-ID]`, `screen NAME`, `checkout CART-ID`) was asked to show.
public struct ScreenOptions: Sendable {
    /// The command that asked for it (`screen`, `checkout`; nil for tracking), for the help a usage error names.
    public var command: String?
    /// The screen's name: `screens/NAME.json` on the backend.
    public var name = "tracking"
    /// Its inputs by name, in the order given: the ids its cards read (`cart`) and its prompts' values (`promo`).
    public var inputs: [(String, String)] = [("order", "1234")]
    /// One JSON report (or NDJSON under watch) instead of text.
    public var json = false
    /// No in-place redraw.
    public var plain = false
    /// Follow the screen until it is finished (or a signal ends the run).
    public var watch = false
    /// Under `--watch`, how often every card is reloaded when none asked for an earlier look.
    public var every: Duration = .seconds(10)
    /// Under `--watch`, how long a card keeps its last info, marked stale, while the backend cannot be reached.
    public var staleLimit: Duration = .seconds(60)
    /// `--trace` lines on stderr.
    public var trace = false
    /// An action to carry out once the cards have loaded (`--pay`, `--action ID`).
    public var perform: String?

    /// The tracking screen of the demo order, text, once.
    public init() {}
}

/// What a command-line host hands a screen run, composed once by its composition root: where definitions and
/// layouts come from, its terminal and attempts, the words that are its own (its name, its demo's screens and
/// subjects) and the tab bar its live screen shows.
public struct ScreenHost: Sendable {
    /// The tool's name, which its lines and usage errors start with (`order-tracking`).
    public let tool: String
    /// The cards it can show.
    public let registry: ComponentRegistry
    /// Where definitions, layouts and the cards' data come from.
    public let backend: any Backend
    /// The clock every screen runs on.
    public let clock: any CourierClock
    /// Each load's deadline (`--timeout`).
    public let timeout: Duration
    /// Where frames and lines go.
    public let terminal: Terminal
    /// Where the attempts of a person's actions are kept until their outcome is known.
    public let attempts: any AttemptLedger
    /// The squads' worker processes (nil: their code runs in this process, as in the host's in-process tests).
    public let workers: WorkerPool?
    /// The host's own definition of a screen a backend laid out before screens were data does not have.
    public let fallback: @Sendable (String) -> ScreenDefinition?
    /// Said after "no screen NAME on this backend" ("the demo has tracking and checkout").
    public let known: String
    /// A hint for a subject whose layout cannot be had, by its input's name ("try the demo order 1234").
    public let hint: @Sendable (String) -> String?
    /// The card the live screen draws as its tab bar, and the bar it follows (stopped once the screen ends).
    public let bar: (card: ComponentID, follow: @Sendable () -> (tabs: ConsoleTabs, stop: @Sendable () -> Void))?

    /// A host of these parts.
    public init(
        tool: String, registry: ComponentRegistry, backend: any Backend, clock: any CourierClock, timeout: Duration,
        terminal: Terminal, attempts: any AttemptLedger, workers: WorkerPool?,
        fallback: @escaping @Sendable (String) -> ScreenDefinition?,
        known: String, hint: @escaping @Sendable (String) -> String?,
        bar: (card: ComponentID, follow: @Sendable () -> (tabs: ConsoleTabs, stop: @Sendable () -> Void))?
    ) {
        (self.tool, self.registry, self.backend, self.clock, self.timeout) = (tool, registry, backend, clock, timeout)
        (self.terminal, self.attempts, self.fallback, self.known) = (terminal, attempts, fallback, known)
        (self.hint, self.bar, self.workers) = (hint, bar, workers)
    }

    /// Screen `name`'s definition from the backend, or nil when it cannot be had (said on stderr: fatal; unsaid
    /// when the run was cancelled). A backend that has no `screens/NAME.json` gets the host's own, if it has one.
    public func definition(_ name: String) async -> ScreenDefinition? {
        do { return try await ScreenDefinition.fetch(name, backend: backend, clock: clock, timeout: timeout) } catch {
            // Cut short by a signal or a vanished reader: the run ends with its goodbye, not a failed fetch.
            if Task.isCancelled { return nil }
            if case .notFound(let path) = error {
                if let own = fallback(name) { return own }
                terminal.err("no screen '\(name)' on this backend (\(path): 404); \(known)")
            } else {
                terminal.err(error.advice(what: "screen '\(name)'", timeout: timeout))
            }
            return nil
        }
    }

    /// The runtime for `definition` with `settings` (its ids are the screen's inputs), with `extra` cards at its
    /// end (those a prompt feeds), or nil when a per-subject layout cannot be fetched (said on stderr: fatal;
    /// unsaid when the run was cancelled).
    public func runtime(
        _ definition: ScreenDefinition, settings: ScreenSettings, trace: Bool = false, analytics: AnalyticsLog?,
        adding extra: [ComponentID] = []
    ) async -> ScreenRuntime? {
        if trace { workers?.trace { [terminal] in terminal.err($0) } }
        do {
            return try await definition.runtime(
                settings: settings, registry: registry, backend: backend, clock: clock,
                report: RuntimeReport(terminal: terminal, trace: trace, analytics: analytics), adding: extra)
        } catch {
            if Task.isCancelled { return nil }
            let subject = definition.inputs.first.map { (kind: $0, id: settings.ids[$0] ?? "") }
            terminal.err(
                error.advice(
                    what: "the screen layout", subject: subject, hint: subject.flatMap { hint($0.kind) },
                    timeout: settings.timeout))
            return nil
        }
    }
}

/// Any screen the backend defines: fetch its definition (`screens/NAME.json`), hand its cards to the screen
/// runtime and its frames to the output (painted in place, frames, JSON, or the live screen a person drives),
/// then say what an action came to. On the live screen a finished action may lead to another screen (pay → the
/// new order's tracking), which this same run then shows. The host never decodes a card's data or decides a
/// card's business.
public struct ScreenRun: Sendable {
    /// What was asked for.
    public var options: ScreenOptions
    /// What the host composed.
    public let host: ScreenHost
    /// `--analytics FILE`, when given: where the squads' analytics events go.
    public var analytics: AnalyticsLog?

    /// A run of `options` on `host`, its analytics to `analytics`.
    public init(options: ScreenOptions, host: ScreenHost, analytics: AnalyticsLog? = nil) {
        (self.options, self.host, self.analytics) = (options, host, analytics)
    }

    /// Shows the screen (and those a done action leads to) and says how it ended.
    public func run() async -> ExitCode {
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
                    "\(host.tool): \(line) (the answer named no \(name): no \(definition.name) screen to follow)")
                return .ok
            }
            if done == nil, let refusal = refusal(of: options, by: definition, missing: missing) {
                host.terminal.err(refusal.line(tool: host.tool))
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
            options = ScreenOptions()
            (options.name, options.inputs) = (next.screen, next.inputs.sorted { $0.key < $1.key }.map { ($0, $1) })
            options.watch = true
        }
    }

    /// A screen that could not be loaded (its reason is on stderr already): fatal, unless it is the one a done
    /// action leads to. The action is done (a payment made: "Paid … order 9999"), and a next screen that cannot
    /// be shown (the order not found, an id no path may hold) must not turn that into a failure a script retries.
    private func afterwards(_ done: ScreenFrame?, _ name: String) -> ExitCode {
        guard let done else { return .fatal }
        let line = ActionReport(done.action)?.lines.first ?? "done"
        host.terminal.err("\(host.tool): \(line) (the \(name) screen that follows could not be shown)")
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
    public static func refusal(of value: String, by prompt: ScreenPrompt, command: String?) -> UsageError? {
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
        (settings.attempts, settings.runner) = (host.attempts, host.workers ?? InProcess())
        settings.prompts = interactive ? definition.prompts.map(\.prompt) : []
        // The cards a prompt feeds join the screen when a person may type into it, or was given its value.
        let adding = (interactive ? definition.prompts : given.map(\.0)).compactMap(\.card)
        guard
            let runtime = await host.runtime(
                definition, settings: settings, trace: options.trace, analytics: analytics, adding: adding)
        else { return nil }
        let bar = host.bar.flatMap { bar in runtime.registrations.contains { $0.id == bar.card } ? bar : nil }
        let followed = bar?.follow()
        let final = await presenter.show(
            runtime, tabs: followed?.tabs ?? .none, skipping: Set(host.bar.map { [$0.card] } ?? []))
        followed?.stop()
        return (final, interactive)
    }

    /// A failed screen is fatal; an action's ending decides the rest (not on the live screen, where a person saw
    /// it); otherwise complete or degraded.
    private func exitCode(_ final: ScreenFrame, interactive: Bool) -> ExitCode {
        if final.failure != nil { return .fatal }
        if !interactive, let action = ActionReport(final.action) {
            // What happened to the money stands, whatever then happens to the report (a full disk, a closed pipe).
            switch action.ending {
            case .done: host.terminal.streams.keep(outcome: action.lines.joined(separator: " "))
            case .unknown:
                host.terminal.streams.keep(outcome: "outcome unknown: " + action.lines.joined(separator: " "))
            default: break
            }
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
