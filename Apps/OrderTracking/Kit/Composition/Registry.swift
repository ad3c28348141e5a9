import ComponentWorkers
import Core
import Feed
import FixtureBackend
import Location
import Login
import Order
import Payments
import Profile
import Promo
import Storage
import Tabs

/// The composition root's one list of components: adding a module to the screen is one line here.
enum HostRegistry {
    static let lines: [ComponentRegistration] = [
        OrderModule.registration,
        LocationModule.eta,
        LocationModule.delivery,
        PaymentsModule.registration,
        OrderModule.cart,
        PaymentsModule.methods,
        PaymentsModule.total,
        PromoModule.registration,
        // squad:new-registration (squad new inserts above this line)
    ]

    /// What squads call outside their cards (login hooks, tabs): one line per declaration, as for a card.
    static let otherEndpoints: [EndpointDeclaration] = [
        LoginModule.account, ProfilePlugin.endpoint, FeedPlugin.endpoint,
    ]

    /// What each squad's demo tree may answer, from the lines above (every card's endpoint and the sends it owns)
    /// and the other endpoints: the embedded backend refuses any other file in a squad's tree.
    static var fixtureClaims: FixtureClaims { FixtureClaims(registrations: lines, calling: otherEndpoints) }

    /// The login hooks that run in their squad's worker (a crashing hook is a failed hook), each made over a backend.
    static let hooks: [(module: String, make: @Sendable (any Backend) -> any PostLoginSuccessPlugin)] = [
        ("Profile", { ProfilePlugin(backend: $0) }), ("Feed", { FeedPlugin(backend: $0) }),
    ]

    /// Those hooks as their workers run them.
    static var errands: [WorkerErrand] {
        hooks.map { WorkerErrand(module: $0.module, id: $0.module, run: RemoteLoginHook.work($0.make)) }
    }

    /// The registry for one run: the static lines plus the Login and Tabs cards, which need the run's session
    /// store and tab container.
    static func make(store: UserStore, tabs: TabContainer) -> ComponentRegistry {
        var registry = ComponentRegistry()
        let dynamic = [
            TabsModule.registration(container: tabs, selected: TrackingTab.tabID, session: { store.tabSession }),
            LoginModule.registration(sessions: store),
        ]
        for line in lines + dynamic {
            do { try registry.register(line) } catch { preconditionFailure("host registry is inconsistent: \(error)") }
        }
        return registry
    }
}
