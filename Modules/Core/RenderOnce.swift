extension Component {
    /// Renders this component into `slot` once and returns its final state: the typed input interface a client
    /// uses without a registry (modules wrap it in their own `render(order:into:)`).
    public func render(into slot: Slot, context: ComponentContext) async -> ComponentState<Info> {
        let container = ComponentContainer(self, slot: slot, context: context)
        await container.load()
        return container.current
    }
}
