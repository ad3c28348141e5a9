/// What a component type opted into (the opt-in protocols beside ``Component``), found once per type, at
/// registration, so the container calls plain closures and the squad contract stays three members.
struct Capabilities<C: Component>: Sendable {
    var consumedEvents: Set<String> = []
    var refreshingEvents: Set<String> = []
    var consume: (@Sendable (C, DomainEvent, C.Info) -> C.Info)?
    var events: (@Sendable (C, C.Info) -> [DomainEvent])?
    var validate: (@Sendable (C, UserAction, C.Info) -> Verdict)?
    var refreshInterval: (@Sendable (C, C.Info) -> Duration?)?
    var isFinished: (@Sendable (C, C.Info) -> Bool)?

    init() {
        if let type = C.self as? any EventConsuming.Type { (consumedEvents, consume) = Self.consuming(type) }
        if let type = C.self as? any EventPublishing.Type { events = Self.publishing(type) }
        if let type = C.self as? any Validatable.Type { validate = Self.validating(type) }
        if let type = C.self as? any SelfRefreshing.Type { refreshInterval = Self.refreshing(type) }
        if let type = C.self as? any Finishing.Type { isFinished = Self.finishing(type) }
        if let type = C.self as? any RefreshingOnEvents.Type { refreshingEvents = type.refreshingEvents }
    }

    /// Every event name the router should deliver to this component.
    var routedEvents: Set<String> { consumedEvents.union(refreshingEvents) }

    // Each helper opens the existential: `E` is `C` at run time, so every cast below succeeds.

    private static func consuming<E: EventConsuming>(
        _: E.Type
    ) -> (Set<String>, @Sendable (C, DomainEvent, C.Info) -> C.Info) {
        let names = E.consumedEvents
        return (
            names,
            { component, event, info in
                guard names.contains(event.name), let typed = component as? E, let current = info as? E.Info,
                    let updated = typed.consume(event, into: current) as? C.Info
                else { return info }
                return updated
            }
        )
    }

    private static func publishing<E: EventPublishing>(_: E.Type) -> @Sendable (C, C.Info) -> [DomainEvent] {
        { component, info in
            guard let typed = component as? E, let current = info as? E.Info else { return [] }
            return typed.events(for: current)
        }
    }

    private static func validating<E: Validatable>(_: E.Type) -> @Sendable (C, UserAction, C.Info) -> Verdict {
        { component, action, info in
            guard let typed = component as? E, let current = info as? E.Info else { return .allow }
            return typed.validate(action, info: current)
        }
    }

    private static func refreshing<E: SelfRefreshing>(_: E.Type) -> @Sendable (C, C.Info) -> Duration? {
        { component, info in
            guard let typed = component as? E, let current = info as? E.Info else { return nil }
            return typed.refreshInterval(for: current)
        }
    }

    private static func finishing<E: Finishing>(_: E.Type) -> @Sendable (C, C.Info) -> Bool {
        { component, info in
            guard let typed = component as? E, let current = info as? E.Info else { return false }
            return typed.isFinished(current)
        }
    }
}
