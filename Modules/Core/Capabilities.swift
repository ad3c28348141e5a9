/// What a component type opted into (the opt-in protocols beside ``Component``), found once per type, so a host
/// calls plain closures and the squad contract stays three members. Public for the one host that runs components
/// (ScreenRuntime's `CardKernel`, which finds them once per card).
public struct Capabilities<C: Component>: Sendable {
    /// Events it consumes into its info (``EventConsuming``).
    public private(set) var consumed: Set<String> = []
    /// Events after which it asks to be reloaded (``RefreshingOnEvents``).
    public private(set) var refreshing: Set<String> = []
    /// ``EventConsuming/consume(_:into:)``, when it opted in.
    public private(set) var consume: (@Sendable (C, DomainEvent, C.Info) -> C.Info)?
    /// ``EventPublishing/events(for:)``, when it opted in.
    public private(set) var events: (@Sendable (C, C.Info) -> [DomainEvent])?
    /// ``Validatable/validate(_:info:)``, when it opted in.
    public private(set) var validate: (@Sendable (C, UserAction, C.Info) -> Verdict)?
    /// ``SelfRefreshing/refreshInterval(for:)``, when it opted in.
    public private(set) var refreshInterval: (@Sendable (C, C.Info) -> Duration?)?
    /// ``Finishing/isFinished(_:)``, when it opted in.
    public private(set) var isFinished: (@Sendable (C, C.Info) -> Bool)?
    /// ``Tracking/analytics(for:)``, when it opted in.
    public private(set) var analytics: (@Sendable (C, Moment<C.Info>) -> [AnalyticsEvent])?

    // One cast per protocol here; each closure then opens the component as that protocol (its `Info` is `C.Info`,
    // so the `as?` inside the erased helpers below always succeeds).
    /// Finds what `C` opted into.
    public init() {
        if let type = C.self as? any EventConsuming.Type {
            consumed = Set(type.consumedEvents.map(\.rawValue))
            consume = { ($0 as? any EventConsuming)?.consume(erased: $1, into: $2) as? C.Info ?? $2 }
        }
        if C.self is any EventPublishing.Type { events = { ($0 as? any EventPublishing)?.events(erased: $1) ?? [] } }
        if C.self is any Validatable.Type {
            validate = { ($0 as? any Validatable)?.validate($1, erased: $2) ?? .allow }
        }
        if C.self is any SelfRefreshing.Type { refreshInterval = { ($0 as? any SelfRefreshing)?.interval(erased: $1) } }
        if C.self is any Finishing.Type { isFinished = { ($0 as? any Finishing)?.isFinished(erased: $1) ?? false } }
        if C.self is any Tracking.Type { analytics = { ($0 as? any Tracking)?.analytics(erased: $1) ?? [] } }
        if let type = C.self as? any RefreshingOnEvents.Type { refreshing = Set(type.refreshingEvents.map(\.rawValue)) }
    }
}

extension EventConsuming {
    fileprivate func consume(erased event: DomainEvent, into info: Any) -> Any {
        (info as? Info).map { consume(event, into: $0) } ?? info
    }
}
extension EventPublishing {
    fileprivate func events(erased info: Any) -> [DomainEvent] { (info as? Info).map { events(for: $0) } ?? [] }
}
extension Validatable {
    fileprivate func validate(_ action: UserAction, erased info: Any) -> Verdict {
        (info as? Info).map { validate(action, info: $0) } ?? .allow
    }
}
extension SelfRefreshing {
    fileprivate func interval(erased info: Any) -> Duration? { (info as? Info).flatMap { refreshInterval(for: $0) } }
}
extension Finishing {
    fileprivate func isFinished(erased info: Any) -> Bool { (info as? Info).map { isFinished($0) } ?? false }
}
extension Tracking {
    fileprivate func analytics<Other>(erased moment: Moment<Other>) -> [AnalyticsEvent] {
        (moment as? Moment<Info>).map { analytics(for: $0) } ?? []
    }
}
