import Core
import Foundation
import ScreenRuntime
import TerminalUI
import Testing

/// A wrong expectation: what was checked, what was expected and what happened.
public struct HarnessMismatch: Error, CustomStringConvertible, Equatable {
    /// What was checked ("phases", "card").
    public let what: String
    /// The expected value, as text.
    public let expected: String
    /// The actual value, as text.
    public let actual: String

    /// Describes a mismatch.
    public init(what: String, expected: String, actual: String) {
        self.what = what
        self.expected = expected
        self.actual = actual
    }

    /// A readable diff for the test log.
    public var description: String { "\(what) mismatch\n--- expected\n\(expected)\n--- actual\n\(actual)" }
}

/// What the screen heard from the card under test, in order, as ``ComponentHarness/events`` records it: read off
/// the screen's own state after each step, so it is what production acted on, not a second machine's account.
public enum CardEvent: Sendable, Equatable {
    /// The card went off the screen after a failure, with the reason.
    case hide(Failure)
    /// A hidden card has info again and is back on the screen.
    case show
    /// Its info asked for another look after this long (`SelfRefreshing`); a watching screen obliges.
    case refresh(after: Duration)
    /// Its info says what the screen follows is finished (`Finishing`); said once.
    case finished
    /// A domain event it published (`EventPublishing`), after a load or after consuming another's event; each
    /// said once, as the screen routes it.
    case domain(DomainEvent)
}

/// One component on a one-card screen of the real `ScreenRuntime` (the reducer, `CardKernel` and effects
/// production runs), against canned answers on a virtual clock: a squad's whole test rig in one object. It
/// records, in order, the phases the card's state machine moved through, what the screen showed of it, what
/// it told the screen and what its squad asked analytics to record.
///
/// The screen opens on the first ``load(sourceLocation:)`` (or ``send(_:sourceLocation:)``) and runs as
/// `order-tracking preview` runs a card: not watching, so a refresh the card asks for is taken only once it is
/// due and a ``reload(sourceLocation:)`` or ``send(_:sourceLocation:)`` has the screen look again.
public final class ComponentHarness<C: Component>: Sendable {
    /// The virtual clock; moved automatically while the screen waits on it.
    public let clock: VirtualClock
    /// The canned backend, with the requests it saw.
    public let backend: CannedBackend
    /// The one-card screen under test (its frames and actions are the test's to use).
    public let runtime: ScreenRuntime
    let log = Log()

    /// Sets up `component` for `ids`, answering `answers` (path → answer); `payload` is an inline layout slice
    /// (`{"id": …, "payload": …}`), handed over instead of the endpoint as a screen does.
    public init(
        _ component: C, ids: [String: String] = [:], answers: [String: CannedAnswer] = [:], payload: Data? = nil,
        timeout: Duration = .seconds(5), presentation: Presentation = .embedded
    ) {
        let clock = VirtualClock()
        let backend = CannedBackend(answers, clock: clock)
        var registry = ComponentRegistry()
        // An empty registry takes any first registration.
        try? registry.register(ComponentRegistration(module: "\(C.self)", endpoint: "(harness)") { component })
        var settings = ScreenSettings(ids: ids)
        (settings.timeout, settings.presentation) = (timeout, presentation)
        let log = log
        var report = RuntimeReport(
            diagnostic: { log.add(.diagnostic($0)) }, analytics: { event, _ in log.add(.analytics(event)) })
        report.step = { action, effects, state in log.step(action, effects, state.cards[0], finished: state.finished) }
        self.clock = clock
        self.backend = backend
        runtime = ScreenRuntime(
            entries: [ScreenEntry(id: C.id, payload: payload)], registry: registry, backend: backend, clock: clock,
            settings: settings, report: report)
    }

    deinit {
        // The screen's loop ends with the harness: nothing it started outlives the test.
        runtime.send(.stop)
    }

    /// Opens the screen and loads the card (the screen's start), or loads it again once open; returns when the
    /// screen has settled, virtual time moved to each pending deadline in turn.
    public func load(sourceLocation: SourceLocation = #_sourceLocation) async {
        let (runtime, log) = (runtime, log)
        if log.open() {
            _ = await clock.drive { await runtime.open(log.frame, loading: [0]) }
        } else {
            _ = await clock.drive { await runtime.reload(card: 0) }
        }
        reportDiagnostics(at: sourceLocation)
    }

    /// Loads the card again as a person's reload does: a refresh of the info it shows (the card stays until the
    /// answer), or a retry after a failure.
    public func reload(sourceLocation: SourceLocation = #_sourceLocation) async {
        await load(sourceLocation: sourceLocation)
    }

    /// What a component did with an event another squad published.
    public enum Reaction: String, Sendable, Equatable {
        /// Nothing visible: it does not listen to that event, or the event changed nothing it shows (yet).
        case ignored
        /// It consumed the event into the info it shows (`EventConsuming`).
        case updated
        /// It asked to be reloaded, and was, as the screen does (`RefreshingOnEvents`).
        case refreshed
    }

    /// Delivers `event` as the screen routes another squad's event (a person's input, `preview --event`) and
    /// follows the reload it asks for, so the reaction shows in ``phases``, ``blocks`` and ``events``. Before the
    /// first ``load(sourceLocation:)`` the screen opens with the skeleton only and the card keeps the event for
    /// its info.
    @discardableResult
    public func send(_ event: DomainEvent, sourceLocation: SourceLocation = #_sourceLocation) async -> Reaction {
        let (runtime, log) = (runtime, log)
        if log.open() { _ = await clock.drive { await runtime.open(log.frame, loading: []) } }
        let reactions = await clock.drive { await runtime.deliver(event) }
        reportDiagnostics(at: sourceLocation)
        switch reactions?[C.id] {
        case .reloaded?: return .refreshed
        case .updated?: return .updated
        case .unchanged?, nil: return .ignored
        }
    }

    /// Fails the test at the caller unless sending `event` makes the component react as `expected`.
    @discardableResult
    public func expectReaction(
        _ expected: Reaction, to event: DomainEvent, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> HarnessMismatch? {
        let actual = await send(event, sourceLocation: sourceLocation)
        guard actual != expected else { return nil }
        return record(
            HarnessMismatch(what: "reaction to \(event)", expected: expected.rawValue, actual: actual.rawValue),
            at: sourceLocation)
    }

    /// The card's verdict on `action` from the info it shows, asked as `cancel` and the live dialog ask it (its
    /// `Tracking` events recorded); nil when it does not validate or has no info.
    public func verdict(on action: UserAction) async -> Verdict? {
        let (runtime, log) = (runtime, log)
        if log.open() { _ = await clock.drive { await runtime.open(log.frame, loading: []) } }
        return await clock.drive { await runtime.ask(action) }?.first?.verdict
    }

    /// The card's state now, typed: loading, its info, or why it failed.
    public var state: ComponentState<C.Info> {
        guard let card = log.card else { return .loading }
        switch card.machine {
        case .loading: return .loading
        case .info: return (card.info?.value as? C.Info).map { .info($0) } ?? .loading
        case .failed: return .failed(Failure(card.reason ?? ""))
        }
    }

    /// The info the card shows now, if any.
    public var info: C.Info? { state.info }

    /// The phases the card's state machine entered, in order, starting with the start state: every move the
    /// screen's reducer made (a refresh's `loading` included, though the card stays on screen meanwhile).
    public var phases: [Phase] {
        [.loading] + log.entries.compactMap { if case .moved(let to) = $0 { to } else { nil } }
    }

    /// The card in every frame the screen handed its outputs, in order (first, changed, settled).
    public var frames: [CardFrame] { log.entries.compactMap { if case .frame(let frame) = $0 { frame } else { nil } } }

    /// What the screen showed of the card, each time that changed: the skeleton first, then each new card
    /// (nil while it is hidden).
    public var blocks: [Block?] {
        var shown: [Block?] = []
        for frame in frames {
            let block = frame.visible ? frame.block : nil
            if shown.last != .some(block) { shown.append(block) }
        }
        return shown
    }

    /// Everything the card told the screen, in order; analytics apart, in ``analytics``.
    public var events: [CardEvent] { log.entries.compactMap { if case .event(let event) = $0 { event } else { nil } } }

    /// The domain events the card published, in order: after a load and after consuming another's event.
    public var published: [DomainEvent] { events.compactMap { if case .domain(let event) = $0 { event } else { nil } } }

    /// The analytics events the component's squad chose to record (`Tracking`), in order.
    public var analytics: [AnalyticsEvent] {
        log.entries.compactMap { if case .analytics(let event) = $0 { event } else { nil } }
    }

    /// What the runtime said on "stderr" (on a one-card screen, only a transition the table refused: each is
    /// also an issue at the line that caused it).
    public var diagnostics: [String] {
        log.entries.compactMap { if case .diagnostic(let line) = $0 { line } else { nil } }
    }

    /// The card on the screen now, as plain text lines of `width` columns ("(nothing)" when nothing is shown).
    public func card(width: Int = 44) -> String {
        guard let last = blocks.last, let block = last else { return "(nothing)" }
        return CardRenderer.lines(for: block, width: width, styler: TextStyler(colors: false)).joined(separator: "\n")
    }

    // Each expectation records a test issue at the caller's line (not inside the harness) and returns the
    // mismatch, if any, for tests that want to look at it.

    /// Fails the test at the caller unless the phases entered are exactly `expected`.
    @discardableResult
    public func expectPhases(
        _ expected: [Phase], sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let actual = phases
        guard actual != expected else { return nil }
        return record(mismatch("phases", expected.map(\.rawValue), actual.map(\.rawValue)), at: sourceLocation)
    }

    /// Fails the test at the caller unless the events told are exactly `expected`.
    @discardableResult
    public func expectEvents(
        _ expected: [CardEvent], sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let actual = events
        guard actual != expected else { return nil }
        return record(mismatch("events", expected.map { "\($0)" }, actual.map { "\($0)" }), at: sourceLocation)
    }

    /// Fails the test at the caller unless the card on the screen, drawn at `width`, is exactly `golden`.
    @discardableResult
    public func expectCard(
        _ golden: String, width: Int = 44, sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let actual = card(width: width)
        guard actual != golden else { return nil }
        return record(HarnessMismatch(what: "card", expected: golden, actual: actual), at: sourceLocation)
    }

    /// Fails the test at the caller unless the component failed and the screen hid it with a reason containing
    /// `fragment`.
    @discardableResult
    public func expectHidden(
        because fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let reasons = events.compactMap { if case .hide(let failure) = $0 { failure.reason } else { nil } }
        let phase = state.phase
        guard phase != .failed || !reasons.contains(where: { $0.contains(fragment) }) else { return nil }
        return record(
            HarnessMismatch(
                what: "hide", expected: "failed + hide(…\(fragment)…)", actual: "\(phase.rawValue) + \(reasons)"),
            at: sourceLocation)
    }

    private func mismatch(_ what: String, _ expected: [String], _ actual: [String]) -> HarnessMismatch {
        HarnessMismatch(what: what, expected: expected.joined(separator: ", "), actual: actual.joined(separator: ", "))
    }

    private func record(_ mismatch: HarnessMismatch, at location: SourceLocation) -> HarnessMismatch {
        Issue.record(Comment(rawValue: mismatch.description), sourceLocation: location)
        return mismatch
    }

    /// Every diagnostic the runtime said since the last call is an issue at the caller's line: a one-card screen
    /// has no unknown ids or event cycles, so it can only be a transition the table refused.
    func reportDiagnostics(at location: SourceLocation) {
        for line in log.unreported() {
            Issue.record(Comment(rawValue: "the runtime said: \(line)"), sourceLocation: location)
        }
    }
}

/// What the harness heard, in order, shared with the closures the runtime calls.
final class Log: Sendable {
    /// One thing heard.
    enum Entry: Sendable, Equatable {
        case moved(Phase), frame(CardFrame), event(CardEvent), analytics(AnalyticsEvent), diagnostic(String)
    }
    private struct State {
        var entries: [Entry] = []
        var card: CardState?
        var finished = false
        var opened = false
        var reported = 0
    }
    private let state = Locked(State())

    /// Everything so far.
    var entries: [Entry] { state.withLock { $0.entries } }
    /// The card as the screen's state has it after the last step.
    var card: CardState? { state.withLock { $0.card } }

    func add(_ entry: Entry) { state.withLock { $0.entries.append(entry) } }

    /// Whether this call is the first: the screen is opened once.
    func open() -> Bool {
        state.withLock { state in
            defer { state.opened = true }
            return !state.opened
        }
    }

    /// Keeps the card's part of each frame of the one-card screen.
    var frame: @Sendable (ScreenFrame, FrameMoment) -> Void { { [self] frame, _ in add(.frame(frame.cards[0])) } }

    /// One step of the screen: the moves its reducer made, then what the card told the screen, read off the
    /// card's state before and after (hidden or shown again, finished, a look asked for, events published).
    func step(_ action: ScreenAction, _ effects: [ScreenEffect], _ after: CardState, finished: Bool) {
        state.withLock { state in
            let before = state.card
            var received = false
            for effect in effects {
                guard case .moved(card: 0, _, let to) = effect else { continue }
                state.entries.append(.moved(to))
                received = received || to == .info
            }
            var told: [CardEvent] = []
            if before?.visible ?? true, !after.visible { told.append(.hide(Failure(after.reason ?? ""))) }
            if before?.visible == false, after.visible { told.append(.show) }
            if finished, !state.finished { told.append(.finished) }
            if received, let after = Self.answer(in: action)?.refreshAfter { told.append(.refresh(after: after)) }
            told += after.published.dropFirst(before?.published.count ?? 0).map { .domain($0) }
            state.entries += told.map { .event($0) }
            (state.card, state.finished) = (after, finished)
        }
    }

    /// The diagnostics not yet reported as issues.
    func unreported() -> [String] {
        state.withLock { state in
            let lines = state.entries.compactMap { if case .diagnostic(let line) = $0 { line } else { nil } }
            defer { state.reported = lines.count }
            return Array(lines.dropFirst(state.reported))
        }
    }

    /// What the component said about the info an action brought (a load's answer, or a consumed event's).
    private static func answer(in action: ScreenAction) -> CardAnswer? {
        switch action {
        case .loaded(_, _, let answer): answer
        case .consumed(_, let answer, _): answer
        default: nil
        }
    }
}
