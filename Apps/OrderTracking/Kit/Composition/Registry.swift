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
        PromoModule.registration,
        // squad:new-registration (squad new inserts above this line)
    ]

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
