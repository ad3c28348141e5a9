import ArgumentParsing
import Core
import CoreTesting
import Foundation
import HostComposition
import HostIO
import ScreenRuntime
import Testing

@testable import OrderTrackingKit

/// A hypothetical tip card that takes a person's tip (`tip.chosen`) from its context: no host code knows it.
private struct TipCard: Component, RefreshingOnEvents {
    static let id: ComponentID = "tip"
    static let chosen = EventName<String>("tip.chosen")
    static let refreshingEvents: Set<AnyEventName> = [chosen]
    static let registration = ComponentRegistration(module: "TipDemo", endpoint: "(none)") { TipCard() }

    func load(_ context: ComponentContext) async throws -> String { context.latest(Self.chosen) ?? "none" }

    func card(for state: ComponentState<String>, context: ComponentContext) -> Block? {
        state.info.map { Block(title: "Tip", rows: [Row("Tip", value: $0)]) }
    }
}

/// Inputs by name: every prompt of a screen's definition is given on the command line as `--input NAME=VALUE`
/// (on `screen` and `checkout`), routed at the start as a typed value is; `--method` and `--promo` are aliases.
@Suite struct ScreenInputTests {
    static let definition = #"""
        {"title": "Tip demo {cart}", "inputs": ["cart"], "components": ["tip"],
         "prompts": [{"name": "tip", "key": "t", "label": "Tip", "event": "tip.chosen", "card": "tip"}]}
        """#

    /// `arguments` parsed as `order-tracking` parses them, shown by the `screen` command's own options on a host
    /// whose registry also holds the tip card and whose backend serves the tip-demo screen.
    static func run(_ arguments: [String]) async throws -> (status: ExitCode, out: String, err: String) {
        let written = Locked((out: "", err: ""))
        let streams = StandardStreams { descriptor, text in
            written.withLock { if descriptor == 1 { $0.out += text } else { $0.err += text } }
        }
        let terminal = Terminal(environment: ["COLUMNS": "40"], noColorFlag: true, streams: streams)
        let clock = VirtualClock()
        let made = try HostEnvironment.make(
            HostOptions(), environment: CLI.environment, terminal: terminal, clock: clock, workers: nil)
        var registry = made.registry
        try registry.register(TipCard.registration)
        let backend = CannedBackend(["screens/tip-demo.json": .json(Self.definition)], clock: clock)
        let host = HostEnvironment(
            backend: backend, clock: clock, timeout: .seconds(5), terminal: terminal, registry: registry,
            environment: made.environment, store: made.store, login: made.login, tabs: made.tabs,
            attempts: made.attempts, workers: nil)
        let invocation = try Invocation.of(
            ["screen", "tip-demo"] + arguments, tool: "order-tracking", commands: OrderTrackingApp.commands, usage: "")
        guard case .run(_, let parsed) = invocation else { throw Failure("not a run") }
        let options = try OrderTrackingApp.namedScreenOptions(parsed)
        let status = await clock.drive { await ScreenRun(options: options, host: host.screens).run() }
        let (out, err) = written.withLock { ($0.out, $0.err) }
        return (status ?? .fatal, out, err)
    }

    @Test func aNewPromptsValueGivenByNameReachesItsCard() async throws {
        let given = try await Self.run(["--input", "cart=C100", "--input", "tip=10"])
        #expect(given.status == .ok, "\(given.err)")
        #expect(given.out.contains("│ Tip") && given.out.contains("10 │"), "\(given.out)")
        #expect(given.err.isEmpty, "\(given.err)")
        let none = try await Self.run(["--input", "cart=C100"])
        #expect(none.status == .ok && none.out.contains("none │"), "not given: the card has no tip (\(none.out))")
    }

    @Test func anUnknownNameIsRefusedWithTheScreensInputsAndPrompts() async throws {
        let typo = try await Self.run(["--input", "cart=C100", "--input", "tipp=10"])
        #expect(typo.status == .usage)
        #expect(
            typo.err
                == "order-tracking: screen 'tip-demo' takes no input 'tipp' (its inputs: cart; its prompts: tip); "
                + "did you mean 'tip'? (see 'order-tracking screen --help')\n")
    }

    @Test(arguments: [
        (
            ["checkout", "C100", "--input", "tip=10"],
            "screen 'checkout' takes no input 'tip' (its inputs: cart; its prompts: method, promo)"
        ),
        (
            ["checkout", "C100", "--input", "promo=SAVE10", "--promo", "SAVE10"],
            "--input promo given twice ('SAVE10' and 'SAVE10')"
        ),
        (["checkout", "C100", "--input", "method=cash", "--input", "method=visa4242"], "--input method given twice"),
        (["checkout", "C100", "--input", "cart=C200"], "--input cart given twice ('C100' and 'C200')"),
        (
            ["checkout", "C100", "--input", "promo=SAVE-10"],
            "--input promo 'SAVE-10' is not what the Promo code prompt takes: use 1 to 16 letters and digits"
        ),
        (["screen", "checkout", "--input", "cart=C100", "--input", "promos=SAVE10"], "did you mean 'promo'?"),
        // One rule per input (issue 58): a code is refused with the same advice whatever broke it, an id with its own.
        (
            ["checkout", "C100", "--input", "promo=SAVE10=X"],
            "--input promo 'SAVE10=X' is not what the Promo code prompt takes: use 1 to 16 letters and digits"
        ),
        (
            ["checkout", "C100", "--input", "promo=SAVE10-X"],
            "--input promo 'SAVE10-X' is not what the Promo code prompt takes: use 1 to 16 letters and digits"
        ),
        (
            ["checkout", "C100", "--promo", "SAVE10-X"],
            "--promo 'SAVE10-X' is not a code: use 1 to 16 letters and digits"
        ),
        (
            ["checkout", "C100", "--method", "visa=1"],
            "--method 'visa=1' is not a code: use 1 to 16 letters and digits"
        ),
        (
            ["screen", "checkout", "--input", "cart=C1/00"],
            "invalid cart id 'C1/00': use 1 to 64 letters, digits, '-' or '_'"
        ),
        (
            ["preview", "promo", "--event", "promo.entered=SAVE-10"],
            "--event promo.entered 'SAVE-10' is not a code: use 1 to 16 letters and digits"
        ),
        (
            ["preview", "payment", "--input", "order=a/b"],
            "invalid order id 'a/b': use 1 to 64 letters, digits, '-' or '_'"
        ),
    ])
    func aWrongInputIsAUsageErrorThatSaysWhatToType(arguments: [String], message: String) async {
        let run = await InProcess.run(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test(arguments: [
        ["checkout", "C100", "--input", "promo=" + String(repeating: "A", count: 100_000)],
        ["checkout", "C100", "--promo", String(repeating: "A", count: 100_000)],
        ["screen", "checkout", "--input", "cart=" + String(repeating: "/", count: 100_000)],
    ])
    func aHugeValueIsRefusedWithoutBeingEchoedWhole(arguments: [String]) async {
        let run = await InProcess.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr.count < 300, "\(run.stderr.prefix(300))")
        #expect(run.stderr.contains("…' (100000 characters)"), "\(run.stderr.prefix(300))")
    }

    /// The aliases are the inputs: the same bytes out, whichever spelling, and on `screen checkout` too.
    @Test(arguments: [
        (["--promo", "SAVE10"], ["--input", "promo=SAVE10"]),
        (["--method", "cash"], ["--input", "method=cash"]),
        (["--method", "cash", "--pay"], ["--input", "method=cash", "--pay"]),
        (["--promo", "SAVE10", "--format", "json"], ["--input", "promo=SAVE10", "--format", "json"]),
    ])
    func anAliasAndItsInputGiveTheSameScreen(alias: [String], input: [String]) async {
        let aliased = await InProcess.run(["checkout", "C100"] + alias)
        let named = await InProcess.run(["checkout", "C100"] + input)
        let screen = await InProcess.run(
            ["screen", "checkout", "--input", "cart=C100"] + input.filter { $0 != "--pay" })
        #expect(aliased.status == named.status && aliased.stderr == named.stderr)
        #expect(aliased.stdout == named.stdout)
        #expect(aliased.stdout.contains(alias[1] == "SAVE10" ? "SAVE10" : "Cash"), "\(aliased.stdout)")
        if !alias.contains("--pay") { #expect(screen.stdout == named.stdout, "\(screen.stderr)") }
    }

    @Test func aPromoGivenByNameOnTheTrackingScreenIsTaken() async {
        let promo = await InProcess.run(["screen", "tracking", "--input", "order=1234", "--input", "promo=SAVE10"])
        #expect(promo.status == 0, "\(promo.stderr)")
        #expect(promo.stdout.contains("✓ SAVE10"))
    }
}
