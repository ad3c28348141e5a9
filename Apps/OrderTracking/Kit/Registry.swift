import Core
import Location
import Order
import Payments

/// The composition root's one list of components: adding a module to the screen is one line here.
enum HostRegistry {
    static let lines: [ComponentRegistration] = [
        OrderModule.registration,
        LocationModule.eta,
        LocationModule.delivery,
        PaymentsModule.registration,
        // squad:new-registration (squad new inserts above this line)
    ]

    static func make() -> ComponentRegistry {
        var registry = ComponentRegistry()
        for line in lines {
            do { try registry.register(line) } catch { preconditionFailure("host registry is inconsistent: \(error)") }
        }
        return registry
    }
}
