import Core

/// The bar's info: the applicable tabs and which is selected.
public struct TabsInfo: Sendable, Equatable, Encodable {
    /// Applicable tabs, in order.
    public let items: [TabItem]
    /// The selected tab's id.
    public let selected: String
}

/// The tab bar as a component: loading until every applicable tab has loaded its content, then the bar.
public struct TabsComponent: Component {
    /// The id layouts use.
    public static let id: ComponentID = "tabs"
    private let bar: TabBar
    private let session: @Sendable () -> TabSession
    private let selected: String

    /// A bar over `container`, selecting `selected`, for the session `session()` reports when loaded.
    public init(container: TabContainer, selected: String, session: @escaping @Sendable () -> TabSession) {
        self.bar = TabBar(container: container)
        self.selected = selected
        self.session = session
    }

    /// Loads every applicable tab's content (so badges are known), then lays out the bar.
    public func load(_ context: ComponentContext) async throws -> TabsInfo {
        let session = session()
        await bar.load(session)
        return TabsInfo(items: bar.items(for: session), selected: selected)
    }

    /// A skeleton, the bar, or nothing.
    public func card(for state: ComponentState<TabsInfo>, context: ComponentContext) -> Block? {
        switch state {
        case .loading: .skeleton(title: "Courier", lines: 1)
        case .info(let info): Block(title: "Courier", rows: [Row(TabBar.render(info.items, selected: info.selected))])
        case .failed: nil
        }
    }
}

/// Tabs' face to hosts.
public enum TabsModule {
    /// The `tabs` card's registry line.
    public static func registration(
        container: TabContainer, selected: String, session: @escaping @Sendable () -> TabSession
    ) -> ComponentRegistration {
        ComponentRegistration(module: "Tabs", endpoint: "(tab plugins)") {
            TabsComponent(container: container, selected: selected, session: session)
        }
    }
}
