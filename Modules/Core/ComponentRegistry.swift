/// One module's entry in a host's registry: the id, who owns it, what it calls and how to make it.
public struct ComponentRegistration: Sendable {
    /// The component's id.
    public let id: ComponentID
    /// The module (squad) that owns the component.
    public let module: String
    /// The endpoint template it calls, e.g. "orders/{order}/payment.json", for listings; its squad's demo data
    /// (`Modules/<Name>/Fixtures`) may answer it, and no other squad's may.
    public let endpoint: String
    /// The sends (a screen action's `send`, "carts/{cart}/pay") whose answers this card's squad gives in its demo
    /// data (`carts/C100/_pay.post.json`): the card that vouches for a payment answers it, not whoever adds a file.
    public let sends: [String]
    /// A fresh instance of the component, for a host that runs it its own way (the screen runtime's kernel).
    public let component: @Sendable () -> any Component

    /// Registers component `C`, built fresh by `make` for every slot.
    public init<C: Component>(
        module: String, endpoint: String, sends: [String] = [], make: @escaping @Sendable () -> C
    ) {
        (self.id, self.module, self.endpoint, self.sends) = (C.id, module, endpoint, sends)
        component = make
    }
}

/// An endpoint a squad's code calls outside any card (a login hook's, a tab's). Like a registration's, it is what
/// the squad's own demo data may answer: a squad's fixture tree holds the answers to its own calls only, so its
/// files never stand in for another squad's endpoint or the host's screens.
public struct EndpointDeclaration: Sendable, Equatable {
    /// The module (squad) that calls it.
    public let module: String
    /// Its template, "users/{user}/profile.json".
    public let endpoint: String

    /// Declares that `module` calls `endpoint`.
    public init(module: String, endpoint: String) { (self.module, self.endpoint) = (module, endpoint) }
}

/// Why the registry refused a registration or a look-up.
public enum RegistryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two modules claimed the same id.
    case duplicate(ComponentID, registeredBy: String, alsoClaimedBy: String)
    /// Nobody registered this id.
    case unknown(ComponentID, known: [ComponentID])

    /// Names every party so the conflict can be settled.
    public var description: String {
        switch self {
        case .duplicate(let id, let first, let second):
            "component id '\(id)' is registered by \(first) and again by \(second); ids must be unique"
        case .unknown(let id, let known):
            "unknown component '\(id)'; known: \(known.map(\.rawValue).joined(separator: ", "))"
        }
    }
}

/// id → factory: the one place a host changes to add a component.
public struct ComponentRegistry: Sendable {
    // Keyed by the id's text: a String-keyed dictionary needs no hashing set-up of its own at start-up.
    private var entries: [String: ComponentRegistration] = [:]
    private var order: [ComponentID] = []

    /// An empty registry.
    public init() {}

    /// Adds a registration; a second one for the same id is an error naming both modules.
    public mutating func register(_ registration: ComponentRegistration) throws(RegistryError) {
        if let existing = entries[registration.id.rawValue] {
            throw .duplicate(registration.id, registeredBy: existing.module, alsoClaimedBy: registration.module)
        }
        entries[registration.id.rawValue] = registration
        order.append(registration.id)
    }

    /// The registration for `id`, or an error listing the ids that do exist.
    public func registration(for id: ComponentID) throws(RegistryError) -> ComponentRegistration {
        guard let entry = entries[id.rawValue] else { throw .unknown(id, known: order) }
        return entry
    }

    /// Every registration, in registration order.
    public var registrations: [ComponentRegistration] { order.compactMap { entries[$0.rawValue] } }
}
