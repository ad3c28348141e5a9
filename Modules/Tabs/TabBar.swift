import Core
import TerminalUI

/// One tab as the bar draws it.
public struct TabItem: Sendable, Equatable, Encodable {
    /// The tab's id.
    public let id: String
    /// Its label.
    public let title: String
    /// Its badge, if any.
    public let badge: String?
}

/// The tab-bar plugin point: modules register tabs; only the Tabs module resolves them.
public final class TabContainer: Sendable {
    private let tabs: (point: PluginPoint<any TabPlugin>, resolver: PluginResolver<any TabPlugin>)

    /// An empty container; the host creates one and passes it on.
    public init() { tabs = PluginPoint.make(name: "tab bar") }

    /// Adds a tab; the same id twice is an error.
    public func register(_ tab: any TabPlugin) throws(PluginError) { try tabs.point.register(tab, id: tab.id) }

    func resolve() -> [any TabPlugin] { tabs.resolver.resolve().sorted { ($0.order, $0.id) < ($1.order, $1.id) } }
}

/// The bar's look and feel, and the two-level observation: it watches which tabs apply and every applicable
/// tab's badge, and re-renders when any of them changes.
public final class TabBar: Sendable {
    private let container: TabContainer
    private let observations = Locked<[(TabBadge, Int)]>([])

    /// A bar over `container`'s tabs.
    public init(container: TabContainer) { self.container = container }

    deinit { stopObserving() }

    /// The applicable tabs for `session`, in order, with their current badges.
    public func items(for session: TabSession) async -> [TabItem] {
        var items: [TabItem] = []
        for tab in container.resolve() where await tab.isApplicable(session) {
            items.append(TabItem(id: tab.id, title: tab.title, badge: tab.badge?.value))
        }
        return items
    }

    /// Calls `render` now and again whenever an applicable tab's badge changes.
    public func observe(_ session: TabSession, render: @escaping @Sendable ([TabItem]) -> Void) async {
        stopObserving()
        let applicable = await applicableTabs(session)
        let snapshot = { @Sendable in applicable.map { TabItem(id: $0.id, title: $0.title, badge: $0.badge?.value) } }
        var tokens: [(TabBadge, Int)] = []
        for tab in applicable {
            if let badge = tab.badge { tokens.append((badge, badge.observe { _ in render(snapshot()) })) }
        }
        observations.withLock { $0 = tokens }
        render(snapshot())
    }

    /// Ends every badge observation.
    public func stopObserving() {
        for (badge, token) in observations.withLock({ state in
            defer { state = [] }; return state
        }) { badge.stopObserving(token) }
    }

    /// The screen lines of tab `id`, or nil when it is not applicable.
    public func screen(of id: String, session: TabSession) async -> [String]? {
        guard let tab = await applicableTabs(session).first(where: { $0.id == id }) else { return nil }
        return await tab.screen(session)
    }

    private func applicableTabs(_ session: TabSession) async -> [any TabPlugin] {
        var result: [any TabPlugin] = []
        for tab in container.resolve() where await tab.isApplicable(session) { result.append(tab) }
        return result
    }

    /// The bar as one line: "▸ Tracking   Profile   Feed (3)", the selected tab marked and bold.
    public static func render(_ items: [TabItem], selected: String, styler: TextStyler = TextStyler(colors: false))
        -> String
    {
        items.map { item in
            let label = item.title + (item.badge.map { " (\($0))" } ?? "")
            return item.id == selected ? styler.apply(.bold, "▸ " + label) : label
        }.joined(separator: "   ")
    }
}
