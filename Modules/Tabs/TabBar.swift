import Core
import SafeText
import TerminalUI

/// One tab as the bar draws it.
public struct TabItem: Sendable, Equatable, Encodable {
    /// The tab's id.
    public let id: String
    /// Its label.
    public let title: String
    /// What the tab publishes (``TabParams``), e.g. its badge.
    public let params: [String: String]

    /// The badge drawn beside the title, if the tab publishes one.
    public var badge: String? { params[TabParams.badge] }

    init(_ tab: any TabPlugin) { (id, title, params) = (tab.id, tab.title, tab.params.values) }
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

/// The bar's look and feel, and the two-level observation: which tabs apply (asked again for every session) and
/// every applicable tab's params; it re-renders when either changes.
public final class TabBar: Sendable {
    private let container: TabContainer
    private let observations = Locked<[(TabParams, Int)]>([])

    /// A bar over `container`'s tabs.
    public init(container: TabContainer) { self.container = container }

    deinit { stopObserving() }

    /// The applicable tabs for `session`, in order, with their params now.
    public func items(for session: TabSession) -> [TabItem] { applicableTabs(session).map(TabItem.init) }

    /// Loads every applicable tab's content for `session`, all at once (their params change as answers arrive).
    public func load(_ session: TabSession) async {
        await withTaskGroup(of: Void.self) { group in
            for tab in applicableTabs(session) { group.addTask { await tab.load(session) } }
        }
    }

    /// Calls `render` now and again whenever an applicable tab's params change; a new session replaces the old
    /// observation (tabs that stop applying are no longer heard).
    public func observe(_ session: TabSession, render: @escaping @Sendable ([TabItem]) -> Void) {
        stopObserving()
        let applicable = applicableTabs(session)
        let snapshot = { @Sendable in applicable.map(TabItem.init) }
        let tokens = applicable.map { tab in (tab.params, tab.params.observe { _ in render(snapshot()) }) }
        observations.withLock { $0 = tokens }
        render(snapshot())
    }

    /// Ends every params observation.
    public func stopObserving() {
        for (params, token) in observations.withLock({ state in
            defer { state = [] }
            return state
        }) { params.stopObserving(token) }
    }

    /// What selecting tab `id` does, or nil when it is not applicable for `session`.
    public func open(_ id: String, session: TabSession) async -> TabOpening? {
        guard let tab = applicableTabs(session).first(where: { $0.id == id }) else { return nil }
        return await tab.open(session)
    }

    /// Opening tab `id` as a live screen shows it: the applicable tabs loaded for `session`, then the tab's
    /// screen lines, or what its action said; every line with control characters shown. Nil when it does not
    /// apply now.
    public func openedLines(_ id: String, session: TabSession) async -> [String]? {
        await load(session)
        switch await open(id, session: session) {
        case .screen(let lines)?: return lines.map(SafeText.visible)
        case .performed(let said)?, .failed(let said)?: return [SafeText.visible(said)]
        case nil: return nil
        }
    }

    /// The question tab `id` asks before it acts (Sign out), or nil for a screen tab or one that does not apply.
    public func confirmation(for id: String, session: TabSession) -> String? {
        applicableTabs(session).first { $0.id == id }?.confirmation
    }

    private func applicableTabs(_ session: TabSession) -> [any TabPlugin] {
        container.resolve().filter { $0.isApplicable(session) }
    }

    /// The bar as one line: "▸ Tracking   Profile   Feed (3)", the selected tab marked and bold.
    public static func render(_ items: [TabItem], selected: String, styler: TextStyler = TextStyler(colors: false))
        -> String
    {
        TabStrip.line(items.map { ($0.id, $0.title, $0.badge) }, selected: selected, styler: styler)
    }
}
