import Core
import Foundation

/// One screen of squads' components, run in-process on an injected clock. The screen's state is one value,
/// ``ScreenState``, changed only by ``ScreenState/reduce(_:at:)``; this executor runs the effects it asks for
/// (loads through each card's ``CardKernel``, wake-ups, deliveries, frames, analytics) one action at a time, in
/// order, and feeds their results back as actions. It never writes anywhere, reads the wall clock or touches
/// process state, so every behaviour can be tested on a virtual clock without a process.
public final class ScreenRuntime: Sendable {
    /// The cards, in layout order: who registered each.
    public let registrations: [ComponentRegistration]
    private let kernels: [CardKernel]
    private let settings: ScreenSettings
    private let clock: any CourierClock
    private let backend: any Backend
    private let report: RuntimeReport
    private let inbox: AsyncStream<Message>
    private let sink: AsyncStream<Message>.Continuation
    private let world: Locked<World>
    private let loop = Locked(Task<Void, Never>?.none)

    private enum Message: Sendable {
        case action(ScreenAction)
        case answer(card: Int, generation: Int, Result<AnyInfo, Failure>)
        /// Called once the screen is quiet (or over): a host waiting for it to settle, or a run that ends then.
        case waiter(@Sendable () -> Void)
    }

    /// The state and what runs its effects: touched by the loop, read (never changed) by the frame and verdict
    /// look-ups.
    private struct World: Sendable {
        var state: ScreenState
        var frames: (@Sendable (ScreenFrame, FrameMoment) -> Void)?
        /// The loads under way, each by card and generation: firing one's trigger cancels that load alone (the
        /// run's task group can only cancel all its children at once).
        var loads: [CardLoad: CancelTrigger] = [:]
        var timer: ScheduledTimer?
        var waiters: [@Sendable () -> Void] = []
    }

    /// Builds the slots for `entries`. An id the registry does not know, or a second entry for an id, is
    /// skipped with a diagnostic: a card appears at most once on a screen.
    public init(
        entries: [ScreenEntry], registry: ComponentRegistry, backend: any Backend, clock: any CourierClock,
        settings: ScreenSettings, report: RuntimeReport, source: String = "the layout"
    ) {
        (self.settings, self.clock, self.report, self.backend) = (settings, clock, report, backend)
        (inbox, sink) = AsyncStream<Message>.makeStream()
        var registrations: [ComponentRegistration] = []
        var kernels: [CardKernel] = []
        var seen: Set<String> = []
        var critical: [Bool] = []
        var skipped: [(id: String, line: String, why: String)] = []
        var missing: String?
        for (position, entry) in entries.enumerated() {
            guard seen.insert(entry.id.rawValue).inserted else {
                let id = Self.shown(entry.id)
                let line = "skipping a second '\(id)' (position \(position + 1)) in \(source): a card appears once"
                skipped.append((id, line, "a card appears once"))
                continue
            }
            do {
                let registration = try registry.registration(for: entry.id)
                let context = ComponentContext(
                    ids: settings.ids, backend: backend, clock: clock, presentation: settings.presentation,
                    timeout: settings.timeout, payload: entry.payload)
                registrations.append(registration)
                kernels.append(settings.runner.kernel(registration, context: context))
                critical.append(entry.critical)
            } catch .unknown(_, let known) {
                let why = "unknown component; known: \(known.map(\.rawValue).joined(separator: ", "))"
                if entry.critical, missing == nil {
                    missing = "\(Self.shown(entry.id)): a critical card no module registers"
                }
                skipped.append((Self.shown(entry.id), "skipping '\(Self.shown(entry.id))' from \(source): \(why)", why))
            } catch {
                let id = Self.shown(entry.id)
                skipped.append((id, "skipping '\(id)' from \(source): \(error)", "\(error)"))
            }
        }
        Self.reportSkipped(skipped, from: source, to: report)
        (self.registrations, self.kernels) = (registrations, kernels)
        let cards = zip(registrations, kernels).enumerated().map { index, pair in
            CardState(
                CardSpec(
                    id: pair.0.id, module: pair.0.module, consumes: pair.1.consumes, refreshesOn: pair.1.refreshesOn,
                    critical: critical[index], validates: pair.1.validates),
                skeleton: pair.1.calls.skeletonAtOnce.map { .drawn($0()) } ?? .asked)
        }
        var state = ScreenState(cards: cards, started: clock.now(), settings: settings)
        state.missing = missing
        world = Locked(World(state: state))
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
    /// task is cancelled) and returns the last frame. `frames` is called one frame at a time, in order. Nothing
    /// the run started outlives it: cancelling the task stops the loads and the wake-up timer. A live screen tells it
    /// what a person asks with ``send(_:)``.
    public func run(_ frames: @escaping @Sendable (ScreenFrame, FrameMoment) -> Void) async -> ScreenFrame {
        world.withLock { $0.frames = frames }
        await withTaskCancellationHandler {
            sink.yield(.action(.start(loading: settings.load ? Array(registrations.indices) : [])))
            // A run that does not watch ends once its first loads have answered.
            if !settings.watch { sink.yield(.waiter({ [sink] in sink.yield(.action(.stop)) })) }
            // The loop runs here, in the caller's task: the run is one task tree, and cancelling the caller
            // stops the screen and every load and send under it before this returns.
            await drive()
        } onCancel: {
            sink.yield(.action(.stop))
        }
        return currentFrame(includingInfo: settings.includeInfo)
    }

    /// Shows every skeleton (the `.first` frame), loads the cards at `loading`, waits until the screen has settled,
    /// runs `body` (which acts on the screen: ``deliver(_:)``, ``reload(card:)``, ``ask(_:)``) and
    /// stops it, returning what `body` returned and the last frame. The loop is a child of the caller's task, so
    /// nothing outlives the call and cancelling the caller stops the screen: `preview --event`, ``verdicts(on:)``.
    public func opened<Value>(
        _ frames: @escaping @Sendable (ScreenFrame, FrameMoment) -> Void = { _, _ in }, loading: [Int],
        _ body: () async -> Value
    ) async -> (value: Value, last: ScreenFrame) {
        world.withLock { $0.frames = frames }
        let value = await withDiscardingTaskGroup { group in
            group.addTask { [self] in await drive() }
            sink.yield(.action(.start(loading: loading)))
            await settled()
            let value = await body()
            sink.yield(.action(.stop))
            return value
        }
        return (value, currentFrame(includingInfo: settings.includeInfo))
    }

    /// ``opened(_:loading:_:)`` for a host that acts on the screen across calls it does not scope (CoreTesting's
    /// `ComponentHarness`, one test step at a time): the screen stays open past this call's return, until
    /// ``stop()``.
    public func open(_ frames: @escaping @Sendable (ScreenFrame, FrameMoment) -> Void = { _, _ in }, loading: [Int])
        async
    {
        world.withLock { $0.frames = frames }
        // The one unstructured task of the runtime, for that harness alone. Under it, the loads and sends are
        // the loop's children as in ``run(_:)``.
        let task = Task.placed { [self] in await drive() }
        loop.withLock { $0 = task }
        sink.yield(.action(.start(loading: loading)))
        await settled()
    }

    /// Ends what ``open(_:loading:)`` opened: the loads under way are cancelled and the last frame is returned.
    public func stop() async -> ScreenFrame {
        sink.yield(.action(.stop))
        await loop.withLock { $0 }?.value
        return currentFrame(includingInfo: settings.includeInfo)
    }

    /// Delivers `event` to the cards that consume it, as if a squad had published it (routed on, cycles
    /// refused), reloads the cards that ask for a look because of it, and says how each card reacted.
    /// Inside ``opened(_:loading:_:)`` (`preview --event`), or between ``open(_:loading:)`` and ``stop()``.
    public func deliver(_ event: DomainEvent) async -> [ComponentID: EventReaction] {
        let before = world.withLock { $0.state.cards }
        sink.yield(.action(.input(event)))
        await settled()
        let after = world.withLock { $0.state.cards }
        var reactions: [ComponentID: EventReaction] = [:]
        for (old, new) in zip(before, after) {
            reactions[new.id] =
                new.generation != old.generation ? .reloaded : new.block != old.block ? .updated : .unchanged
        }
        return reactions
    }

    /// Loads the cards that validate and asks each about `action`, in layout order (verdict nil: it could not
    /// load, so it could not check). Analytics and diagnostics are reported as on a screen; nothing is drawn.
    public func verdicts(on action: UserAction) async -> [(id: ComponentID, verdict: Verdict?, reason: String?)] {
        await opened(loading: kernels.indices.filter { kernels[$0].validates }) { await ask(action) }.value
    }

    /// The verdicts on `action` of the validating cards as they are, without loading anything: the screen's
    /// reducer asks them (``ScreenAction/ask(_:)``) and records their analytics; a validating card without info
    /// has no verdict, which counts as a veto. Between ``open(_:loading:)`` and ``stop()``.
    public func ask(_ action: UserAction) async -> [(id: ComponentID, verdict: Verdict?, reason: String?)] {
        sink.yield(.action(.ask(action)))
        await settled()
        let asked = world.withLock { $0.state.action.asked }
        return (asked?.verdicts ?? []).map { ($0.id, $0.verdict, $0.reason) }
    }

    /// Asks for every card to be reloaded now (under `watch`; a run that does not watch ends after its loads).
    public func reloadNow() { send(.reload(card: nil)) }

    /// Loads card `card` again (refreshing the info it shows, or retrying after a failure; a load under way is
    /// dropped for a new one) and returns once the screen has settled. Inside ``opened(_:loading:_:)``, or between
    /// ``open(_:loading:)`` and ``stop()``: a one-card screen under test (CoreTesting's `ComponentHarness`).
    public func reload(card: Int) async {
        sink.yield(.action(.reload(card: card)))
        await settled()
    }

    /// Hands the screen an action from outside: what a person asked of it on a live screen (an action, a yes to
    /// the check shown, a typed value, a reload, quitting).
    public func send(_ action: ScreenAction) { sink.yield(.action(action)) }

    /// What a person can type and do on this screen (its settings' prompts and actions), for a live screen's keys.
    public var offers: (prompts: [ConsolePrompt], actions: [ActionSpec]) { (settings.prompts, settings.actions) }

    /// The clock the screen runs on: a live screen's own wake-ups (a look at who is signed in) use it too.
    public var runsOn: any CourierClock { clock }

    /// The screen now (each card's info as JSON when the settings keep it).
    public func currentFrame(includingInfo: Bool = true) -> ScreenFrame {
        world.withLock { $0.state.frame(at: clock.now(), encoding: includingInfo) }
    }

    /// Until everything under way has answered (or the run is over).
    private func settled() async {
        await withCheckedContinuation { continuation in
            if case .terminated = sink.yield(.waiter({ continuation.resume() })) { continuation.resume() }
        }
    }

    /// The loop: one message at a time, each action reduced and its effects run before the next. It owns a task
    /// group with one child per load and per send, so none outlives it: when the screen stops (a `.stop`, or
    /// the task running the loop is cancelled) the children are cancelled and waited for before it returns.
    private func drive() async {
        await withDiscardingTaskGroup { group in
            var messages = inbox.makeAsyncIterator()
            while let message = await messages.next() {
                // Cancelled (a signal, a reader gone): the screen stops before anything else is reduced, so an
                // answer the cancellation cut short is not drawn as the card's failure.
                if Task.isCancelled { await handle(.stop, &group) }
                switch message {
                case .action(let action): await handle(action, &group)
                case .answer(let index, let generation, .success(let info)):
                    let received = world.withLock { $0.state.cards[index].received }
                    // The squad's code runs here, in its worker when it has one: a crash while it draws the info
                    // is this load's failure.
                    let answered = await kernels[index].answer(
                        for: info, consuming: received, json: settings.includeInfo,
                        actions: settings.actions.map(\.action))
                    // Cancelled while it answered (a worker's call is then cut short with a failure): the screen
                    // stops first, so that cut is not drawn as the card's failure.
                    if Task.isCancelled { await handle(.stop, &group) }
                    switch answered {
                    case .success(let answer):
                        await handle(.loaded(card: index, generation: generation, answer), &group)
                    case .failure(let failure):
                        await handle(.failed(card: index, generation: generation, failure, drawn: nil), &group)
                    }
                case .answer(let index, let generation, .failure(let failure)):
                    var (failure, drawn) = (failure, Block?.none)
                    switch await kernels[index].card(for: .failed(failure)) {
                    case .success(let block): drawn = block
                    case .failure(let crash) where crash.reason != failure.reason:
                        // Its code stopped while drawing the failure (a crash in its worker): said with it, so the
                        // squad sees its crash (`preview --state failed`), not only the failure it was drawing. A
                        // worker still down fails the drawing with the load's own reason: said once.
                        failure = Failure(
                            "\(failure.reason) (drawing it: \(crash.reason))", transient: failure.transient)
                    case .failure: break
                    }
                    if Task.isCancelled { await handle(.stop, &group) }
                    await handle(.failed(card: index, generation: generation, failure, drawn: drawn), &group)
                case .waiter(let waiter):
                    world.withLock { $0.waiters.append(waiter) }
                }
                let (done, waiters) = world.withLock { world in
                    let done = world.state.stopped
                    guard done || world.state.quiet else { return (done, [@Sendable () -> Void]()) }
                    defer { world.waiters = [] }
                    return (done, world.waiters)
                }
                for waiter in waiters { waiter() }
                if done { break }
            }
            sink.finish()
            // A waiter that asked after the stop (a cancelled `open`) is still in the buffer: answer it too.
            while let message = await messages.next() {
                if case .waiter(let waiter) = message { waiter() }
            }
            // Let go of the host's closure: a live console holds this runtime, and its closure holds the console.
            let timer = world.withLock { world in
                world.frames = nil
                return world.timer
            }
            timer?.cancel()
            // The loads and sends still under way end with the group.
            group.cancelAll()
        }
        let waiters = world.withLock { world in
            defer { world.waiters = [] }
            return world.waiters
        }
        for waiter in waiters { waiter() }
    }

    /// Reduces `action` and runs its effects; deliveries answer at once, so a chain of events is followed to
    /// its end before anything else happens.
    private func handle(_ action: ScreenAction, _ group: inout DiscardingTaskGroup) async {
        var queue = [action]
        while !queue.isEmpty {
            let action = queue.removeFirst()
            let now = clock.now()
            let (effects, state) = world.withLock { world in
                let effects = world.state.reduce(action, at: now)
                return (effects, report.step == nil ? nil : world.state)
            }
            if let state { report.step?(action, effects, state) }
            // What the action told a person goes out with its first frame only: each notice is handed out once.
            var told = true
            for effect in effects { await run(effect, now, &queue, &group, told: &told) }
        }
    }

    private func run(
        _ effect: ScreenEffect, _ now: Date, _ queue: inout [ScreenAction], _ group: inout DiscardingTaskGroup,
        told: inout Bool
    ) async {
        switch effect {
        case .load(let index, let generation, let limit):
            let (kernel, sink, clock) = (kernels[index], sink, clock)
            let load = CardLoad(card: index, generation: generation)
            let trigger = CancelTrigger()
            // The card's latest events as the reduce that asked for this load left them: what its context carries.
            let received = world.withLock { world in
                world.loads[load] = trigger
                return world.state.cards[index].received
            }
            group.addTask { [self] in
                // The load races its own trigger: a superseded load is cancelled alone, and its answer still
                // comes back (to be dropped by its generation), as a finished one's does.
                let result = await cancelling(when: trigger) {
                    await kernel.load(within: limit, on: clock, received: received)
                }
                sink.yield(.answer(card: index, generation: generation, result))
                world.withLock { _ = $0.loads.removeValue(forKey: load) }
            }
        case .cancel(let index, let generation):
            world.withLock { $0.loads[CardLoad(card: index, generation: generation)] }?.fire()
        case .wake(let date):
            let delay = max(0, date.timeIntervalSince(now))
            let sink = sink
            let timer = clock.schedule(after: .milliseconds(Int64((delay * 1000).rounded(.up)))) {
                sink.yield(.action(.tick))
            }
            world.withLock { world in
                world.timer?.cancel()
                world.timer = timer
            }
        case .deliver(let event, let index, let path):
            let card = world.withLock { $0.state.cards[index] }
            guard let info = card.info else { return queue.append(.consumed(card: index, nil, path: path)) }
            switch await kernels[index].answer(
                for: info, consuming: card.received, json: settings.includeInfo, actions: settings.actions.map(\.action)
            )
            {
            case .success(let answer):
                queue.append(.consumed(card: index, answer.info == info ? nil : answer, path: path))
            case .failure(let failure):
                // Its code stopped while taking the event (a crash in its worker): the card loads again, which
                // consumes the event anew and fails the card if the code stops again. The reload goes first, so
                // the screen is never quiet in between: a `--pay` waits for the card's new answer.
                trace("\(registrations[index].id): could not take \(event.name): \(failure.reason)", now)
                queue += [.reload(card: index), .consumed(card: index, nil, path: path)]
            }
        case .track(let index, let moment):
            let info = world.withLock { $0.state.cards[index].info }
            let asked: Moment<AnyInfo>
            switch moment {
            case .shown:
                guard let info else { return }
                asked = .shown(info)
            case .hidden(let failure): asked = .hidden(failure)
            case .stale(let since): asked = .stale(since: since)
            case .verdict(let action):
                guard let verdict = world.withLock({ $0.state.cards[index].verdicts[action] }) else { return }
                asked = .verdict(action, verdict)
            }
            switch await kernels[index].analytics(for: asked) {
            case .success(let events): record(events, from: index)
            case .failure(let failure): trace("\(registrations[index].id): analytics failed: \(failure.reason)", now)
            }
        case .draw(let moment):
            var (frame, frames) = world.withLock { ($0.state.frame(at: now), $0.frames) }
            if !told { frame.told = [] }
            told = false
            frames?(frame, moment)
        case .send(let request):
            let (backend, sink, attempts) = (backend, sink, settings.attempts)
            // A child of the loop's group: it needs no handle of its own, the stop cancels it with the loads.
            group.addTask {
                let outcome = await Self.send(request, to: backend, keptIn: attempts)
                sink.yield(.action(.sent(request.action, outcome)))
            }
        case .settle(let request, let answer):
            do { try settings.attempts?.settle(request, answer: answer) } catch {
                switch error {
                case .unkept(let why), .pending(let why): report.diagnostic("\(request.action): \(why)")
                }
            }
        case .abandon(let request): settings.attempts?.abandon(request)
        case .validate(let action, let indices):
            let infos = world.withLock { world in indices.map { world.state.cards[$0].info } }
            var verdicts: [Int: Verdict?] = [:]
            for (index, info) in zip(indices, infos) {
                guard let info else {
                    verdicts[index] = .some(nil)
                    continue
                }
                // A card whose code stopped while judging could not check: no verdict, which counts as a veto.
                verdicts[index] = .some((try? await kernels[index].validate(action, info: info).get()) ?? nil)
            }
            queue.append(.validated(action, verdicts))
        case .sketch(let index):
            let (kernel, sink) = (kernels[index], sink)
            group.addTask {
                // A crash while drawing it is kept: the card says it while it waits (its load says its own).
                sink.yield(.action(.sketched(card: index, await kernel.card(for: .loading))))
            }
        case .moved(let index, let from, let to):
            trace("\(registrations[index].id): \(from.rawValue) → \(to.rawValue)", now)
        case .trace(let line): trace(line, now)
        case .diagnostic(let line): report.diagnostic(line)
        case .finish: break
        }
    }

    /// Sends `request` once under the key its attempt keeps; the attempt (and its key) is kept before anything
    /// goes out, so with nowhere to keep it nothing is sent.
    private static func send(_ request: ActionRequest, to backend: any Backend, keptIn attempts: (any AttemptLedger)?)
        async -> SendOutcome
    {
        guard let attempts else {
            return .failed("this screen keeps no attempts, so a retry could not reuse the key; nothing was sent")
        }
        let key: String
        do {
            switch try attempts.begin(request) {
            case .send(let kept): key = kept
            case .answered(let answer, let at): return .kept(answer, at: at)
            }
        } catch {
            switch error {
            case .unkept(let why): return .failed("\(why); nothing was sent")
            case .pending(let why): return .pending(why)
            }
        }
        do {
            let data = try await backend.send(request.endpoint, body: request.body, headers: ["Idempotency-Key": key])
            return SendOutcome(answer: data, from: request.endpoint)
        } catch { return SendOutcome(fault: error) }
    }

    private func record(_ events: [AnalyticsEvent], from index: Int) {
        for event in events {
            trace("\(registrations[index].id): analytics \(event.name)", clock.now())
            report.analytics?(event, registrations[index].id)
        }
    }

    private func trace(_ message: String, _ now: Date) {
        guard let trace = report.trace else { return }
        let stamp = String(world.withLock { $0.state.milliseconds(now) })
        trace("[" + String(repeating: " ", count: max(0, 6 - stamp.count)) + stamp + "ms] " + message)
    }
}

/// One load of one card: the key its cancel trigger is kept under.
private struct CardLoad: Hashable, Sendable {
    let card: Int
    let generation: Int
}
