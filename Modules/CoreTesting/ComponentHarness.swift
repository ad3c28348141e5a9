import Core
import Foundation
import TerminalUI
import Testing

/// A wrong expectation: what was checked, what was expected and what happened.
public struct HarnessMismatch: Error, CustomStringConvertible, Equatable {
    /// What was checked ("transitions", "card").
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

/// Runs one component against canned answers on a virtual clock and records, in order, its transitions,
/// the blocks it drew and the events it sent: a squad's whole test rig in one object.
public final class ComponentHarness<C: Component>: Sendable {
    /// The virtual clock; advanced automatically while a load waits on it.
    public let clock: VirtualClock
    /// The canned backend, with the requests it saw.
    public let backend: CannedBackend
    /// The container under test.
    public let container: ComponentContainer<C>
    private let recorded: UpdateLog

    /// Sets up `component` for `ids`, answering `answers` (path → answer).
    public init(
        _ component: C, ids: [String: String] = [:], answers: [String: CannedAnswer] = [:], payload: Data? = nil,
        timeout: Duration = .seconds(5), presentation: Presentation = .embedded
    ) {
        let clock = VirtualClock()
        let backend = CannedBackend(answers, clock: clock)
        let recorded = UpdateLog()
        self.recorded = recorded
        let slot = Slot(id: C.id) { update in recorded.append(update) }
        let context = ComponentContext(
            ids: ids, backend: backend, clock: clock, presentation: presentation, timeout: timeout, payload: payload)
        self.clock = clock
        self.backend = backend
        self.container = ComponentContainer(component, slot: slot, context: context)
    }

    /// Loads and waits until the load settles, advancing virtual time to each pending deadline in turn.
    public func load() async { await drive { await self.container.load() } }

    /// Refreshes and waits until it settles.
    public func refresh() async { await drive { await self.container.refresh() } }

    /// Retries and waits until it settles.
    public func retry() async { await drive { await self.container.retry() } }

    /// What a component did with an event another squad published.
    public enum Reaction: String, Sendable, Equatable {
        /// Nothing: it does not listen to that event.
        case ignored
        /// It consumed the event into the info it shows (`EventConsuming`).
        case updated
        /// It asked to be reloaded, and was, as a watching host does (`RefreshingOnEvents`).
        case refreshed
    }

    /// Delivers `event` as the host routes another squad's event to this component, and follows a refresh it asks
    /// for, so the card's reaction shows in ``phases``, ``blocks`` and ``events``.
    @discardableResult
    public func send(_ event: DomainEvent) async -> Reaction {
        let before = updates.count
        _ = container.receive(event)
        let after = updates.dropFirst(before)
        if after.contains(where: { if case .event(.refresh(after: .zero)) = $0 { true } else { false } }) {
            await refresh()
            return .refreshed
        }
        return after.contains(where: { if case .drew = $0 { true } else { false } }) ? .updated : .ignored
    }

    /// Fails the test at the caller unless sending `event` makes the component react as `expected`.
    @discardableResult
    public func expectReaction(
        _ expected: Reaction, to event: DomainEvent, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> HarnessMismatch? {
        let actual = await send(event)
        guard actual != expected else { return nil }
        return record(
            HarnessMismatch(what: "reaction to \(event)", expected: expected.rawValue, actual: actual.rawValue),
            at: sourceLocation)
    }

    /// Every update so far, in order.
    public var updates: [SlotUpdate] { recorded.all }

    /// The phases entered, in order, starting with the start state.
    public var phases: [Phase] {
        updates.compactMap { if case .transition(_, let to) = $0 { return to } else { return nil } }
    }

    /// Every block drawn, in order.
    public var blocks: [Block?] {
        updates.compactMap { if case .drew(let block) = $0 { return block } else { return nil } }
    }

    /// Every event sent to the host, in order; analytics events are apart, in ``analytics``.
    public var events: [ComponentEvent] {
        updates.compactMap {
            guard case .event(let event) = $0 else { return nil }
            if case .analytics = event { return nil }
            return event
        }
    }

    /// The analytics events the component's squad chose to record (`Tracking`), in order.
    public var analytics: [AnalyticsEvent] {
        updates.compactMap { if case .event(.analytics(let event)) = $0 { return event } else { return nil } }
    }

    /// The last block drawn, as plain text lines of `width` columns ("(nothing)" when nothing is drawn).
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

    /// Fails the test at the caller unless the events sent are exactly `expected`.
    @discardableResult
    public func expectEvents(
        _ expected: [ComponentEvent], sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let actual = events
        guard actual != expected else { return nil }
        return record(mismatch("events", expected.map { "\($0)" }, actual.map { "\($0)" }), at: sourceLocation)
    }

    /// Fails the test at the caller unless the last card, drawn at `width`, is exactly `golden`.
    @discardableResult
    public func expectCard(
        _ golden: String, width: Int = 44, sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let actual = card(width: width)
        guard actual != golden else { return nil }
        return record(HarnessMismatch(what: "card", expected: golden, actual: actual), at: sourceLocation)
    }

    /// Fails the test at the caller unless the component failed and asked to hide with a reason containing
    /// `fragment`.
    @discardableResult
    public func expectHidden(
        because fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> HarnessMismatch? {
        let reasons = events.compactMap {
            if case .hide(let failure) = $0 { return failure.reason } else { return nil }
        }
        guard container.current.phase != .failed || !reasons.contains(where: { $0.contains(fragment) }) else {
            return nil
        }
        return record(
            HarnessMismatch(
                what: "hide", expected: "failed + hide(…\(fragment)…)",
                actual: "\(container.current.phase.rawValue) + \(reasons)"), at: sourceLocation)
    }

    private func mismatch(_ what: String, _ expected: [String], _ actual: [String]) -> HarnessMismatch {
        HarnessMismatch(what: what, expected: expected.joined(separator: ", "), actual: actual.joined(separator: ", "))
    }

    private func record(_ mismatch: HarnessMismatch, at location: SourceLocation) -> HarnessMismatch {
        Issue.record(Comment(rawValue: mismatch.description), sourceLocation: location)
        return mismatch
    }

    /// Runs `operation` on the clock's executor, moving time only once every task of the load is waiting on it.
    /// A load that never settles (a bug under test) is cancelled rather than awaited forever (the clock gives up
    /// after an hour of virtual time): the recorded updates then show where it stopped, and the test fails
    /// instead of hanging the suite.
    private func drive(_ operation: @escaping @Sendable () async -> Void) async {
        _ = await clock.drive(operation)
    }
}

/// A thread-safe append-only list of slot updates.
final class UpdateLog: Sendable {
    private let updates = Locked<[SlotUpdate]>([])
    func append(_ update: SlotUpdate) { updates.withLock { $0.append(update) } }
    var all: [SlotUpdate] { updates.withLock { $0 } }
}
