import Core
import Foundation

/// One card on the screen: who registered it and the running component in its slot.
struct ScreenSlot: Sendable {
    let registration: ComponentRegistration
    let component: any LoadableComponent
}

/// What the host sees of a slot's life: which slot changed, and how.
enum ScreenMessage: Sendable {
    /// A component reported something.
    case update(Int, SlotUpdate)
    /// Everything posted before this has been handled; resumed with how many updates were handled in all.
    case barrier(CheckedContinuation<Int, Never>)
}

extension ScreenLayout {
    /// A slot per layout entry the registry knows, in layout order, each reporting into `sink`. Unknown and
    /// repeated ids are skipped with a line on stderr: a card appears at most once on a screen.
    func slots(
        for options: TrackingOptions, host: HostEnvironment, sink: AsyncStream<ScreenMessage>.Continuation
    ) -> [ScreenSlot] {
        var slots: [ScreenSlot] = []
        var seen: Set<String> = []
        let source = "orders/\(options.order)/screen.json"
        for (position, entry) in entries.enumerated() {
            guard seen.insert(entry.id.rawValue).inserted else {
                host.terminal.err(
                    "skipping a second '\(entry.id)' (position \(position + 1)) in \(source): a card appears once")
                continue
            }
            do {
                let registration = try host.registry.registration(for: entry.id)
                let index = slots.count
                let slot = Slot(id: entry.id) { sink.yield(.update(index, $0)) }
                let context = ComponentContext(
                    ids: ["order": options.order], backend: host.backend, clock: host.clock, timeout: options.timeout,
                    payload: entry.payload)
                slots.append(
                    ScreenSlot(
                        registration: registration, component: registration.instantiate(in: slot, context: context)))
            } catch {
                host.terminal.err("skipping '\(entry.id)' from \(source): \(error)")
            }
        }
        return slots
    }
}
