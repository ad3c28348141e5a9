import Core
import Location
import Login
import Order
import Payments
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
        // squad:new-registration (squad new inserts above this line)
    ]

    /// The registry for one run: the static lines plus the Login, Tabs and Promo cards, which need the run's
    /// session store, tab container and promo input.
    static func make(store: UserStore, tabs: TabContainer, promo: PromoInput) -> ComponentRegistry {
        var registry = ComponentRegistry()
        let dynamic = [
            TabsModule.registration(container: tabs, selected: TrackingTab.tabID, session: { store.tabSession }),
            LoginModule.registration(sessions: store),
            PromoModule.registration(input: promo),
        ]
        for line in lines + dynamic {
            do { try registry.register(line) } catch { preconditionFailure("host registry is inconsistent: \(error)") }
        }
        return registry
    }
}
