import Foundation

/// The type-erased face of a running component: the input interface a host drives and the snapshot it reads.
public protocol LoadableComponent: Sendable {
    /// The component's id.
    var id: ComponentID { get }
    /// Event names this component consumes, for the host's router.
    var consumedEvents: Set<String> { get }
    /// Draws the start state (the skeleton) so the first frame is complete before anything loads.
    func present()
    /// Loads into the slot: loading → info, or → failed followed by a `hide` event.
    func load() async
    /// Reloads shown info (info → loading → …); an illegal call is reported as a diagnostic.
    func refresh() async
    /// Loads again after a failure (failed → loading → …).
    func retry() async
    /// Drops the answer of any load under way.
    func cancel()
    /// Applies another component's event; returns the events this causes in turn, for the router.
    func receive(_ event: DomainEvent) -> [DomainEvent]
    /// Whether the component is `Validatable` at all (so a failed load means "could not check", not "no opinion").
    var validates: Bool { get }
    /// The component's verdict on `action`, or nil if it does not validate or has no info yet.
    func validate(_ action: UserAction) -> Verdict?
    /// The current state; `includingInfo` encodes the info as JSON, which only JSON output needs (the encoder's
    /// first use is a large share of a text screen's start-up).
    func snapshot(includingInfo: Bool) -> ComponentSnapshot
}

extension LoadableComponent {
    /// The current state with its info, for JSON output and tests.
    public var snapshot: ComponentSnapshot { snapshot(includingInfo: true) }
}

/// A component's state as plain data.
public struct ComponentSnapshot: Sendable, Equatable {
    /// The component's id.
    public var id: ComponentID
    /// Its phase.
    public var phase: Phase
    /// Why it failed, when it did.
    public var reason: String?
    /// Its info encoded as JSON (sorted keys), when it has some and it was asked for.
    public var info: Data?
    /// What it last drew.
    public var block: Block?
}

/// Runs one component in one slot: drives the state machine, applies the deadline, drops stale answers,
/// hides on failure, publishes and consumes domain events, and reports every step to the slot.
/// The slot's sink is called while the container's lock is held, so it must not call back into the container.
public final class ComponentContainer<C: Component>: LoadableComponent {
    private struct State {
        var state: ComponentState<C.Info> = .loading
        var generation = 0
        var started = false
        var block: Block?
        var received: [DomainEvent] = []
        var published: [DomainEvent] = []
        var hidden = false
        var finished = false
        var shownOnce = false
    }

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

    /// Event names the component consumes.
    public var consumedEvents: Set<String> { capabilities.routedEvents }

    /// Draws the skeleton once.
    public func present() { state.withLock { startIfNeeded(&$0) } }

    /// Loads from the start state.
    public func load() async { await run(from: nil) }

    /// Reloads shown info.
    public func refresh() async { await run(from: .refresh) }

    /// Loads again after a failure.
    public func retry() async { await run(from: .retry) }

    /// Makes any answer in flight stale.
    public func cancel() { state.withLock { $0.generation += 1 } }

    /// Applies a routed event now if info is shown, and remembers it for info that arrives later.
    public func receive(_ event: DomainEvent) -> [DomainEvent] {
        state.withLock { state in
            if capabilities.refreshingEvents.contains(event.name) { slot.post(.event(.refresh(after: .zero))) }
            guard capabilities.consumedEvents.contains(event.name) else { return [] }
            state.received.removeAll { $0.name == event.name }
            state.received.append(event)
            guard case .info(let info) = state.state else { return [] }
            let updated = consumeAll(into: info, state)
            guard updated != info else { return [] }
            apply(.receive, .info(updated), &state)
            announce(updated, &state)
            return newEvents(for: updated, &state)
        }
    }

    /// Whether the component validates actions.
    public var validates: Bool { capabilities.validate != nil }

    /// Asks a validating component about `action`.
    public func validate(_ action: UserAction) -> Verdict? {
        guard let validate = capabilities.validate, let info = current.info else { return nil }
        let verdict = validate(component, action, info)
        track(.verdict(action, verdict))
        return verdict
    }

    /// Forwards what the squad wants recorded about `moment` (``Tracking``) to the slot, for the host to write.
    private func track(_ moment: Moment<C.Info>) {
        for event in capabilities.analytics?(component, moment) ?? [] { slot.post(.event(.analytics(event))) }
    }

    /// The state as plain data.
    public func snapshot(includingInfo: Bool) -> ComponentSnapshot {
        state.withLock { state in
            var reason: String?
            if case .failed(let failure) = state.state { reason = failure.reason }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let info = includingInfo ? state.state.info.flatMap { try? encoder.encode($0) } : nil
            return ComponentSnapshot(id: C.id, phase: state.state.phase, reason: reason, info: info, block: state.block)
        }
    }

    private func run(from transition: Transition?) async {
        let generation: Int? = state.withLock { state in
            startIfNeeded(&state)
            if let transition {
                // A refresh keeps the current card on screen until the new answer arrives: no skeleton flicker
                // on every `--watch` round. A retry after a failure shows the skeleton again.
                guard apply(transition, .loading, &state, redraw: transition != .refresh) else { return nil }
            } else if state.state.phase != .loading {
                slot.post(.diagnostic("load() called in '\(state.state.phase.rawValue)'; use refresh() or retry()"))
                return nil
            }
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        let component = component
        let context = context
        let result = await Result(catching: {
            try await withDeadline(context.timeout, on: context.clock) { try await component.load(context) }
        })
        state.withLock { state in
            guard generation == state.generation else { return slot.post(.dropped(generation: generation)) }
            switch result {
            case .success(let info):
                let info = consumeAll(into: info, state)
                if apply(.receive, .info(info), &state) {
                    // Analytics hears of a card when it appears (first info, or info after a hide), not every reload.
                    if !state.shownOnce || state.hidden { track(.shown(info)) }
                    state.shownOnce = true
                    announce(info, &state)
                    for event in newEvents(for: info, &state) { slot.post(.event(.domain(event))) }
                }
            case .failure(let error):
                let failure = Failure(describing: error)
                if apply(.fail, .failed(failure), &state) {
                    state.hidden = true
                    slot.post(.event(.hide(failure)))
                    track(.hidden(failure))
                }
            }
        }
    }

    private func startIfNeeded(_ state: inout State) {
        guard !state.started else { return }
        state.started = true
        slot.post(.transition(from: nil, to: .loading))
        draw(&state)
    }

    @discardableResult
    private func apply(
        _ transition: Transition, _ next: ComponentState<C.Info>, _ state: inout State, redraw: Bool = true
    ) -> Bool {
        let from = state.state.phase
        switch StateMachine.next(after: from, on: transition) {
        case .failure(let illegal):
            slot.post(.diagnostic("\(C.id): \(illegal)"))
            return false
        case .success(let phase):
            precondition(phase == next.phase, "transition table and requested state disagree")
            state.state = next
            slot.post(.transition(from: from, to: phase))
            if redraw { draw(&state) }
            return true
        }
    }

    private func draw(_ state: inout State) {
        state.block = component.card(for: state.state, context: context)
        slot.post(.drew(state.block))
    }

    /// What new info means for the host: a hidden card comes back, a finished subject is said once, and a
    /// component that wants to be looked at again says when.
    private func announce(_ info: C.Info, _ state: inout State) {
        if state.hidden {
            state.hidden = false
            slot.post(.event(.show))
        }
        if !state.finished, capabilities.isFinished?(component, info) == true {
            state.finished = true
            slot.post(.event(.finished))
        }
        if let interval = capabilities.refreshInterval?(component, info) {
            slot.post(.event(.refresh(after: interval)))
        }
    }

    private func consumeAll(into info: C.Info, _ state: State) -> C.Info {
        guard let consume = capabilities.consume else { return info }
        return state.received.reduce(info) { consume(component, $1, $0) }
    }

    private func newEvents(for info: C.Info, _ state: inout State) -> [DomainEvent] {
        let events = (capabilities.events?(component, info) ?? []).filter { !state.published.contains($0) }
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
        case .typeMismatch(let type, let context): return "expected \(type)\(at(context))"
        case .valueNotFound(let type, let context): return "null where \(type) was expected\(at(context))"
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            // Foundation says this, with no path, both for broken JSON and for a number too large for its field.
            if context.codingPath.isEmpty, detail == nil, context.debugDescription.hasSuffix("not valid JSON.") {
                return "not valid JSON, or a number too large for its field"
            }
            return context.debugDescription + (detail.map { " (\($0))" } ?? "") + at(context)
        @unknown default: return "\(self)"
        }
    }
}
