import Foundation

/// Runs one component in one slot: drives the state machine, applies the deadline, drops stale answers,
/// hides on failure, publishes and consumes domain events, and reports every step to the slot.
///
/// The lock guards plain data only. What a step reports, draws or records goes to an outbox and is handed out
/// after the lock is released, in order, by one caller at a time; the squad's own functions (consuming an
/// event, publishing, deciding `finished` or the next refresh) run outside it, and the step commits only if
/// nothing changed meanwhile (else it is worked out again). So a host's sink may call straight back in.
public final class ComponentContainer<C: Component>: Sendable {
    private struct State {
        var state: ComponentState<C.Info> = .loading
        var generation = 0
        /// Bumped whenever `state` or `received` changes: what a step worked out without the lock is still true.
        var version = 0
        var started = false
        var block: Block?
        var received: [DomainEvent] = []
        var published: [DomainEvent] = []
        var hidden = false
        var finished = false
        var shownOnce = false
        var loading: Task<Result<C.Info, any Error>, Never>?
        var outbox: [Effect] = []
        var draining = false
    }
    /// What a step hands out once the lock is released.
    private enum Effect {
        case post(SlotUpdate), draw(ComponentState<C.Info>), track(Moment<C.Info>)
    }
    /// What the squad's functions say about new info, worked out outside the lock.
    private typealias Outcome = (info: C.Info, finished: Bool, refresh: Duration?, events: [DomainEvent])
    private let component: C
    private let slot: Slot
    private let context: ComponentContext
    private let capabilities: Capabilities<C>
    private let state = Locked(State())

    /// Creates a container; nothing is drawn until ``present()`` or ``load()``.
    public convenience init(_ component: C, slot: Slot, context: ComponentContext) {
        self.init(component, slot: slot, context: context, capabilities: Capabilities())
    }

    /// Creates a container with capabilities already found (the registry finds them once per type).
    init(_ component: C, slot: Slot, context: ComponentContext, capabilities: Capabilities<C>) {
        (self.component, self.slot, self.context, self.capabilities) = (component, slot, context, capabilities)
    }

    /// The component's id.
    public var id: ComponentID { C.id }
    /// The typed state, for tests and typed clients.
    public var current: ComponentState<C.Info> { state.withLock { $0.state } }

    /// Draws the skeleton once.
    public func present() { commit { startIfNeeded(&$0) } }
    /// Loads from the start state.
    public func load() async { await run(from: nil) }
    /// Reloads shown info.
    public func refresh() async { await run(from: .refresh) }
    /// Loads again after a failure.
    public func retry() async { await run(from: .retry) }

    /// Cancels the load under way (its task, and so its fetch) and makes its answer stale.
    public func cancel() {
        state.withLock { state in
            state.generation += 1
            return state.loading
        }?.cancel()
    }

    /// Applies a routed event now if info is shown, and remembers it for info that arrives later.
    public func receive(_ event: DomainEvent) -> [DomainEvent] {
        let consumes = capabilities.consumed.contains(event.name)
        var seen = commit { state in
            if capabilities.refreshing.contains(event.name) {
                state.outbox.append(.post(.event(.refresh(after: .zero))))
            }
            if consumes {
                state.received.removeAll { $0.name == event.name }
                state.received.append(event)
                state.version += 1
            }
            return (state.state, state.received, state.version)
        }
        while true {
            guard consumes, case .info(let info) = seen.0 else { return [] }
            let updated = consumeAll(into: info, seen.1)
            guard updated != info else { return [] }
            let outcome = outcome(for: updated)
            let events = commit { state -> [DomainEvent]? in
                guard state.version == seen.2 else {
                    seen = (state.state, state.received, state.version)
                    return nil
                }
                apply(.receive, .info(updated), &state)
                announce(outcome, &state)
                return newEvents(outcome, &state)
            }
            if let events { return events }
        }
    }

    /// Whether the component validates actions.
    public var validates: Bool { capabilities.validate != nil }

    /// Asks a validating component about `action`.
    public func validate(_ action: UserAction) -> Verdict? {
        guard let validate = capabilities.validate, let info = current.info else { return nil }
        let verdict = validate(component, action, info)
        commit { $0.outbox.append(.track(.verdict(action, verdict))) }
        return verdict
    }

    private func run(from transition: Transition?) async {
        let generation: Int? = commit { state in
            startIfNeeded(&state)
            if let transition {
                // A refresh keeps the current card on screen until the new answer arrives: no skeleton flicker
                // on every `--watch` round. A retry after a failure shows the skeleton again.
                guard apply(transition, .loading, &state, redraw: transition != .refresh) else { return nil }
            } else if state.state.phase != .loading {
                state.outbox.append(
                    .post(.diagnostic("load() called in '\(state.state.phase.rawValue)'; use refresh() or retry()")))
                return nil
            }
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        let task = Task.placed { [component, context] in
            await Result(catching: {
                try await withDeadline(context.timeout, on: context.clock) { try await component.load(context) }
            })
        }
        // A cancel() that came first has already moved the generation on: the answer is dropped below.
        state.withLock { if $0.generation == generation { $0.loading = task } }
        switch await task.value {
        case .success(let info): finish(generation, with: info)
        case .failure(let error):
            let failure = Failure(describing: error)
            commit { state in
                guard current(generation, &state) else { return }
                if apply(.fail, .failed(failure), &state) {
                    state.hidden = true
                    state.outbox += [.post(.event(.hide(failure))), .track(.hidden(failure))]
                }
            }
        }
    }

    /// Commits the info a load brought, worked out with the events received so far.
    private func finish(_ generation: Int, with info: C.Info) {
        var received = state.withLock { ($0.received, $0.version) }
        while true {
            let outcome = outcome(for: consumeAll(into: info, received.0))
            let done = commit { state -> Bool in
                guard current(generation, &state) else { return true }
                guard state.version == received.1 else {
                    received = (state.received, state.version)
                    return false
                }
                if apply(.receive, .info(outcome.info), &state) {
                    // Analytics hears of a card when it appears (first info, or info after a hide), not every reload.
                    if !state.shownOnce || state.hidden { state.outbox.append(.track(.shown(outcome.info))) }
                    state.shownOnce = true
                    announce(outcome, &state)
                    for event in newEvents(outcome, &state) { state.outbox.append(.post(.event(.domain(event)))) }
                }
                return true
            }
            if done { return }
        }
    }

    /// Whether `generation` is still the load that counts; if not, its answer is reported as dropped.
    private func current(_ generation: Int, _ state: inout State) -> Bool {
        state.loading = nil
        guard generation == state.generation else {
            state.outbox.append(.post(.dropped(generation: generation)))
            return false
        }
        return true
    }

    /// Runs `body` under the lock, then hands out what it left in the outbox.
    private func commit<Result>(_ body: (inout State) -> Result) -> Result {
        let (result, drain) = state.withLock { state in
            let result = body(&state)
            let drain = !state.draining && !state.outbox.isEmpty
            if drain { state.draining = true }
            return (result, drain)
        }
        if drain { deliver() }
        return result
    }

    /// Hands out the outbox in order, lock released, until it stays empty; effects added meanwhile (by the
    /// sink calling back in, or by another task) are handed out by this same loop, so the order holds.
    private func deliver() {
        while true {
            let effects = state.withLock { state -> [Effect] in
                defer { state.outbox = [] }
                if state.outbox.isEmpty { state.draining = false }
                return state.outbox
            }
            guard !effects.isEmpty else { return }
            for effect in effects {
                switch effect {
                case .post(let update): slot.post(update)
                case .draw(let drawn):
                    let block = component.card(for: drawn, context: context)
                    state.withLock { $0.block = block }
                    slot.post(.drew(block))
                case .track(let moment):
                    for event in capabilities.analytics?(component, moment) ?? [] {
                        slot.post(.event(.analytics(event)))
                    }
                }
            }
        }
    }

    private func startIfNeeded(_ state: inout State) {
        guard !state.started else { return }
        state.started = true
        state.outbox += [.post(.transition(from: nil, to: .loading)), .draw(.loading)]
    }

    @discardableResult
    private func apply(
        _ transition: Transition, _ next: ComponentState<C.Info>, _ state: inout State, redraw: Bool = true
    ) -> Bool {
        let from = state.state.phase
        switch StateMachine.next(after: from, on: transition) {
        case .failure(let illegal):
            state.outbox.append(.post(.diagnostic("\(C.id): \(illegal)")))
            return false
        case .success(let phase):
            precondition(phase == next.phase, "transition table and requested state disagree")
            state.state = next
            state.version += 1
            state.outbox.append(.post(.transition(from: from, to: phase)))
            if redraw { state.outbox.append(.draw(next)) }
            return true
        }
    }

    /// The squad's functions on new info, called without the lock.
    private func outcome(for info: C.Info) -> Outcome {
        (
            info: info, finished: capabilities.isFinished?(component, info) == true,
            refresh: capabilities.refreshInterval?(component, info), events: capabilities.events?(component, info) ?? []
        )
    }

    /// What new info means for the host: a hidden card comes back, a finished subject is said once, and a
    /// component that wants to be looked at again says when.
    private func announce(_ outcome: Outcome, _ state: inout State) {
        if state.hidden {
            state.hidden = false
            state.outbox.append(.post(.event(.show)))
        }
        if !state.finished, outcome.finished {
            state.finished = true
            state.outbox.append(.post(.event(.finished)))
        }
        if let interval = outcome.refresh { state.outbox.append(.post(.event(.refresh(after: interval)))) }
    }

    private func consumeAll(into info: C.Info, _ received: [DomainEvent]) -> C.Info {
        guard let consume = capabilities.consume else { return info }
        return received.reduce(info) { consume(component, $1, $0) }
    }

    private func newEvents(_ outcome: Outcome, _ state: inout State) -> [DomainEvent] {
        let events = outcome.events.filter { !state.published.contains($0) }
        state.published.append(contentsOf: events)
        return events
    }
}

extension Failure {
    /// Turns any load error into a reason a person can read, naming the endpoint or the missing field.
    public init(describing error: any Error) {
        switch error {
        case let failure as Failure: self = failure
        case let backend as BackendError: self.init(backend.description, transient: backend.isTransient)
        case let deadline as DeadlineExceeded:
            self.init("no answer within \(String(format: "%g", deadline.limit.seconds))s", transient: true)
        case is CancellationError: self.init("cancelled")
        case let decoding as DecodingError: self.init("unexpected payload: \(decoding.summary)")
        default: self.init("\(error)")
        }
    }
}

extension DecodingError {
    /// "missing key 'logo' at method" rather than Foundation's debug dump.
    var summary: String {
        func at(_ context: Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "" : " at \(path)"
        }
        switch self {
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(at(context))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let what = context.codingPath.isEmpty ? "the payload" : "the value"
            return "\(what) must be \(Self.kind(type))\(at(context))"
        case .dataCorrupted(let context) where context.debugDescription.hasPrefix("Cannot initialize"):
            return "a value this card does not know\(at(context))"
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            // Foundation says this, with no path, both for broken JSON and for a number too large for its field.
            if context.codingPath.isEmpty, detail == nil, context.debugDescription.hasSuffix("not valid JSON.") {
                return "not valid JSON, or a number too large for its field"
            }
            return context.debugDescription + (detail.map { " (\($0))" } ?? "") + at(context)
        @unknown default: return "a payload this card cannot read"
        }
    }

    /// A Swift type in the words of JSON ("an object", "a number"): people read payloads, not our types.
    static func kind(_ type: Any.Type) -> String {
        let name = String(String(describing: type).prefix { $0.isLetter })
        let numbers = ["Int", "UInt", "Double", "Float", "Decimal"]
        let words = ["Dictionary": "an object", "Array": "a list", "String": "a string", "Bool": "true or false"]
        return numbers.contains(name) ? "a number" : words[name] ?? "a value of another kind"
    }
}
