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

    /// An answer drawing `block` for `info`.
    public init(info: AnyInfo? = nil, json: Data? = nil, block: Block? = nil) {
        (self.info, self.json, self.block) = (info, json, block)
    }
}

/// One component in one slot with no state of its own: it runs the squad's `load` under a deadline and its
/// `card` and opt-ins on info it is handed. The screen runtime keeps every card's state and calls this.
public struct CardKernel: Sendable {
    /// The component's id.
    public let id: ComponentID
    /// Events it consumes into its info (``EventConsuming``).
    public let consumes: Set<String>
    /// Events after which it asks to be loaded again (``RefreshingOnEvents``).
    public let refreshesOn: Set<String>
    /// Whether it is ``Validatable`` (so a card without info means "could not check", not "no opinion").
    public let validates: Bool
    private let loadInfo: @Sendable ([DomainEvent]) async throws -> AnyInfo
    private let draw: @Sendable (ComponentState<AnyInfo>) -> Block?
    private let outcome: @Sendable (AnyInfo, [DomainEvent], Bool, [UserAction]) -> CardAnswer
    private let consumeOne: @Sendable (DomainEvent, AnyInfo) -> AnyInfo
    private let judge: @Sendable (UserAction, AnyInfo) -> Verdict?
    private let track: @Sendable (Moment<AnyInfo>) -> [AnalyticsEvent]

    /// `component` for `context`, its opt-ins found once here.
    public init<C: Component>(_ component: C, context: ComponentContext) {
        let capabilities = Capabilities<C>()
        let open: @Sendable (AnyInfo) -> C.Info? = { $0.value as? C.Info }
        (id, consumes, refreshesOn) = (C.id, capabilities.consumed, capabilities.refreshing)
        validates = capabilities.validate != nil
        loadInfo = { received in
            var context = context
            context.received = received
            return AnyInfo(try await component.load(context))
        }
        draw = { state in
            switch state {
            case .loading: component.card(for: .loading, context: context)
            case .failed(let failure): component.card(for: .failed(failure), context: context)
            case .info(let info): open(info).flatMap { component.card(for: .info($0), context: context) }
            }
        }
        let consume: @Sendable (DomainEvent, C.Info) -> C.Info = { event, info in
            capabilities.consume.map { $0(component, event, info) } ?? info
        }
        consumeOne = { event, info in open(info).map { AnyInfo(consume(event, $0)) } ?? info }
        outcome = { erased, received, json, actions in
            guard let first = open(erased) else { return CardAnswer(info: erased) }
            let info = received.filter { capabilities.consumed.contains($0.name) }.reduce(first) { consume($1, $0) }
            var answer = CardAnswer(info: AnyInfo(info), block: component.card(for: .info(info), context: context))
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
        }
        judge = { action, info in open(info).flatMap { info in capabilities.validate?(component, action, info) } }
        track = { moment in
            guard let analytics = capabilities.analytics else { return [] }
            switch moment {
            case .shown(let info): return open(info).map { analytics(component, .shown($0)) } ?? []
            case .hidden(let failure): return analytics(component, .hidden(failure))
            case .stale(let since): return analytics(component, .stale(since: since))
            case .verdict(let action, let verdict): return analytics(component, .verdict(action, verdict))
            }
        }
    }

    /// Runs the squad's `load` with `received` (the card's latest events, from the screen's state) in its
    /// context and gives up after `limit`: the info, or why there is none in a person's words.
    public func load(within limit: Duration, on clock: any CourierClock, received: [DomainEvent] = []) async
        -> Result<AnyInfo, Failure>
    {
        do { return .success(try await withDeadline(limit, on: clock) { try await loadInfo(received) }) } catch {
            return .failure(Failure(describing: error))
        }
    }

    /// The card the component draws for `state` (its skeleton for `.loading`).
    public func card(for state: ComponentState<AnyInfo>) -> Block? { draw(state) }

    /// What `info` means once the events received so far that it consumes are consumed into it, with its verdict on each of
    /// `actions`; `json` encodes it too.
    public func answer(
        for info: AnyInfo, consuming received: [DomainEvent], json: Bool, actions: [UserAction] = []
    ) -> CardAnswer {
        outcome(info, received, json, actions)
    }

    /// `info` after another card's `event` (unchanged when the component does not consume it).
    public func consume(_ event: DomainEvent, into info: AnyInfo) -> AnyInfo { consumeOne(event, info) }

    /// The component's verdict on `action` given `info` (nil: it does not validate).
    public func validate(_ action: UserAction, info: AnyInfo) -> Verdict? { judge(action, info) }

    /// What the squad records about `moment` (``Tracking``); empty when it records nothing.
    public func analytics(for moment: Moment<AnyInfo>) -> [AnalyticsEvent] { track(moment) }
}

extension ComponentRegistration {
    /// The component in a kernel for `context`: what a screen runs when it keeps the card's state itself.
    public func kernel(context: ComponentContext) -> CardKernel { CardKernel(component(), context: context) }
}
