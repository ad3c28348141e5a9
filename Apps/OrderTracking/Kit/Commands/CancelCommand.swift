import Core

/// `cancel ORDER-ID`: loads the order's screen and asks every `Validatable` component whether it may be
/// cancelled. Fails closed: a validating component that could not load counts as a veto.
struct CancelCommand {
    let order: String
    let host: HostEnvironment
    let timeout: Duration

    func run() async -> ExitCode {
        let layout: ScreenLayout
        switch await ScreenLayout.fetch(order: order, host: host, timeout: timeout) {
        case .success(let fetched): layout = fetched
        case .failure(let error):
            host.terminal.err(error.message)
            return .fatal
        }
        let components = layout.entries.compactMap { entry -> (any LoadableComponent)? in
            guard let registration = try? host.registry.registration(for: entry.id) else { return nil }
            let context = ComponentContext(
                ids: ["order": order], backend: host.backend, clock: host.clock, timeout: timeout,
                payload: entry.payload)
            return registration.instantiate(in: Slot(id: entry.id) { _ in }, context: context)
        }.filter(\.validates)
        await withTaskGroup(of: Void.self) { group in
            for component in components { group.addTask { await component.load() } }
        }
        var vetoes = 0
        var lines: [String] = []
        for component in components {
            switch component.validate(.cancelOrder) {
            case .allow?: lines.append("\(component.id): ok")
            case .veto(let reason)?:
                vetoes += 1
                lines.append("\(component.id): veto: \(reason)")
            case nil:
                vetoes += 1
                lines.append("\(component.id): veto: could not check (\(component.snapshot.reason ?? "not loaded"))")
            }
        }
        let plural = vetoes == 1 ? "veto" : "vetoes"
        lines.append(
            vetoes == 0
                ? "Order \(order) can be cancelled." : "Order \(order) can't be cancelled (\(vetoes) \(plural)).")
        host.terminal.out(lines.map { $0 + "\n" }.joined())
        return vetoes == 0 ? .ok : .vetoed
    }
}
