import Core
import CoreTesting
import Foundation
import HostIO
import ScreenRuntime
import ScreenSinks
import Testing

/// What a sink wrote, by stream.
private final class Written: Sendable {
    let text = Locked((out: "", err: ""))
}

private struct Captured: Sendable {
    private let written = Written()
    var out: String { written.text.withLock { $0.out } }
    var err: String { written.text.withLock { $0.err } }
    var streams: StandardStreams {
        let written = written
        return StandardStreams { descriptor, text in
            written.text.withLock { if descriptor == 1 { $0.out += text } else { $0.err += text } }
        }
    }
}

private func frame(_ cards: [CardFrame], finished: Bool = true, settledAt: Date? = nil) -> ScreenFrame {
    ScreenFrame(cards: cards, elapsedMs: 12, finished: finished, settledAt: settledAt)
}

/// When the screens of these tests settle first, on the runtime's clock (2027-01-15T08:00:00Z).
private let settled = Date(timeIntervalSince1970: 1_800_000_000)

private func paymentCard(amount: Double = 45.5) -> CardFrame {
    var card = CardFrame(id: "payment", module: "Payments")
    let row = Row("Visa •••• 4242", value: "SAR \(amount)")
    (card.phase, card.block) = (.info, Block(title: "Payment", rows: [row]))
    card.info = Data(#"{"amount":\#(amount)}"#.utf8)
    card.settledMs = 7
    return card
}

private func hiddenRider() -> CardFrame {
    var card = CardFrame(id: "delivery", module: "Location")
    (card.phase, card.visible, card.reason) = (.failed, false, "HTTP 500 at riders/1234.json")
    return card
}

@Suite struct StaleMarkTests {
    @Test func aStaleCardIsDrawnWithWhenItWasLastFresh() throws {
        var card = paymentCard()
        #expect(card.shownBlock == card.block, "a fresh card is drawn as the squad drew it")
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        card.staleSince = since
        let rows = try #require(card.shownBlock?.rows)
        #expect(rows.count == 2)
        #expect(rows.last == Row("as of \(ScreenOutput.clockTime(since))", value: "stale", style: .warning))
    }

    @Test func clockTimeIsTwoDigitsEachInTheMachinesZone() {
        let text = ScreenOutput.clockTime(Date(timeIntervalSince1970: 1_800_000_000))
        #expect(text.count == 8 && text.split(separator: ":").allSatisfy { $0.count == 2 })
    }
}

@Suite struct JSONReportTests {
    @Test func everyComponentCarriesEveryKeyInOrderWithInfoBytesAsTheSquadWroteThem() {
        var stale = paymentCard()
        stale.staleSince = Date(timeIntervalSince1970: 1_800_000_000)
        let text = JSONReport(subject: tracking1234, frame: frame([stale, hiddenRider()])).text
        #expect(
            text == #"{"components":[{"elapsed_ms":7,"hidden":false,"id":"payment","info":{"amount":45.5},"#
                + #""module":"Payments","reason":null,"stale_since":"2027-01-15T08:00:00Z","state":"info"},"#
                + #"{"elapsed_ms":null,"hidden":true,"id":"delivery","info":null,"module":"Location","#
                + #""reason":"HTTP 500 at riders/1234.json","stale_since":null,"state":"failed"}],"#
                + #""elapsed_ms":12,"order":"1234","screen":"tracking","status":"degraded"}"#)
    }

    @Test func comparableReportsLeaveOutWhatChangesOnEveryRun() {
        let text = JSONReport(subject: tracking1234, frame: frame([paymentCard()]), includingTimes: false).text
        #expect(text.contains(#""elapsed_ms":null,"hidden""#))
        #expect(text.hasSuffix(#""elapsed_ms":null,"order":"1234","screen":"tracking","status":"complete"}"#))
    }
}

@Suite struct VerdictReportTests {
    private let entries: [VerdictReport.Entry] = [
        ("order", .allow, nil),
        ("payment", .confirm("refund SAR 45.50 to Visa •••• 4242", facts: ["amount": "45.50"]), nil),
    ]

    /// The tracking screen's words for its action, as its definition gives them: the report has none of its own.
    private func report(_ order: String, _ entries: [VerdictReport.Entry]) -> VerdictReport {
        var spec = ActionSpec(id: "cancel-order", key: "c", label: "Cancel")
        spec.allowed = "Order {order} can be cancelled."
        spec.vetoed = "Order {order} can't be cancelled ({vetoes})."
        return VerdictReport(action: spec, inputs: ["order": order], answer: "cancellable", entries: entries)
    }

    @Test func everyoneAllowingMeansTheOrderCanBeCancelled() {
        let report = report("3333", entries)
        #expect(report.vetoes == 0)
        #expect(
            report.lines == [
                "order: ok", "payment: ok: refund SAR 45.50 to Visa •••• 4242", "Order 3333 can be cancelled.",
            ])
        #expect(report.json.text.contains(#""cancellable":true"#))
    }

    @Test func aCardThatCouldNotAnswerIsAVetoWithItsReason() {
        let report = report(
            "1234",
            entries + [("delivery", .veto("the rider has\u{1B}[2J picked it up"), nil)] + [("eta", nil, "timed out")])
        #expect(report.vetoes == 2)
        #expect(
            report.lines.suffix(3) == [
                "delivery: veto: the rider has␛[2J picked it up", "eta: veto: could not check (timed out)",
                "Order 1234 can't be cancelled (2 vetoes).",
            ])
        #expect(report.json.text.contains(#""reason":"could not check (timed out)""#))
        #expect(report.json.text.contains(#""cancellable":false"#))
    }

    @Test func nobodyToAskIsTheDefinitionsOwnCannotTell() {
        var spec = ActionSpec(id: "return-item")
        spec.unknown = "Nobody can say whether item {item} can go back."
        let report = VerdictReport(action: spec, inputs: ["item": "7"], answer: "returnable", entries: [])
        #expect(report.outcome == .cannotTell)
        #expect(report.lines == ["Nobody can say whether item 7 can go back."])
        #expect(report.json.text == #"{"item":"7","returnable":null,"verdicts":[],"vetoes":0}"#)
    }
}

@Suite struct ScreenOutputTests {
    private func output(_ captured: Captured, json: Bool = false, watch: Bool = false) -> ScreenOutput {
        let terminal = Terminal(environment: ["COLUMNS": "48"], noColorFlag: true, streams: captured.streams)
        return ScreenOutput(subject: tracking1234, json: json, plain: false, watch: watch, terminal: terminal)
    }

    @Test func withoutATerminalOnlyTheLastFrameIsPrintedAndHiddenCardsAreSaidOnStderr() {
        let captured = Captured()
        let screen = output(captured)
        #expect(screen.mode == .plain)
        screen.show(frame([CardFrame(id: "payment", module: "Payments"), hiddenRider()], finished: false), .first)
        #expect(captured.out.isEmpty, "no skeleton in a pipe")
        screen.finish(frame([paymentCard(), hiddenRider()]))
        #expect(captured.out.hasPrefix("Order 1234\n"))
        #expect(captured.out.contains("Visa •••• 4242"))
        #expect(!captured.out.contains("delivery"))
        #expect(captured.err == "delivery hidden: HTTP 500 at riders/1234.json\n")
    }

    @Test func watchingAsNDJSONWritesALineOnlyWhenTheScreenChanged() throws {
        let captured = Captured()
        let screen = output(captured, json: true, watch: true)
        let later = settled.addingTimeInterval(10)
        screen.show(frame([paymentCard()], finished: false), .first)
        screen.show(frame([paymentCard()], finished: false, settledAt: settled), .settled)
        screen.show(frame([paymentCard()], finished: false, settledAt: later), .settled)
        screen.show(frame([paymentCard(amount: 40)], finished: false, settledAt: later), .settled)
        screen.finish(frame([paymentCard(amount: 40)], settledAt: later))
        let lines = captured.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "the unchanged round wrote nothing, and finish repeats nothing")
        #expect(lines[0].contains(#""seq":1"#) && lines[0].contains(#""time":"2027-01-15T08:00:00Z""#))
        #expect(lines[1].contains(#""seq":2"#) && lines[1].contains(#""time":"2027-01-15T08:00:10Z""#))
    }

    @Test func watchingPlainFramesAreHeadedByTheirTime() {
        let captured = Captured()
        let screen = output(captured, watch: true)
        screen.show(frame([paymentCard()], finished: false, settledAt: settled), .settled)
        screen.show(frame([paymentCard()], finished: false, settledAt: settled.addingTimeInterval(10)), .settled)
        #expect(captured.out.hasPrefix("── \(ScreenOutput.clockTime(Date(timeIntervalSince1970: 1_800_000_000))) "))
        #expect(captured.out.components(separatedBy: "Order 1234").count == 2, "one frame for two equal rounds")
    }
}

@Suite struct AnalyticsLogTests {
    @Test func eachEventIsOneLineSayingWhereAndWhen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("analytics-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var registry = ComponentRegistry()
        try registry.register(SyntheticCard.registration)
        let captured = Captured()
        let terminal = Terminal(environment: [:], noColorFlag: true, streams: captured.streams)
        let log = try #require(
            try AnalyticsLog.open(
                path, subject: ["order": "1234"], registry: registry, clock: VirtualClock(), terminal: terminal))
        log.record(AnalyticsEvent("payment_card_shown", ["brand": "visa"]), from: SyntheticCard.id)
        log.record(AnalyticsEvent("gone"), from: "nobody")
        // After the pay hop the same file hears the new screen's events, tagged with its own subject.
        log.about(["cart": "C100"]).record(AnalyticsEvent("paid", ["time": "forged"]), from: SyntheticCard.id)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == #"{"component":"synthetic","event":"payment_card_shown","module":"CoreTesting","order":"1234","#
                + #""properties":{"brand":"visa"},"time":"2027-01-15T08:00:00Z"}"# + "\n"
                + #"{"component":"nobody","event":"gone","module":"?","order":"1234","properties":{},"#
                + #""time":"2027-01-15T08:00:00Z"}"# + "\n"
                + #"{"cart":"C100","component":"synthetic","event":"paid","module":"CoreTesting","#
                + #""properties":{"time":"forged"},"time":"2027-01-15T08:00:00Z"}"# + "\n")
        #expect(captured.err.isEmpty)
        let none = try AnalyticsLog.open(
            nil, subject: ["order": "1"], registry: registry, clock: VirtualClock(), terminal: terminal)
        #expect(none == nil)
    }
}

/// An action as the outputs say it: each ending its own outcome (unknown is never "failed"), and the verdicts it
/// went ahead on reported for done, failed and unknown, not only for a veto.
@Suite struct ActionReportTests {
    static let verdicts = [
        ActionVerdict(id: "total", verdict: .confirm("SAR 1.00", facts: ["amount": "SAR 1.00"]), reason: nil)
    ]

    static func action(_ progress: ActionProgress) throws -> [String: Any] {
        let text = JSONReport(
            subject: tracking1234, frame: ScreenFrame(cards: [], elapsedMs: 0, finished: true, action: progress)
        ).text
        let report = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        return report?["action"] as? [String: Any] ?? [:]
    }

    @Test func everyEndingSaysItsOutcomeAndKeepsTheVerdicts() throws {
        let endings: [(ActionProgress, ActionReport.Ending, String)] = [
            (
                .done(
                    action: "pay", fields: ["amount": "SAR 1.00"], line: "Paid", result: "paid", verdicts: Self.verdicts
                ), .done, "done"
            ),
            (
                .failed(action: "pay", reason: "HTTP 402: refused, nothing was done", verdicts: Self.verdicts), .failed,
                "failed"
            ),
            (
                .unknown(
                    action: "pay", reason: "HTTP 502", line: "It may have gone through.", facts: ["amount": "SAR 1.00"],
                    verdicts: Self.verdicts), .unknown, "unknown"
            ),
        ]
        for (progress, ending, outcome) in endings {
            #expect(ActionReport(progress)?.ending == ending)
            let action = try Self.action(progress)
            #expect(action["outcome"] as? String == outcome)
            let verdicts = action["verdicts"] as? [[String: Any]] ?? []
            #expect(verdicts.count == 1 && verdicts.first?["id"] as? String == "total", "\(outcome): \(action)")
        }
    }

    @Test func anUnknownOutcomeSaysWhyAndWhatToDoAndWhatWasSent() throws {
        let progress = ActionProgress.unknown(
            action: "pay", reason: "carts/C1/pay: server answered HTTP 502",
            line: "The payment may have gone through: check before paying again.", facts: ["amount": "SAR 1.00"],
            verdicts: Self.verdicts)
        #expect(
            ActionReport(progress)?.lines == [
                "pay: carts/C1/pay: server answered HTTP 502",
                "The payment may have gone through: check before paying again.",
            ])
        let action = try Self.action(progress)
        #expect(action["sent"] as? [String: String] == ["amount": "SAR 1.00"])
        #expect(
            action["reason"] as? String
                == "carts/C1/pay: server answered HTTP 502. The payment may have gone through: check before paying again."
        )
        let request = ActionRequest(
            action: "pay", endpoint: try Endpoint("carts", "C1", "pay"), intent: [:], words: [:])
        #expect(
            ActionReport(.sending(request, verdicts: []))?.ending == .unknown, "a run that ended mid-send cannot know")
    }

    @Test func aDoneActionWhoseAnswerCouldNotBeReadSaysSo() throws {
        let progress = ActionProgress.done(
            action: "pay", fields: ["amount": "SAR 1.00"], line: "Pay: done, but …", result: "paid",
            verdicts: Self.verdicts, unread: "carts/C1/pay: the answer is empty")
        let action = try Self.action(progress)
        #expect(action["outcome"] as? String == "done")
        #expect(action["reason"] as? String == "the answer could not be read: carts/C1/pay: the answer is empty")
    }
}

/// The tracking screen of order 1234, as the host's definition names it (the sinks hold no screen of their own).
let tracking1234 = ScreenSubject(screen: "tracking", title: "Order {order}", inputs: [("order", "1234")])

/// Runs each card's code as a worker would, except that drawing the skeleton fails as a crashed worker's call does.
private struct SkeletonCrashes: ComponentRunner {
    static let crash = Failure("CoreTesting's code stopped: Fatal error: the skeleton trapped")

    func kernel(_ registration: ComponentRegistration, context: ComponentContext) -> CardKernel {
        let local = registration.kernel(context: context)
        var calls = local.calls
        let draw = calls.draw
        calls.skeletonAtOnce = nil
        calls.draw = { (state: ComponentState<AnyInfo>) async throws(Failure) -> Block? in
            if case .loading = state { throw Self.crash }
            return try await draw(state)
        }
        return CardKernel(
            id: local.id, consumes: local.consumes, refreshesOn: local.refreshesOn, validates: local.validates,
            calls: calls)
    }
}

@Suite struct CardPreviewTests {
    @Test func aSkeletonWhoseCodeCrashedIsShownAsTheCardsFailureWithItsReason() async throws {
        var registry = ComponentRegistry()
        try registry.register(SyntheticCard.registration)
        let captured = Captured()
        let terminal = Terminal(environment: [:], noColorFlag: true, streams: captured.streams)
        let clock = VirtualClock()
        let preview = CardPreview(
            id: SyntheticCard.id, events: [], ids: ["card": "1"], payload: nil, state: .loading)
        let phase = await preview.show(
            registry: registry, backend: CannedBackend([:], clock: clock), clock: clock, timeout: .seconds(5),
            runner: SkeletonCrashes(), terminal: terminal)
        // The squad sees its crash and the message, and the preview's status says it failed (exit 2).
        #expect(phase == .failed)
        #expect(captured.out.contains("state: failed"), "\(captured.out)")
        #expect(captured.out.contains("(hidden: \(SkeletonCrashes.crash.reason))"), "\(captured.out)")
    }
}
