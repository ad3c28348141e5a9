import Core
import Foundation

/// A card's info with its type erased, so one screen state can hold every card's info as a value: equal when
/// both are of one type and equal.
public struct AnyInfo: Sendable, Equatable {
    /// The component's own `Info`.
    public let value: any Sendable
    private let equals: @Sendable (any Sendable) -> Bool
    private let encode: @Sendable () -> Data?

    /// Wraps `info`.
    public init<Info: Sendable & Equatable & Encodable>(_ info: Info) {
        value = info
        equals = { ($0 as? Info) == info }
        encode = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try? encoder.encode(info)
        }
    }

    /// Info held elsewhere (by its module's worker): `token` stands for it here and `json` is its JSON, so the
    /// screen can report it and hand the token back, never reading the squad's type.
    public init<Token: Sendable & Equatable>(held token: Token, json: Data?) {
        value = token
        equals = { ($0 as? Token) == token }
        encode = { json }
    }

    /// The info as JSON with sorted keys (the JSON report's `info`); nil if it cannot be encoded.
    public func json() -> Data? { encode() }

    /// Same type, equal values.
    public static func == (one: AnyInfo, other: AnyInfo) -> Bool { one.equals(other.value) }
}

/// What a component says about a piece of info: what it draws, publishes and decides. Worked out by the kernel
/// from the squad's functions, so whoever owns the screen's state only stores it.
public struct CardAnswer: Sendable, Equatable {
    /// The info (after the events the card had received were consumed into it).
    public var info: AnyInfo?
    /// The info as JSON, when the screen was asked to keep it (the JSON report's `info`).
    public var json: Data?
    /// The card the component draws for it.
    public var block: Block?
    /// Events it publishes now, to be routed to the cards that consume them (each said once per card).
    public var events: [DomainEvent] = []
    /// It says what the screen follows is over.
    public var finished = false
    /// It wants another look after this long.
    public var refreshAfter: Duration?
    /// Its verdict on each of the screen's actions (none when it does not validate).
    public var verdicts: [UserAction: Verdict] = [:]
    /// Events it announced that its module does not declare it publishes: refused (never routed), and said.
    public var refused: [DomainEvent] = []

    /// An answer drawing `block` for `info`.
    public init(info: AnyInfo? = nil, json: Data? = nil, block: Block? = nil) {
        (self.info, self.json, self.block) = (info, json, block)
    }
}

/// What a card's squad code can be asked, each as an async call that may fail: the same calls whether the code
/// runs in this process (the kernel calls the squad's functions) or in its module's worker (each crosses a pipe,
/// and a crash there is the call's failure). The load has no deadline here: the kernel gives it one.
public struct KernelCalls: Sendable {
    /// The squad's `load` with the card's latest events in its context.
    public var load: @Sendable ([DomainEvent]) async throws -> AnyInfo
    /// The card the component draws for a state (its skeleton for `.loading`).
    public var draw: @Sendable (ComponentState<AnyInfo>) async throws(Failure) -> Block?
    /// What the info means once the events received so far are consumed into it, with its verdicts on the
    /// actions and its JSON when asked.
    public var answer: @Sendable (AnyInfo, [DomainEvent], Bool, [UserAction]) async throws(Failure) -> CardAnswer
    /// Its verdict on an action given info (nil: it does not validate).
    public var validate: @Sendable (UserAction, AnyInfo) async throws(Failure) -> Verdict?
    /// What the squad records about a moment (``Tracking``).
    public var analytics: @Sendable (Moment<AnyInfo>) async throws(Failure) -> [AnalyticsEvent]
    /// The skeleton drawn at once, for code in this process; nil when the skeleton must be asked for (a worker):
    /// the first frame never waits for another process.
    public var skeletonAtOnce: (@Sendable () -> Block?)?

    /// Calls made of these closures (a worker's proxy builds them; ``CardKernel/init(_:context:)`` makes the local ones).
    public init(
        load: @escaping @Sendable ([DomainEvent]) async throws -> AnyInfo,
        draw: @escaping @Sendable (ComponentState<AnyInfo>) async throws(Failure) -> Block?,
        answer: @escaping @Sendable (AnyInfo, [DomainEvent], Bool, [UserAction]) async throws(Failure) -> CardAnswer,
        validate: @escaping @Sendable (UserAction, AnyInfo) async throws(Failure) -> Verdict?,
        analytics: @escaping @Sendable (Moment<AnyInfo>) async throws(Failure) -> [AnalyticsEvent],
        skeletonAtOnce: (@Sendable () -> Block?)? = nil
    ) {
        (self.load, self.draw, self.answer) = (load, draw, answer)
        (self.validate, self.analytics, self.skeletonAtOnce) = (validate, analytics, skeletonAtOnce)
    }
}

/// One component in one slot with no state of its own: it runs the squad's `load` under a deadline and its
/// `card` and opt-ins on info it is handed, wherever that code runs (``KernelCalls``). The screen runtime keeps
/// every card's state and calls this.
public struct CardKernel: Sendable {
    /// The component's id.
    public let id: ComponentID
    /// Events it consumes into its info (``EventConsuming``).
    public let consumes: Set<String>
    /// Events after which it asks to be loaded again (``RefreshingOnEvents``).
    public let refreshesOn: Set<String>
    /// Whether it is ``Validatable`` (so a card without info means "could not check", not "no opinion").
    public let validates: Bool
    /// The events it may announce: those it declares (``EventPublishing/publishedEvents``) that its module's
    /// interface declares too; nil: any (a kernel built by hand, in a test). Any other is refused, wherever its code runs.
    public let publishes: Set<String>?
    /// The squad's code, here or in a worker.
    public let calls: KernelCalls

    /// A kernel for a component whose declarations are known here and whose code runs through `calls`.
    public init(
        id: ComponentID, consumes: Set<String>, refreshesOn: Set<String>, validates: Bool,
        publishes: Set<String>? = nil, calls: KernelCalls
    ) {
        (self.id, self.consumes, self.refreshesOn, self.validates, self.calls) =
            (id, consumes, refreshesOn, validates, calls)
        self.publishes = publishes
    }

    /// The events `C` may announce: those it declares, less any another squad's interface declares
    /// (`promo.applied` is Promo's to announce, whoever lists it): a squad's interface is its Swift module's name
    /// and "Interface" (`Order` → `OrderInterface`), so the type itself says whose it is.
    public static func publishable<C: Component>(_ type: C.Type) -> Set<String> {
        let declared = (type as? any EventPublishing.Type)?.publishedEvents ?? []
        let module = String(reflecting: type).prefix { $0 != "." }
        return Set(
            declared.filter { !$0.module.hasSuffix("Interface") || $0.module == module + "Interface" }.map(\.rawValue))
    }

    /// `component` for `context`, its opt-ins found once here and its code run in this process.
    public init<C: Component>(_ component: C, context: ComponentContext) {
        let capabilities = Capabilities<C>()
        let open: @Sendable (AnyInfo) -> C.Info? = { $0.value as? C.Info }
        let draw: @Sendable (ComponentState<AnyInfo>) -> Block? = { state in
            switch state {
            case .loading: component.card(for: .loading, context: context)
            case .failed(let failure): component.card(for: .failed(failure), context: context)
            case .info(let info): open(info).flatMap { component.card(for: .info($0), context: context) }
            }
        }
        let consume: @Sendable (DomainEvent, C.Info) -> C.Info = { event, info in
            capabilities.consume.map { $0(component, event, info) } ?? info
        }
        let calls = KernelCalls(
            load: { received in
                var context = context
                context.received = received
                return AnyInfo(try await component.load(context))
            },
            draw: { state in draw(state) },
            answer: { erased, received, json, actions in
                guard let first = open(erased) else { return CardAnswer(info: erased) }
                let info = received.filter { capabilities.consumed.contains($0.name) }.reduce(first) { consume($1, $0) }
                var answer = CardAnswer(
                    info: AnyInfo(info), block: component.card(for: .info(info), context: context))
                if json { answer.json = answer.info?.json() }
                answer.events = capabilities.events?(component, info) ?? []
                answer.finished = capabilities.isFinished?(component, info) == true
                answer.refreshAfter = capabilities.refreshInterval?(component, info)
                if let validate = capabilities.validate {
                    for action in actions {
                        answer.verdicts[action] = validate(component, action, info)
                    }
                }
                return answer
            },
            validate: { action, info in open(info).flatMap { info in capabilities.validate?(component, action, info) }
            },
            analytics: { moment in
                guard let analytics = capabilities.analytics else { return [] }
                switch moment {
                case .shown(let info): return open(info).map { analytics(component, .shown($0)) } ?? []
                case .hidden(let failure): return analytics(component, .hidden(failure))
                case .stale(let since): return analytics(component, .stale(since: since))
                case .verdict(let action, let verdict): return analytics(component, .verdict(action, verdict))
                }
            },
            skeletonAtOnce: { draw(.loading) })
        self.init(
            id: C.id, consumes: capabilities.consumed, refreshesOn: capabilities.refreshing,
            validates: capabilities.validate != nil, publishes: Self.publishable(C.self), calls: calls)
    }

    /// Runs the squad's `load` with `received` (the card's latest events, from the screen's state) in its
    /// context and gives up after `limit`: the info, or why there is none in a person's words.
    public func load(within limit: Duration, on clock: any CourierClock, received: [DomainEvent] = []) async
        -> Result<AnyInfo, Failure>
    {
        let load = calls.load
        do { return .success(try await withDeadline(limit, on: clock) { try await load(received) }) } catch {
            return .failure(Failure(describing: error))
        }
    }

    /// The card the component draws for `state` (its skeleton for `.loading`), or why it could not be drawn.
    public func card(for state: ComponentState<AnyInfo>) async -> Result<Block?, Failure> {
        do { return .success(try await calls.draw(state)) } catch { return .failure(error) }
    }

    /// What `info` means once the events received so far that it consumes are consumed into it, with its verdict
    /// on each of `actions`; `json` encodes it too.
    public func answer(
        for info: AnyInfo, consuming received: [DomainEvent], json: Bool, actions: [UserAction] = []
    ) async -> Result<CardAnswer, Failure> {
        do {
            var answer = try await calls.answer(info, received, json, actions)
            // Held here, for code in this process and in a worker alike: an event its module does not declare.
            if let publishes {
                answer.refused += answer.events.filter { !publishes.contains($0.name) }
                answer.events.removeAll { !publishes.contains($0.name) }
            }
            return .success(answer)
        } catch { return .failure(error) }
    }

    /// The component's verdict on `action` given `info` (nil: it does not validate, or could not say).
    public func validate(_ action: UserAction, info: AnyInfo) async -> Result<Verdict?, Failure> {
        do { return .success(try await calls.validate(action, info)) } catch { return .failure(error) }
    }

    /// What the squad records about `moment` (``Tracking``); empty when it records nothing.
    public func analytics(for moment: Moment<AnyInfo>) async -> Result<[AnalyticsEvent], Failure> {
        do { return .success(try await calls.analytics(moment)) } catch { return .failure(error) }
    }
}

/// Where a screen runs its cards' squad code: a host chooses, a screen never knows. In this process
/// (``InProcess``: a squad's tests, the harness, the benchmark) or in each module's worker process (the
/// order-tracking host), so that a squad's crash costs only its own cards.
public protocol ComponentRunner: Sendable {
    /// The kernel of `registration` for `context`.
    func kernel(_ registration: ComponentRegistration, context: ComponentContext) -> CardKernel
}

/// Runs squad code in this process: fast and debuggable, but a trap in it ends the process.
public struct InProcess: ComponentRunner {
    /// The runner a test or a harness uses.
    public init() {}

    /// The component's kernel, calling its code directly.
    public func kernel(_ registration: ComponentRegistration, context: ComponentContext) -> CardKernel {
        registration.kernel(context: context)
    }
}

extension ComponentRegistration {
    /// The component in a kernel for `context`, its code run in this process.
    public func kernel(context: ComponentContext) -> CardKernel { CardKernel(component(), context: context) }
}
