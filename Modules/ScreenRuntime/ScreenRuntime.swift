import Core
import Foundation

/// One screen of squads' components, run in-process on an injected clock: a slot per layout entry the registry
/// knows, every skeleton at once, all loads concurrently, events routed between components, refresh requests
/// and `every` rounds under `watch`, stale cards kept while the backend blips. It hands out frames (plain
/// values) and never writes anywhere, reads the wall clock or touches process state, so every behaviour can be
/// tested on a virtual clock without a process.
public final class ScreenRuntime: Sendable {
    /// The cards, in layout order: who registered each and the running component in its slot.
    public let cards: [(registration: ComponentRegistration, component: any LoadableComponent)]
    private let settings: ScreenSettings
    private let clock: any CourierClock
    private let report: RuntimeReport
    private let updates: AsyncStream<Message>
    private let sink: AsyncStream<Message>.Continuation
    private let book: Locked<ScreenBook>
    private let alarm: Alarm
    private let reloadRequested = Locked(false)
    private let consumer = Locked(Task<Void, Never>?.none)

    private enum Message: Sendable {
        case update(Int, SlotUpdate)
        case barrier(CheckedContinuation<Int, Never>)
        case settle
    }

    /// Builds the slots for `entries`. An id the registry does not know, or a second entry for an id, is
    /// skipped with a diagnostic: a card appears at most once on a screen.
    public init(
        entries: [ScreenEntry], registry: ComponentRegistry, backend: any Backend, clock: any CourierClock,
        settings: ScreenSettings, report: RuntimeReport, source: String = "the layout"
    ) {
        (self.settings, self.clock, self.report) = (settings, clock, report)
        (updates, sink) = AsyncStream<Message>.makeStream()
        alarm = Alarm(clock: clock)
        var cards: [(registration: ComponentRegistration, component: any LoadableComponent)] = []
        var seen: Set<String> = []
        var skipped: [(id: String, line: String, why: String)] = []
        for (position, entry) in entries.enumerated() {
            guard seen.insert(entry.id.rawValue).inserted else {
                let id = Self.shown(entry.id)
                let line = "skipping a second '\(id)' (position \(position + 1)) in \(source): a card appears once"
                skipped.append((id, line, "a card appears once"))
                continue
            }
            do {
                let registration = try registry.registration(for: entry.id)
                let index = cards.count
                let sink = sink
                let slot = Slot(id: entry.id) { sink.yield(.update(index, $0)) }
                let context = ComponentContext(
                    ids: settings.ids, backend: backend, clock: clock, presentation: settings.presentation,
                    timeout: settings.timeout, payload: entry.payload)
                cards.append((registration, registration.instantiate(in: slot, context: context)))
            } catch .unknown(_, let known) {
                let why = "unknown component; known: \(known.map(\.rawValue).joined(separator: ", "))"
                skipped.append((Self.shown(entry.id), "skipping '\(Self.shown(entry.id))' from \(source): \(why)", why))
            } catch {
                let id = Self.shown(entry.id)
                skipped.append((id, "skipping '\(id)' from \(source): \(error)", "\(error)"))
            }
        }
        Self.reportSkipped(skipped, from: source, to: report)
        self.cards = cards
        book = Locked(
            ScreenBook(
                cards: cards.map { CardFrame(id: $0.registration.id, module: $0.registration.module) },
                started: clock.now(), staleLimit: settings.staleLimit))
    }

    /// One line per skipped entry, or for a long list (a broken or hostile layout) one summary line: a layout of
    /// 100,000 unknown ids must not write 100,000 lines.
    static func reportSkipped(
        _ skipped: [(id: String, line: String, why: String)], from source: String, to report: RuntimeReport
    ) {
        if skipped.count <= 3 {
            for entry in skipped { report.diagnostic(entry.line) }
            return
        }
        let examples = skipped.prefix(3).map { "'\($0.id)'" }.joined(separator: ", ")
        report.diagnostic(
            "skipping \(skipped.count) entries from \(source) that are unknown or repeated: \(examples) and "
                + "\(skipped.count - 3) more (first: \(skipped[0].why))")
    }

    /// An id from a layout as a person can read it: invisible format characters (a zero-width space) and odd
    /// spaces spelled out as `\u{200B}` (controls are shown by the diagnostic's own stand-ins, `␛`), and at
    /// most 40 characters.
    static func shown(_ id: ComponentID) -> String {
        var text = ""
        for scalar in id.rawValue.unicodeScalars {
            let invisible =
                scalar.properties.generalCategory == .format
                || (scalar.properties.isWhitespace && scalar.value > 0x7F && !(0x85...0x9F).contains(scalar.value))
            text += invisible ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }
        return text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }

    /// Runs the screen to its end (after the first loads, or under `watch` once the screen is finished or the
    /// task is cancelled) and returns the last frame. `frames` is called one frame at a time, in order.
    public func run(_ frames: @escaping @Sendable (ScreenFrame, FrameMoment) -> Void) async -> ScreenFrame {
        start(frames)
        if settings.load { await loadAll() }
        if settings.watch { await watch() }
        return await stop()
    }

    /// Shows every skeleton (the `.first` frame) and starts handing out frames: the first step of ``run(_:)``,
    /// public for a host that acts on the screen itself (``deliver(_:)``) before ``stop()``. Every `start` needs
    /// its `stop`: until then the frame consumer keeps the runtime, its cards and their payloads alive.
    public func start(_ frames: @escaping @Sendable (ScreenFrame, FrameMoment) -> Void) {
        for (index, card) in cards.enumerated() {
            card.component.present()
            let block = card.component.snapshot(includingInfo: false).block
            book.withLock { _ = $0.apply(.drew(block), from: index, at: clock.now()) }
        }
        frames(book.withLock { $0.frame(clock.now()) }, .first)
        consumer.withLock { $0 = Task { await consume(frames) } }
    }

    /// Loads every card concurrently and waits until the screen has settled.
    public func loadAll() async {
        await concurrently(cards.map(\.component)) { await $0.load() }
        await settle()
    }

    /// Ends the run: every report handled, and the last frame.
    public func stop() async -> ScreenFrame {
        sink.finish()
        await consumer.withLock { $0 }?.value
        return currentFrame(includingInfo: settings.includeInfo)
    }

    /// Delivers `event` to the cards that consume it, as if a squad had published it (routed on, cycles
    /// refused), reloads the cards that ask for a look because of it (now, or under `watch` when they asked),
    /// and says how each card reacted.
    /// Between ``start(_:)`` and ``stop()``: `preview --event`, and a person's input on a live screen.
    public func deliver(_ event: DomainEvent) async -> [ComponentID: EventReaction] {
        let components = cards.map(\.component)
        let (before, asksBefore) = (
            components.map { $0.snapshot(includingInfo: false).block }, book.withLock(\.refreshAsks)
        )
        let router = EventRouter(consumers: components.map { ($0.id, $0.consumedEvents) })
        let result = await router.route(event, from: "input") { target, event in
            components.first { $0.id == target }?.receive(event) ?? []
        }
        for hop in result.hops { trace("event \(hop.event): \(hop.from) → \(hop.to)") }
        for cycle in result.cycles { report.diagnostic(cycle.description) }
        await settle()
        let asks = book.withLock(\.refreshAsks)
        let reloaded = components.indices.filter { asks[$0] != asksBefore[$0] }
        // Under watch the loop reloads them (the request rang its alarm); otherwise this does.
        await reloadAsked()
        var reactions: [ComponentID: EventReaction] = [:]
        for (index, component) in components.enumerated() {
            let changed = component.snapshot(includingInfo: false).block != before[index]
            reactions[component.id] = reloaded.contains(index) ? .reloaded : changed ? .updated : .unchanged
        }
        return reactions
    }

    /// Loads the cards that validate and asks each about `action`, in layout order (verdict nil: it could not
    /// load, so it could not check). Analytics and diagnostics are reported as on a screen; nothing is drawn.
    public func verdicts(on action: UserAction) async -> [(id: ComponentID, verdict: Verdict?, reason: String?)] {
        consumer.withLock { $0 = Task { await consume { _, _ in } } }
        await concurrently(cards.map(\.component).filter(\.validates)) { await $0.load() }
        let verdicts = currentVerdicts(on: action)
        await settle()
        _ = await stop()
        return verdicts
    }

    /// Reloads card `id` now (retrying it if it failed) and waits until the screen has settled; a card that
    /// asks for a look because of what it said is reloaded too (under `watch` by the watch loop). Between
    /// ``start(_:)`` and ``stop()``: a person's input to that card (a promo code) takes effect this way.
    public func reload(_ id: ComponentID) async {
        guard let card = cards.first(where: { $0.registration.id == id })?.component else { return }
        switch card.snapshot(includingInfo: false).phase {
        case .failed: await card.retry()
        case .info: await card.refresh()
        case .loading:
            // A load is under way (a watch round, an `r`): its answer predates the person's input, so it is
            // dropped and the card loads again now, never refreshed from `loading` (an illegal transition).
            card.cancel()
            await card.load()
        }
        await settle()
        await reloadAsked()
    }

    /// Without `watch` nobody else reloads the cards that asked for a look now: this does, and settles.
    private func reloadAsked() async {
        guard !settings.watch else { return }
        let due = book.withLock { $0.takeDue(at: clock.now()).due }
        await concurrently(due.map { cards[$0].component }) { await Self.freshen($0) }
        await settle()
    }

    /// Loads a card again by the legal way for its phase: retry after a failure, refresh shown info, and nothing
    /// while a load is under way (its answer is the fresh one).
    private static func freshen(_ component: any LoadableComponent) async {
        switch component.snapshot(includingInfo: false).phase {
        case .failed: await component.retry()
        case .info: await component.refresh()
        case .loading: break
        }
    }

    /// The verdicts of the cards already loaded, without loading anything (the live screen's cancel dialog):
    /// a validating card without info has no verdict, which counts as a veto.
    public func currentVerdicts(on action: UserAction) -> [(id: ComponentID, verdict: Verdict?, reason: String?)] {
        cards.map(\.component).filter(\.validates).map {
            ($0.id, $0.validate(action), $0.snapshot(includingInfo: false).reason)
        }
    }

    /// Asks for every card to be reloaded now (under `watch`; a run that does not watch ends after its loads).
    public func reloadNow() {
        reloadRequested.withLock { $0 = true }
        alarm.ring()
    }

    /// The screen now, with each card's info when asked (a stale card's is the info it still shows).
    public func currentFrame(includingInfo: Bool) -> ScreenFrame {
        let infos = includingInfo ? cards.map { $0.component.snapshot(includingInfo: true).info } : []
        return book.withLock { book in
            if includingInfo { book.note(infos) }
            return book.frame(clock.now())
        }
    }

    private func trace(_ message: String) {
        guard let trace = report.trace else { return }
        let stamp = String(book.withLock { $0.elapsedMs(clock.now()) })
        trace("[" + String(repeating: " ", count: max(0, 6 - stamp.count)) + stamp + "ms] " + message)
    }

    /// Handles the components' reports in order: the book first, then routing and the host's callbacks, with
    /// no lock held while any of them runs; a frame after each change.
    private func consume(_ frames: @Sendable (ScreenFrame, FrameMoment) -> Void) async {
        let components = cards.map(\.component)
        let router = EventRouter(consumers: components.map { ($0.id, $0.consumedEvents) })
        var handled = 0
        for await message in updates {
            switch message {
            case .barrier(let continuation):
                continuation.resume(returning: handled)
                continue
            case .settle:
                frames(currentFrame(includingInfo: settings.includeInfo), .settled)
                continue
            case .update(let index, let update):
                handled += 1
                let id = components[index].id
                let now = clock.now()
                let (said, staleSince) = book.withLock { book in
                    let wasStale = book.cards[index].staleSince != nil
                    let said = book.apply(update, from: index, at: now)
                    return (said, wasStale ? nil : book.cards[index].staleSince)
                }
                if let said { trace(said) }
                // The squad's Tracking hears of it when its card turns stale.
                if let staleSince { components[index].markStale(since: staleSince) }
                switch update {
                case .event(.domain(let event)):
                    let result = await router.route(event, from: id) { target, event in
                        components.first { $0.id == target }?.receive(event) ?? []
                    }
                    for hop in result.hops { trace("event \(hop.event): \(hop.from) → \(hop.to)") }
                    for cycle in result.cycles { report.diagnostic(cycle.description) }
                case .event(.analytics(let event)):
                    trace("\(id): analytics \(event.name)")
                    report.analytics?(event, id)
                case .event(.refresh): alarm.ring()
                case .diagnostic(let message): report.diagnostic(message)
                default: break
                }
                frames(book.withLock { $0.frame(now) }, .changed)
            }
        }
    }

    /// Until a component says the screen is finished: sleep until the earliest card asked to be looked at again,
    /// a stale card is due to be hidden, or the `every` round; reload those cards (retrying failed ones).
    private func watch() async {
        var nextRound = clock.now().addingTimeInterval(settings.every.seconds)
        var finishing = false
        while !finishing && !Task.isCancelled {
            // Once finished, cards that asked for a look right now (the payment after "delivered") get that last
            // look, and the watch ends.
            finishing = book.withLock { $0.finished }
            let now = clock.now()
            let expired = book.withLock { $0.expireStale(at: now) }
            for id in expired { trace("\(id): hide (stale for longer than \(settings.staleLimit.seconds)s)") }
            if !expired.isEmpty { await settle() }
            var (chosen, next) = book.withLock { $0.takeDue(at: now) }
            let everyone = reloadRequested.withLock { requested in
                defer { requested = false }
                return requested
            }
            if everyone || (now >= nextRound && !finishing) {
                chosen = Array(cards.indices)
                nextRound = now.addingTimeInterval(settings.every.seconds)
            }
            if chosen.isEmpty {
                if !finishing {
                    let wake = [next, nextRound, book.withLock { $0.nextStaleExpiry }].compactMap { $0 }.min()!
                    await alarm.wait(until: wake)
                }
                continue
            }
            await concurrently(chosen.map { cards[$0].component }) { await Self.freshen($0) }
            await settle()
        }
    }

    private func concurrently(
        _ components: [any LoadableComponent], _ body: @escaping @Sendable (any LoadableComponent) async -> Void
    ) async {
        await withTaskGroup(of: Void.self) { group in
            for component in components { group.addTask { await body(component) } }
        }
    }

    /// Waits until every update posted so far has been handled, including what handling them posted in turn
    /// (an event that makes another card ask for a refresh), then hands out a settled frame.
    private func settle() async {
        var last = -1
        while true {
            let handled = await withCheckedContinuation { continuation in
                if case .terminated = sink.yield(.barrier(continuation)) { continuation.resume(returning: last) }
            }
            if handled == last { break }
            last = handled
        }
        sink.yield(.settle)
    }
}

/// A wake-up for the watch loop: ``wait(until:)`` returns at the deadline (on the runtime's clock), on
/// ``ring()`` or on cancellation, whichever comes first.
final class Alarm: Sendable {
    private let clock: any CourierClock
    private let state = Locked((waiter: CheckedContinuation<Void, Never>?.none, rung: false))

    init(clock: any CourierClock) { self.clock = clock }

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.waiter = nil }
            if state.waiter == nil { state.rung = true }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait(until deadline: Date) async {
        let delay = deadline.timeIntervalSince(clock.now())
        guard delay > 0 else { return }
        let timer = clock.schedule(after: .milliseconds(Int64((delay * 1000).rounded(.up)))) { [self] in ring() }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.rung {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            ring()
        }
        state.withLock { $0.rung = false }
    }
}
