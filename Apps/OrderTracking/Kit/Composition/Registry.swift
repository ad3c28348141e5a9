import ComponentWorkers
import Core
import Feed
import FixtureBackend
import Foundation
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

    /// Every login hook, in the order they run: the one place that says where each runs. A hook in a worker runs in
    /// its squad's (a crashing hook is a failed hook) over the backend the worker is handed; the params of the tab
    /// it names come back to the host's tab with its line, so a badge it sets (the Feed's count) reaches the bar.
    /// A hook in the host shares the host's state (Storage writes the session store).
    static let hooks: [LoginHook] = [
        LoginHook(id: "Profile", runs: .worker { backend, _ in ProfilePlugin(backend: backend) }),
        LoginHook(
            id: "Feed", tab: "feed", runs: .worker { backend, params in FeedPlugin(backend: backend, params: params) }),
        LoginHook(id: "Storage", runs: .host { store in StoragePlugin(store: store) }),
    ]

    /// The hooks that run in workers, as the workers run them.
    static var errands: [WorkerErrand] {
        hooks.compactMap { hook in
            guard case .worker(let make) = hook.runs else { return nil }
            let work = RemoteLoginHook.work { backend in
                let params = TabParams()
                return (make(backend, params), { params.values })
            }
            return WorkerErrand(module: hook.id, id: hook.id, run: work)
        }
    }

    /// The registry for one run: the static lines plus the Login and Tabs cards, which need the run's session
    /// store and tab container. Two lines for one id is a conflict, said in one line (``conflict``).
    static func make(store: UserStore, tabs: TabContainer, lines: [ComponentRegistration] = lines)
        throws(HostConflict) -> ComponentRegistry
    {
        var registry = ComponentRegistry()
        let dynamic = [
            TabsModule.registration(container: tabs, selected: TrackingTab.tabID, session: { store.tabSession }),
            LoginModule.registration(sessions: store),
        ]
        for line in lines + dynamic {
            do { try registry.register(line) } catch { throw HostConflict(description: "the registry: \(error)") }
        }
        return registry
    }

    /// Why the host's tables cannot be composed (two cards, hooks or tabs under one id), or nil: checked once, before
    /// any command runs, so a conflict is one line and exit 1 rather than a crash.
    static let conflict: HostConflict? = {
        let (nothing, clock) = (FileBackend(rootPaths: [], clock: SystemClock()), SystemClock())
        do throws(HostConflict) {
            _ = try HostEnvironment.compose(backend: nothing, store: UserStore(path: ""), workers: nil, clock: clock)
        } catch { return error }
        return nil
    }()
}

/// Two of the host's lines under one id (a card, a login hook, a tab): what the composition root refuses.
struct HostConflict: Error, Equatable, CustomStringConvertible {
    /// "the registry: plugin 'order' is already registered …".
    let description: String
}

/// One login hook of the host's table: its id (the squad whose worker runs it, when it runs in one), the tab whose
/// params it updates, and where it runs.
struct LoginHook: Sendable {
    /// Where a hook runs, with how it is made there.
    enum Place: Sendable {
        /// In its squad's worker, made over the worker's backend with a fresh set of its tab's params, whose values
        /// come back to the host's tab with its line.
        case worker(@Sendable (any Backend, TabParams) -> any PostLoginSuccessPlugin)
        /// In the host, over the run's session store.
        case host(@Sendable (UserStore) -> any PostLoginSuccessPlugin)
    }

    let id: String
    var tab: String? = nil
    let runs: Place
}
